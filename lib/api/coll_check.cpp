// mpiexec --check for collectives: the agreement exchange and the
// comparison (see coll_check.hpp for what is and is not checked).
//
// Every rank of the communicator contributes one fixed-size Record (plain
// bytes: names instead of handles, since a derived type's or a user op's
// handle means nothing in another process) through exchange::allgather_and
// on the communicator's collective context, tag exchange::kTagCheck. Every
// rank then runs the same comparison over the same records, so all find the
// same first mismatch; the communicator's rank 0 ends the job with the
// message (core::abort_job, which mpiexec reports as one line) and the
// others wait to be stopped, so that none runs a collective with arguments
// known to be wrong.
#include "api/coll_check.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "comm/peers.hpp"
#include "dtype/op.hpp"

namespace ringmpi::api {
namespace {

using Rule = CollArgs::Rule;

struct SideRecord {
  std::int32_t significant;
  std::int32_t count;
  std::int32_t basic;  // MPI_DATATYPE_NULL when the type mixes basic types
  std::int32_t pad;
  std::int64_t elements;  // basic elements of count x type
  std::int64_t bytes;
  char type[48];          // dtype::describe of the type, for messages
};

struct Record {
  char call[32];
  std::int32_t root;
  std::int32_t op;  // predefined op handle; MPI_OP_NULL: none or a user op
  char op_name[32];
  SideRecord send, recv;
};

void copy_name(char* dst, std::size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

SideRecord side_record(const CollArgs::Side& s) {
  SideRecord r{};
  r.significant = s.significant ? 1 : 0;
  if (!s.significant) return r;
  r.count = s.count;
  const dtype::Datatype* t = dtype::lookup(s.type);
  if (!t) return r;
  r.basic = t->basic;
  r.elements = static_cast<std::int64_t>(s.count) * static_cast<std::int64_t>(t->elements);
  r.bytes = static_cast<std::int64_t>(s.count) * static_cast<std::int64_t>(t->size);
  copy_name(r.type, sizeof r.type, dtype::describe(s.type));
  return r;
}

bool same_signature(const SideRecord& a, const SideRecord& b) {
  if (a.basic != b.basic) return a.elements == 0 && b.elements == 0;  // empty signatures match
  return a.elements == b.elements && (a.basic != MPI_DATATYPE_NULL || a.bytes == b.bytes);
}

bool same_basic(const SideRecord& a, const SideRecord& b) {
  if (a.basic == MPI_DATATYPE_NULL || b.basic == MPI_DATATYPE_NULL) return true;  // mixed: not compared
  if (a.basic == MPI_BYTE || a.basic == MPI_PACKED || b.basic == MPI_BYTE || b.basic == MPI_PACKED) return true;
  return a.basic == b.basic;
}

// "count 4 of MPI_INT"; the type left out when it reads as the other side's.
std::string count_of(const char* what, const SideRecord& s, const SideRecord* other) {
  std::string t = std::string(what) + " " + std::to_string(s.count);
  if (!other || std::strcmp(other->type, s.type) != 0) t += std::string(" of ") + s.type;
  return t;
}

class Verdict {
 public:
  Verdict(const Call& call, MPI_Comm comm) : call_(call.name()) {
    if (comm != MPI_COMM_WORLD) where_ = " on " + describe_comm(comm);
  }
  bool found() const { return !text_.empty(); }
  const std::string& text() const { return text_; }
  // "<call>: rank i <a>, rank j <b>"
  void set(int i, const std::string& a, int j, const std::string& b) {
    if (found()) return;
    text_ = std::string(call_) + where_ + ": rank " + std::to_string(i) + " " + a + ", rank " + std::to_string(j) +
            " " + b + " (mpiexec --check)";
  }

 private:
  const char* call_;
  std::string where_, text_;
};

// Block of the root / reference rank vs one rank's block.
void compare_blocks(Verdict& v, const std::vector<Record>& all, int ref, const SideRecord& ref_side,
                    const char* ref_what, bool ref_is_root, int i, const SideRecord& side, const char* what) {
  if (!ref_side.significant || !side.significant || same_signature(ref_side, side)) return;
  v.set(ref, std::string(ref_is_root ? "(root) " : "") + "passed " + count_of(ref_what, ref_side, nullptr), i,
        count_of(what, side, &ref_side));
  (void)all;
}

void compare(Verdict& v, const std::vector<Record>& all, Rule rule) {
  const int n = static_cast<int>(all.size());
  const Record& first = all[0];
  for (int i = 1; i < n && !v.found(); ++i)
    if (std::strcmp(all[i].call, first.call) != 0)
      v.set(0, std::string("called ") + first.call, i, std::string("called ") + all[i].call);
  for (int i = 1; i < n && !v.found(); ++i)
    if (all[i].root != first.root)
      v.set(0, "passed root " + std::to_string(first.root), i, "passed root " + std::to_string(all[i].root));
  for (int i = 1; i < n && !v.found(); ++i)
    if (std::strcmp(all[i].op_name, first.op_name) != 0 && (all[i].op != MPI_OP_NULL || first.op != MPI_OP_NULL))
      v.set(0, std::string("passed op ") + first.op_name, i, std::string("passed op ") + all[i].op_name);
  if (v.found()) return;
  const int root = first.root;
  switch (rule) {
    case Rule::same:
      for (int i = 1; i < n && !v.found(); ++i)
        if (first.send.significant && all[i].send.significant && !same_signature(first.send, all[i].send))
          v.set(0, "passed " + count_of("count", first.send, nullptr), i, count_of("count", all[i].send, &first.send));
      break;
    case Rule::gather:
      for (int i = 0; i < n && !v.found(); ++i)
        compare_blocks(v, all, root, all[root].recv, "recvcount", true, i, all[i].send, "sendcount");
      break;
    case Rule::scatter:
      for (int i = 0; i < n && !v.found(); ++i)
        compare_blocks(v, all, root, all[root].send, "sendcount", true, i, all[i].recv, "recvcount");
      break;
    case Rule::all:
      for (int i = 0; i < n && !v.found(); ++i) {
        compare_blocks(v, all, 0, first.recv, "recvcount", false, i, all[i].send, "sendcount");
        compare_blocks(v, all, 0, first.recv, "recvcount", false, i, all[i].recv, "recvcount");
      }
      break;
    case Rule::types:
      for (int i = 0; i < n && !v.found(); ++i)
        for (int j = 0; j < n && !v.found(); ++j)
          if (all[i].send.significant && all[j].recv.significant && !same_basic(all[i].send, all[j].recv))
            v.set(i, std::string("sends ") + all[i].send.type, j, std::string("receives ") + all[j].recv.type);
      break;
    case Rule::none:
      break;
  }
}

}  // namespace

void agree_slow(const Call& call, const comm::Comm& c, MPI_Comm comm, const CollArgs& a) {
  if (c.inter) return;
  Record mine{};
  copy_name(mine.call, sizeof mine.call, call.name());
  mine.root = a.root;
  if (a.op != MPI_OP_NULL) {
    const dtype::Op* op = dtype::lookup_op(a.op);
    mine.op = op && op->builtin != MPI_OP_NULL ? op->builtin : MPI_OP_NULL;
    copy_name(mine.op_name, sizeof mine.op_name, op && op->builtin != MPI_OP_NULL ? op->name : "a user-defined op");
  }
  mine.send = side_record(a.send);
  mine.recv = side_record(a.recv);
  const exchange::Peers peers = comm::peers_of(c);
  std::vector<Record> all(static_cast<std::size_t>(peers.size()));
  std::uint64_t mask = ~std::uint64_t{0};
  exchange::allgather_and(peers, &mine, sizeof mine, all.data(), &mask, 1, exchange::kTagCheck);
  Verdict v(call, comm);
  compare(v, all, a.rule);
  if (!v.found()) return;
  if (c.rank == 0) core::abort_job(shm::ExitKind::fatal_error, 1, v.text().c_str());
  // Rank 0 of the communicator reports; mpiexec stops the rest of us.
  for (;;) pause();
}

}  // namespace ringmpi::api
