#include "api/coll_args.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "api/lenient.hpp"
#include "dtype/op.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::api {

int not_intracomm(Call& call, MPI_Comm h) {
  return call.fail(MPI_ERR_COMM, "%s is an intercommunicator; this operation is defined on intracommunicators only",
                   describe_comm(h).c_str());
}

int check_root_rest(Call& call, const comm::Comm& c, int root) {
  if (!c.inter) {
    if (root < 0 || root >= c.size())
      return call.fail(MPI_ERR_ROOT, "argument root=%d is outside 0..%d of %s", root, c.size() - 1,
                       describe_comm(call.comm_handle()).c_str());
    return MPI_SUCCESS;
  }
  if (root == MPI_ROOT || root == MPI_PROC_NULL) return MPI_SUCCESS;
  if (root < 0 || root >= c.remote_size())
    return call.fail(MPI_ERR_ROOT,
                     "argument root=%d is neither MPI_ROOT, MPI_PROC_NULL nor a rank 0..%d of the remote group of "
                     "intercommunicator %s",
                     root, c.remote_size() - 1, describe_comm(call.comm_handle()).c_str());
  return MPI_SUCCESS;
}

bool null_data_at(const void* buf, std::ptrdiff_t offset, const dtype::Datatype& t) {
  return buf == nullptr && t.size > 0 && offset + t.true_lb < 4096;
}

int null_buffer(Call& call, int count, const char* bufname, const char* countname) {
  return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s=%d", bufname, countname, count);
}

int check_vector(Call& call, int n, const void* buf, const int* counts, const int* displs, const dtype::Datatype& t,
                 const char* bufname, const char* cname, const char* dname) {
  if (n > 0 && counts == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", cname);
  if (n > 0 && displs == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", dname);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%d is negative", cname, i, counts[i]);
    any |= counts[i] > 0;
  }
  if (any && null_data(buf, t)) return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s has non-zero entries", bufname, cname);
  return MPI_SUCCESS;
}

namespace {

int alias_error(Call& call, int i, int j) {
  return call.fail(MPI_ERR_BUFFER,
                   "arguments sendbuf and recvbuf overlap: send block %d and receive block %d start at the same "
                   "byte (buffers may not alias, MPI-3.1 section 2.3; use MPI_IN_PLACE)",
                   i, j);
}

}  // namespace

int check_alias_starts(Call& call, const std::vector<BlockStart>& sends, std::vector<BlockStart> receives) {
  if (receives.empty()) return MPI_SUCCESS;
  std::sort(receives.begin(), receives.end());
  for (const auto& [a, i] : sends) {
    auto it = std::lower_bound(receives.begin(), receives.end(), BlockStart{a, 0});
    if (it != receives.end() && it->first == a) return alias_error(call, i, it->second);
  }
  return MPI_SUCCESS;
}

int check_alias(Call& call, const void* sbuf, int sn, const int* scounts, const int* sdispls,
                const dtype::Datatype& st, const void* rbuf, int rn, const int* rcounts, const int* rdispls,
                const dtype::Datatype& rt) {
  if (st.size == 0 || rt.size == 0) return MPI_SUCCESS;
  // First data byte of block i (displs in extents; none: one block at 0).
  auto first = [](const void* buf, const int* displs, int i, const dtype::Datatype& t) {
    return first_data_byte(buf, displs ? static_cast<std::ptrdiff_t>(displs[i]) * t.extent : 0, t);
  };
  if (sn == 1 || rn == 1) {  // one side has one block: a plain scan, nothing allocated
    for (int i = 0; i < sn; ++i) {
      if (scounts[i] <= 0) continue;
      const std::uintptr_t a = first(sbuf, sdispls, i, st);
      for (int j = 0; j < rn; ++j)
        if (rcounts[j] > 0 && first(rbuf, rdispls, j, rt) == a) return alias_error(call, i, j);
    }
    return MPI_SUCCESS;
  }
  // The usual case, separate buffers: the ranges of the two sides' block
  // starts do not meet, so no two starts are equal (nothing allocated or
  // sorted; an MPI_Alltoall spent six allocations per call here).
  struct Range {
    std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  };
  const auto range = [&](const void* buf, int n, const int* counts, const int* displs, const dtype::Datatype& t) {
    Range r;
    for (int i = 0; i < n; ++i)
      if (counts[i] > 0) {
        const std::uintptr_t a = first(buf, displs, i, t);
        r.lo = std::min(r.lo, a);
        r.hi = std::max(r.hi, a);
      }
    return r;
  };
  const Range sr = range(sbuf, sn, scounts, sdispls, st), rr = range(rbuf, rn, rcounts, rdispls, rt);
  if (sr.hi < rr.lo || rr.hi < sr.lo) return MPI_SUCCESS;  // also when either side has no block
  std::vector<BlockStart> sends, receives;
  sends.reserve(static_cast<std::size_t>(sn));
  receives.reserve(static_cast<std::size_t>(rn));
  for (int i = 0; i < sn; ++i)
    if (scounts[i] > 0) sends.emplace_back(first(sbuf, sdispls, i, st), i);
  for (int j = 0; j < rn; ++j)
    if (rcounts[j] > 0) receives.emplace_back(first(rbuf, rdispls, j, rt), j);
  return check_alias_starts(call, sends, std::move(receives));
}

OpMemo g_op_memo;

int check_op_slow(Call& call, MPI_Op op, const dtype::Datatype& t, const dtype::Op** out) {
  if (op == MPI_OP_NULL) return call.fail(MPI_ERR_OP, "argument op is MPI_OP_NULL");
  const dtype::Op* o = dtype::lookup_op(op);
  if (!o)
    return call.fail(MPI_ERR_OP, "argument op=0x%x is not a valid operation (freed, or not an op handle)",
                     static_cast<unsigned>(op));
  if (!dtype::op_applies(*o, t)) return call.fail(MPI_ERR_OP, "%s", dtype::op_mismatch(op, t).c_str());
  lenient_op(call, op, t);
  // A predefined op (never freed) on a predefined datatype (never freed):
  // the pair passes next time without these lookups (check_op).
  if (o->builtin != MPI_OP_NULL && t.predefined) g_op_memo = OpMemo{op, &t, o};
  if (out) *out = o;
  return MPI_SUCCESS;
}

int in_place_refused(Call& call, const char* name) {
  return call.fail(MPI_ERR_BUFFER, "argument %s may not be MPI_IN_PLACE here", name);
}

int dispatch(Call& call, std::unique_ptr<coll::Schedule> s, MPI_Comm comm, MPI_Request* req, Pending chk) {
  if (__builtin_expect(chk != nullptr, 0)) return start_checked(call, std::move(s), comm, req, std::move(chk));
  if (req) {
    if (int e = coll::start(std::move(s), comm, req)) return call.fail(e, "%s", p2p::error_detail());
    return MPI_SUCCESS;
  }
  if (int e = coll::run(*s)) return call.fail(e, "%s", s->describe());
  return MPI_SUCCESS;
}

void keep_type(coll::Schedule& s, MPI_Datatype h) {
  // A predefined type lives to the end: no shared reference (two atomic
  // counts) to take for it.
  if (const dtype::Datatype* t = dtype::lookup(h); t == nullptr || t->predefined) return;
  if (dtype::TypePtr t = dtype::lookup_shared(h); t && !t->predefined) s.keep(std::move(t));
}

}  // namespace ringmpi::api
