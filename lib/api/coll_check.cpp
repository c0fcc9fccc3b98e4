// mpiexec --check for collectives: the exchange and the comparison (see
// coll_check.hpp for what is checked).
//
// Every participant (the communicator's ranks; an intercommunicator's union
// of both groups, in comm::peers_of order) sends its Record to every other
// participant on the communicator's collective context, and receives
// theirs: plain bytes (names instead of handles, since a derived type's or a
// user op's handle means nothing in another process): a Head, reduce_scatter's
// recvcounts, then one Entry per block this rank sends (to whom, count,
// signature) and one per block it receives, in the order the transfers match.
// Every rank then runs the same comparison over the same records, so all find
// the same first mismatch; participant 0 ends the job with the message
// (core::abort_job, which mpiexec reports as one line) and the others pause
// until mpiexec stops them, so that none runs a collective with arguments
// known to be wrong.
//
// Tag: exchange::kTagCheck for every collective, blocking or not. Each
// starting call posts its receives and sends its record at once, in the
// order the collectives are called (which the standard makes the same on
// every rank of a communicator), and p2p matches the messages of one pair
// and tag in order, so the k-th record a rank gets from a peer is that peer's
// record for the same collective, even with nonblocking ones outstanding. A
// rank that called another collective (blocking where the others started a
// nonblocking one, say) is reported as such.
//
// Size: a record holds at most cap(n) = n + 16 entries per side (n
// participants); a receive is posted for the largest record. Entries past the
// cap (neighbourhoods with more than n + 16 edges) are left out and not
// compared.
#include "api/coll_check.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "coll/schedule.hpp"
#include "comm/peers.hpp"
#include "dtype/op.hpp"
#include "exchange/tags.hpp"
#include "p2p/engine.hpp"
#include "p2p/extension.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/request.hpp"
#include "p2p/wait.hpp"
#include "topo/neighbors.hpp"

namespace ringmpi::api {
namespace {

using Rule = CollArgs::Rule;
using Shape = CollArgs::Shape;

struct SideRecord {
  std::int32_t significant;
  std::int32_t count;
  std::int32_t basic;  // MPI_DATATYPE_NULL when the type mixes basic types
  std::int32_t pad;
  std::int64_t elements;  // basic elements of count x type
  std::int64_t bytes;
  char type[48];          // dtype::describe of the type, for messages
};

struct Head {
  char call[32];
  std::int32_t root;
  std::int32_t op;  // predefined op handle; MPI_OP_NULL: none or a user op
  char op_name[32];
  std::int32_t rule;
  std::int32_t nsend, nrecv, ncounts;
  std::int32_t truncated;  // entries past the cap left out
  std::int32_t pad;
  SideRecord send, recv;
};

// One block this rank sends to or receives from one participant.
struct Entry {
  std::int32_t peer;   // participant index
  std::int32_t index;  // position in the argument array ("sendcounts[index]"); -1: a scalar argument
  std::int32_t count;
  std::int32_t basic;
  std::int64_t elements, bytes;
  char arg[16];   // "sendcounts", "recvcount"
  char type[40];  // dtype::describe of the type
};

std::size_t cap(int n) { return static_cast<std::size_t>(n) + 16; }
std::size_t max_record(int n) {
  return sizeof(Head) + sizeof(std::int32_t) * static_cast<std::size_t>(n) + sizeof(Entry) * 2 * cap(n);
}

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

Entry make_entry(int peer, int index, int count, MPI_Datatype type, const char* arg) {
  Entry e{};
  e.peer = peer;
  e.index = index;
  e.count = count;
  copy_name(e.arg, sizeof e.arg, arg);
  if (const dtype::Datatype* t = dtype::lookup(type)) {
    e.basic = t->basic;
    e.elements = static_cast<std::int64_t>(count) * static_cast<std::int64_t>(t->elements);
    e.bytes = static_cast<std::int64_t>(count) * static_cast<std::int64_t>(t->size);
    copy_name(e.type, sizeof e.type, dtype::describe(type));
  }
  return e;
}

// A record as the comparison reads it.
struct View {
  Head h{};
  std::vector<std::int32_t> counts;
  std::vector<Entry> sends, recvs;
};

std::vector<std::byte> serialize(const View& v) {
  std::vector<std::byte> out(sizeof(Head) + sizeof(std::int32_t) * v.counts.size() +
                             sizeof(Entry) * (v.sends.size() + v.recvs.size()));
  std::byte* p = out.data();
  std::memcpy(p, &v.h, sizeof v.h);
  p += sizeof v.h;
  if (!v.counts.empty()) std::memcpy(p, v.counts.data(), sizeof(std::int32_t) * v.counts.size());
  p += sizeof(std::int32_t) * v.counts.size();
  if (!v.sends.empty()) std::memcpy(p, v.sends.data(), sizeof(Entry) * v.sends.size());
  p += sizeof(Entry) * v.sends.size();
  if (!v.recvs.empty()) std::memcpy(p, v.recvs.data(), sizeof(Entry) * v.recvs.size());
  return out;
}

// False when the bytes are not a whole record (a truncated or garbled one).
bool parse(const std::byte* p, std::size_t bytes, View* v) {
  if (bytes < sizeof(Head)) return false;
  std::memcpy(&v->h, p, sizeof(Head));
  const Head& h = v->h;
  if (h.nsend < 0 || h.nrecv < 0 || h.ncounts < 0) return false;
  const std::size_t need = sizeof(Head) + sizeof(std::int32_t) * static_cast<std::size_t>(h.ncounts) +
                           sizeof(Entry) * static_cast<std::size_t>(h.nsend + h.nrecv);
  if (bytes != need) return false;
  p += sizeof(Head);
  v->counts.resize(static_cast<std::size_t>(h.ncounts));
  if (h.ncounts) std::memcpy(v->counts.data(), p, sizeof(std::int32_t) * v->counts.size());
  p += sizeof(std::int32_t) * v->counts.size();
  v->sends.resize(static_cast<std::size_t>(h.nsend));
  if (h.nsend) std::memcpy(v->sends.data(), p, sizeof(Entry) * v->sends.size());
  p += sizeof(Entry) * v->sends.size();
  v->recvs.resize(static_cast<std::size_t>(h.nrecv));
  if (h.nrecv) std::memcpy(v->recvs.data(), p, sizeof(Entry) * v->recvs.size());
  v->h.call[sizeof v->h.call - 1] = '\0';
  v->h.op_name[sizeof v->h.op_name - 1] = '\0';
  return true;
}

// Where participants sit: an intracommunicator's ranks, or an
// intercommunicator's union (the group with local_first set first).
struct Geometry {
  bool inter = false;
  int n = 0;        // participants
  int first = 0;    // size of the first group (intercommunicators)
  int remote_off = 0;  // participant index of remote rank 0 (intercommunicators)
  int me = 0;
  explicit Geometry(const comm::Comm& c) : inter(c.inter), me(0) {
    if (!c.inter) {
      n = c.size();
      first = n;
      me = c.rank;
      return;
    }
    n = c.size() + c.remote_size();
    first = c.local_first ? c.size() : c.remote_size();
    remote_off = c.local_first ? c.size() : 0;
    me = (c.local_first ? 0 : c.remote_size()) + c.rank;
  }
  // Rank r of the group the collective's data goes to (remote group of an intercommunicator).
  int target(int r) const { return inter ? remote_off + r : r; }
  int group(int i) const { return i < first ? 0 : 1; }
  int group_rank(int i) const { return i < first ? i : i - first; }
  // "rank 2", or "rank 2 of the remote group" (relative to participant 0, which reports).
  std::string label(int i) const {
    if (!inter) return "rank " + std::to_string(i);
    return "rank " + std::to_string(group_rank(i)) + (group(i) == 0 ? " of the local group" : " of the remote group");
  }
};

int count_at(const int* counts, int i, int fallback) { return counts ? counts[i] : fallback; }
MPI_Datatype type_at(const MPI_Datatype* types, int i, MPI_Datatype fallback) { return types ? types[i] : fallback; }

void add(std::vector<Entry>& v, std::size_t limit, std::int32_t& truncated, const Entry& e) {
  if (v.size() < limit)
    v.push_back(e);
  else
    truncated = 1;
}

// This rank's record.
View build(const Call& call, const comm::Comm& c, const Geometry& g, const CollArgs& a) {
  View v;
  Head& h = v.h;
  copy_name(h.call, sizeof h.call, call.name());
  h.root = a.root;
  h.rule = static_cast<std::int32_t>(a.rule);
  if (a.op != MPI_OP_NULL) {
    const dtype::Op* op = dtype::lookup_op(a.op);
    h.op = op && op->builtin != MPI_OP_NULL ? op->builtin : MPI_OP_NULL;
    copy_name(h.op_name, sizeof h.op_name, op && op->builtin != MPI_OP_NULL ? op->name : "a user-defined op");
  }
  h.send = side_record(a.send);
  h.recv = side_record(a.recv);
  if (a.rule == Rule::counts && a.recvcounts)
    v.counts.assign(a.recvcounts, a.recvcounts + c.size());
  const std::size_t limit = cap(g.n);
  const int k = c.inter ? c.remote_size() : c.size();
  const char* sarg = a.send_v ? "sendcounts" : "sendcount";
  const char* rarg = a.recv_v ? "recvcounts" : "recvcount";
  // Block i of a side, to or from participant `peer`.
  auto send_block = [&](int peer, int i) {
    return make_entry(peer, a.send_v ? i : -1, count_at(a.sendcounts, i, a.send.count),
                      type_at(a.sendtypes, i, a.send.type), sarg);
  };
  auto recv_block = [&](int peer, int i) {
    return make_entry(peer, a.recv_v ? i : -1, count_at(a.recvcounts, i, a.recv.count),
                      type_at(a.recvtypes, i, a.recv.type), rarg);
  };
  auto send_to = [&](int peer, int i) { add(v.sends, limit, h.truncated, send_block(peer, i)); };
  auto recv_from = [&](int peer, int i) { add(v.recvs, limit, h.truncated, recv_block(peer, i)); };
  // In place (intracommunicators): this rank's block for peer j is its receive block j.
  auto send_own = [&](int peer, int i) { add(v.sends, limit, h.truncated, recv_block(peer, i)); };
  const bool self_in_place = !c.inter && a.in_place;
  switch (a.shape) {
    case Shape::none:
      break;
    case Shape::to_root:
      if (a.send.significant) send_to(g.target(a.root), -1);
      if (a.recv.significant)
        for (int i = 0; i < k; ++i)
          if (!(self_in_place && g.target(i) == g.me)) recv_from(g.target(i), i);
      break;
    case Shape::from_root:
      if (a.send.significant)
        for (int j = 0; j < k; ++j)
          if (!(self_in_place && g.target(j) == g.me)) send_to(g.target(j), j);
      if (a.recv.significant) recv_from(g.target(a.root), -1);
      break;
    case Shape::allgather:
      for (int j = 0; j < k; ++j) {
        if (self_in_place && g.target(j) == g.me) continue;
        if (self_in_place)
          send_own(g.target(j), c.rank);
        else if (a.send.significant)
          send_to(g.target(j), -1);
      }
      for (int i = 0; i < k; ++i)
        if (!(self_in_place && g.target(i) == g.me)) recv_from(g.target(i), i);
      break;
    case Shape::alltoall:
      for (int j = 0; j < k; ++j) {
        if (self_in_place && g.target(j) == g.me) continue;
        if (self_in_place)
          send_own(g.target(j), j);
        else
          send_to(g.target(j), j);
      }
      for (int i = 0; i < k; ++i)
        if (!(self_in_place && g.target(i) == g.me)) recv_from(g.target(i), i);
      break;
    case Shape::neighbor: {
      const topo::Neighbors& nb = *a.neighbors;
      for (std::size_t j = 0; j < nb.destinations.size(); ++j)
        if (nb.destinations[j] != MPI_PROC_NULL) send_to(nb.destinations[j], static_cast<int>(j));
      for (int i : nb.recv_order) {
        const int src = nb.sources[static_cast<std::size_t>(i)];
        if (src != MPI_PROC_NULL) recv_from(src, i);
      }
      break;
    }
  }
  h.nsend = static_cast<std::int32_t>(v.sends.size());
  h.nrecv = static_cast<std::int32_t>(v.recvs.size());
  h.ncounts = static_cast<std::int32_t>(v.counts.size());
  return v;
}

// ---- comparison -----------------------------------------------------------

bool same_signature(const SideRecord& a, const SideRecord& b) {
  if (a.basic != b.basic) return a.elements == 0 && b.elements == 0;  // empty signatures match
  return a.elements == b.elements && (a.basic != MPI_DATATYPE_NULL || a.bytes == b.bytes);
}

bool is_bytes(std::int32_t basic) { return basic == MPI_BYTE || basic == MPI_PACKED; }

// A block sent against the block received: equal signatures, or MPI_BYTE /
// MPI_PACKED on either side with equal sizes.
bool blocks_match(const Entry& s, const Entry& r) {
  if (s.elements == 0 && r.elements == 0) return true;
  if (is_bytes(s.basic) || is_bytes(r.basic)) return s.bytes == r.bytes;
  if (s.basic != r.basic) return false;
  return s.elements == r.elements && (s.basic != MPI_DATATYPE_NULL || s.bytes == r.bytes);
}

// "count 4 of MPI_INT"; the type left out when it reads as the other side's.
std::string count_of(const char* what, const SideRecord& s, const SideRecord* other) {
  std::string t = std::string(what) + " " + std::to_string(s.count);
  if (!other || std::strcmp(other->type, s.type) != 0) t += std::string(" of ") + s.type;
  return t;
}

// "sendcounts[2]=4 of MPI_INT" or "sendcount 4 of MPI_INT".
std::string entry_text(const Entry& e) {
  std::string t = e.arg;
  t += e.index >= 0 ? "[" + std::to_string(e.index) + "]=" + std::to_string(e.count) : " " + std::to_string(e.count);
  return t + " of " + (e.type[0] ? e.type : "MPI_DATATYPE_NULL");
}

std::string root_text(std::int32_t root) {
  if (root == MPI_ROOT) return "root MPI_ROOT";
  if (root == MPI_PROC_NULL) return "root MPI_PROC_NULL";
  return "root " + std::to_string(root);
}

class Verdict {
 public:
  Verdict(const char* call, MPI_Comm comm, const Geometry& g) : call_(call), g_(g) {
    if (comm != MPI_COMM_WORLD) where_ = " on " + describe_comm(comm);
  }
  bool found() const { return !text_.empty(); }
  const std::string& text() const { return text_; }
  // "<call>: rank i <a>, rank j <b>"
  void set(int i, const std::string& a, int j, const std::string& b) {
    if (found()) return;
    text_ = std::string(call_) + where_ + ": " + g_.label(i) + " " + a + ", " + g_.label(j) + " " + b +
            " (mpiexec --check)";
  }
  const Geometry& geometry() const { return g_; }

 private:
  const char* call_;
  const Geometry& g_;
  std::string where_, text_;
};

// Block of the root / reference rank vs one rank's block.
void compare_blocks(Verdict& v, int ref, const SideRecord& ref_side, const char* ref_what, bool ref_is_root, int i,
                    const SideRecord& side, const char* what) {
  if (!ref_side.significant || !side.significant || same_signature(ref_side, side)) return;
  v.set(ref, std::string(ref_is_root ? "(root) " : "") + "passed " + count_of(ref_what, ref_side, nullptr), i,
        count_of(what, side, &ref_side));
}

// Intercommunicator roots: one group passes MPI_ROOT at one rank and
// MPI_PROC_NULL at the others, the other group passes that rank everywhere.
void compare_inter_roots(Verdict& v, const std::vector<View>& all) {
  const Geometry& g = v.geometry();
  struct Group {
    std::vector<int> roots, nulls, nums;
  } grp[2];
  for (int i = 0; i < g.n; ++i) {
    const int r = all[static_cast<std::size_t>(i)].h.root;
    Group& gr = grp[g.group(i)];
    (r == MPI_ROOT ? gr.roots : r == MPI_PROC_NULL ? gr.nulls : gr.nums).push_back(i);
  }
  auto root_of = [&](int i) { return all[static_cast<std::size_t>(i)].h.root; };
  for (const Group& gr : grp) {
    if (gr.roots.size() > 1) v.set(gr.roots[0], root_text(MPI_ROOT), gr.roots[1], "passed " + root_text(MPI_ROOT));
    if (!gr.roots.empty() && !gr.nums.empty())
      v.set(gr.roots[0], "passed " + root_text(MPI_ROOT), gr.nums[0], "passed " + root_text(root_of(gr.nums[0])));
    if (!gr.nums.empty() && !gr.nulls.empty())
      v.set(gr.nums[0], "passed " + root_text(root_of(gr.nums[0])), gr.nulls[0], "passed " + root_text(MPI_PROC_NULL));
    for (int i : gr.nums)
      if (root_of(i) != root_of(gr.nums[0]))
        v.set(gr.nums[0], "passed " + root_text(root_of(gr.nums[0])), i, "passed " + root_text(root_of(i)));
  }
  if (v.found()) return;
  for (int gi = 0; gi < 2 && !v.found(); ++gi) {
    const Group& me = grp[gi];
    const Group& other = grp[1 - gi];
    const int other_base = gi == 0 ? g.first : 0;
    if (!me.nums.empty()) {
      // Every rank of this group names rank r of the other group as the root.
      const int named = other_base + root_of(me.nums[0]);
      if (root_of(named) != MPI_ROOT)
        v.set(me.nums[0], "passed " + root_text(root_of(me.nums[0])), named, "passed " + root_text(root_of(named)));
    } else if (!me.roots.empty() && other.nums.empty()) {
      // This group has the root; nobody in the other group names it.
      const int j = other_base;
      v.set(me.roots[0], "passed " + root_text(MPI_ROOT), j, "passed " + root_text(root_of(j)));
    } else if (me.roots.empty() && other.roots.empty() && other.nums.empty() && gi == 0) {
      v.set(0, "passed " + root_text(root_of(0)), g.first, "passed " + root_text(root_of(g.first)));
    }
  }
}

// Every block rank i sends to rank j against the block j receives from i,
// in the order they match; only pairs with `check(i, j)`.
template <class Check>
void compare_pairs(Verdict& v, const std::vector<View>& all, Check&& check) {
  const int n = v.geometry().n;
  const std::size_t un = static_cast<std::size_t>(n);
  // recv_by[j][i]: j's receives from i, in order.
  std::vector<std::vector<std::vector<const Entry*>>> recv_by(un, std::vector<std::vector<const Entry*>>(un));
  for (std::size_t j = 0; j < un; ++j)
    for (const Entry& e : all[j].recvs)
      if (e.peer >= 0 && e.peer < n) recv_by[j][static_cast<std::size_t>(e.peer)].push_back(&e);
  for (int i = 0; i < n && !v.found(); ++i) {
    std::vector<std::vector<const Entry*>> send_by(un);
    for (const Entry& e : all[static_cast<std::size_t>(i)].sends)
      if (e.peer >= 0 && e.peer < n) send_by[static_cast<std::size_t>(e.peer)].push_back(&e);
    for (int j = 0; j < n && !v.found(); ++j) {
      if (!check(i, j)) continue;
      const auto& s = send_by[static_cast<std::size_t>(j)];
      const auto& r = recv_by[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
      const bool partial = all[static_cast<std::size_t>(i)].h.truncated || all[static_cast<std::size_t>(j)].h.truncated;
      const std::string to = " to " + v.geometry().label(j);
      for (std::size_t m = 0; m < std::max(s.size(), r.size()) && !v.found(); ++m) {
        const Entry* se = m < s.size() ? s[m] : nullptr;
        const Entry* re = m < r.size() ? r[m] : nullptr;
        if (se && re) {
          if (!blocks_match(*se, *re)) v.set(i, "sends " + entry_text(*se) + to, j, "expects " + entry_text(*re));
        } else if (!partial && se && se->elements > 0) {
          v.set(i, "sends " + entry_text(*se) + to, j, "expects nothing from " + v.geometry().label(i));
        } else if (!partial && re && re->elements > 0) {
          v.set(i, "sends nothing" + to, j, "expects " + entry_text(*re));
        }
      }
    }
  }
}

void compare_same(Verdict& v, const std::vector<View>& all) {
  const int n = v.geometry().n;
  int ref = -1;
  for (int i = 0; i < n && !v.found(); ++i) {
    const SideRecord& s = all[static_cast<std::size_t>(i)].h.send;
    if (!s.significant) continue;
    if (ref < 0) {
      ref = i;
      continue;
    }
    const SideRecord& r = all[static_cast<std::size_t>(ref)].h.send;
    if (!same_signature(r, s)) v.set(ref, "passed " + count_of("count", r, nullptr), i, count_of("count", s, &r));
  }
}

// reduce_scatter: recvcounts identical within each group.
void compare_counts(Verdict& v, const std::vector<View>& all) {
  const Geometry& g = v.geometry();
  for (int i = 0; i < g.n && !v.found(); ++i) {
    const int ref = g.group(i) == 0 ? 0 : g.first;
    const auto& a = all[static_cast<std::size_t>(ref)].counts;
    const auto& b = all[static_cast<std::size_t>(i)].counts;
    for (std::size_t k = 0; k < std::min(a.size(), b.size()) && !v.found(); ++k)
      if (a[k] != b[k])
        v.set(ref, "passed recvcounts[" + std::to_string(k) + "]=" + std::to_string(a[k]), i,
              "passed recvcounts[" + std::to_string(k) + "]=" + std::to_string(b[k]));
  }
}

// Neighbourhood collectives: only this rank's neighbours' records are here;
// every edge this rank is on, in (sender, receiver) order. Both ends of an
// edge find the same mismatch and word it the same way.
void compare_neighbors(Verdict& v, const std::vector<View>& all, const std::vector<int>& partners) {
  const int me = v.geometry().me;
  std::vector<int> near = partners;
  near.push_back(me);
  std::sort(near.begin(), near.end());
  for (int p : near) {
    const int lo = std::min(p, me), hi = std::max(p, me);
    const char* a = all[static_cast<std::size_t>(lo)].h.call;
    const char* b = all[static_cast<std::size_t>(hi)].h.call;
    if (std::strcmp(a, b) != 0) v.set(lo, std::string("called ") + a, hi, std::string("called ") + b);
  }
  if (v.found()) return;
  std::vector<bool> is_near(all.size(), false);
  for (int p : near) is_near[static_cast<std::size_t>(p)] = true;
  compare_pairs(v, all, [&](int i, int j) {
    return (i == me || j == me) && is_near[static_cast<std::size_t>(i)] && is_near[static_cast<std::size_t>(j)];
  });
}

void compare(Verdict& v, const std::vector<View>& all) {
  const Geometry& g = v.geometry();
  const int n = g.n;
  const Head& first = all[0].h;
  for (int i = 1; i < n && !v.found(); ++i) {
    const char* call = all[static_cast<std::size_t>(i)].h.call;
    if (std::strcmp(call, first.call) != 0)
      v.set(0, std::string("called ") + first.call, i, std::string("called ") + call);
  }
  if (v.found()) return;
  if (g.inter && first.root != CollArgs::kNoRoot) {
    compare_inter_roots(v, all);
  } else {
    for (int i = 1; i < n && !v.found(); ++i)
      if (all[static_cast<std::size_t>(i)].h.root != first.root)
        v.set(0, "passed " + root_text(first.root), i, "passed " + root_text(all[static_cast<std::size_t>(i)].h.root));
  }
  for (int i = 1; i < n && !v.found(); ++i) {
    const Head& h = all[static_cast<std::size_t>(i)].h;
    if (std::strcmp(h.op_name, first.op_name) != 0 && (h.op != MPI_OP_NULL || first.op != MPI_OP_NULL))
      v.set(0, std::string("passed op ") + first.op_name, i, std::string("passed op ") + h.op_name);
  }
  if (v.found()) return;
  Rule rule = static_cast<Rule>(first.rule);
  if (g.inter && (rule == Rule::gather || rule == Rule::scatter || rule == Rule::all)) rule = Rule::pairs;
  const int root = first.root;
  auto rec = [&](int i) -> const Head& { return all[static_cast<std::size_t>(i)].h; };
  switch (rule) {
    case Rule::same:
      compare_same(v, all);
      break;
    case Rule::counts:
      compare_counts(v, all);
      if (!v.found()) compare_same(v, all);
      break;
    case Rule::gather:
      for (int i = 0; i < n && !v.found(); ++i)
        compare_blocks(v, root, rec(root).recv, "recvcount", true, i, rec(i).send, "sendcount");
      break;
    case Rule::scatter:
      for (int i = 0; i < n && !v.found(); ++i)
        compare_blocks(v, root, rec(root).send, "sendcount", true, i, rec(i).recv, "recvcount");
      break;
    case Rule::all:
      for (int i = 0; i < n && !v.found(); ++i) {
        compare_blocks(v, 0, first.recv, "recvcount", false, i, rec(i).send, "sendcount");
        compare_blocks(v, 0, first.recv, "recvcount", false, i, rec(i).recv, "recvcount");
      }
      break;
    case Rule::pairs:
      compare_pairs(v, all, [](int, int) { return true; });
      break;
    case Rule::none:
      break;
  }
}

// ---- the exchange ------------------------------------------------------------

// This rank's record to every other participant, theirs from each.
class Exchange {
 public:
  // partners: the participants to exchange with (sorted, not this rank).
  Exchange(exchange::Peers peers, int tag, std::vector<std::byte> mine, std::vector<int> partners)
      : peers_(std::move(peers)), tag_(tag), mine_(std::move(mine)), partners_(std::move(partners)) {
    const std::size_t n = static_cast<std::size_t>(peers_.size());
    bufs_.resize(n);
    recvs_.assign(n, nullptr);
    sizes_.assign(n, 0);
  }
  const std::vector<int>& partners() const { return partners_; }
  ~Exchange() {
    for (p2p::Request* r : sends_)
      if (r && r->complete) p2p::release_internal(r);
    for (p2p::Request* r : recvs_)
      if (r && r->complete) p2p::release_internal(r);
  }
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  void start() {
    const int me = peers_.me;
    const std::size_t max = max_record(peers_.size());
    for (int i : partners_) {
      bufs_[static_cast<std::size_t>(i)].reset(new std::byte[max]);
      recvs_[static_cast<std::size_t>(i)] =
          p2p::irecv_internal(bufs_[static_cast<std::size_t>(i)].get(), max, peers_.id(i), tag_, peers_.context);
    }
    // Spread the senders over the receivers: start after this rank.
    const auto after = std::upper_bound(partners_.begin(), partners_.end(), me);
    std::vector<int> order(after, partners_.end());
    order.insert(order.end(), partners_.begin(), after);
    for (int j : order)
      if (p2p::Request* r = p2p::isend_internal(mine_.data(), mine_.size(), peers_.world[static_cast<std::size_t>(j)],
                                                tag_, peers_.context, peers_.id(me)))
        sends_.push_back(r);
  }
  // Every record is here.
  bool received() {
    bool all = true;
    for (std::size_t i = 0; i < recvs_.size(); ++i) {
      p2p::Request* r = recvs_[i];
      if (!r) continue;
      if (!r->complete) {
        all = false;
        continue;
      }
      sizes_[i] = r->st_error == MPI_SUCCESS ? r->st_count : 0;
      p2p::release_internal(r);
      recvs_[i] = nullptr;
    }
    return all;
  }
  // Our record has left (its buffer may go).
  bool sent() {
    for (std::size_t i = 0; i < sends_.size();) {
      if (!sends_[i]->complete) {
        ++i;
        continue;
      }
      p2p::release_internal(sends_[i]);
      sends_[i] = sends_.back();
      sends_.pop_back();
    }
    return sends_.empty();
  }
  // The records in participant order (empty for those not exchanged with);
  // a record that does not parse reads as a call named "(unreadable record)".
  std::vector<View> views() const {
    std::vector<View> all(bufs_.size());
    for (std::size_t i = 0; i < bufs_.size(); ++i) {
      const bool own = static_cast<int>(i) == peers_.me;
      if (!own && !bufs_[i]) continue;
      const std::byte* p = own ? mine_.data() : bufs_[i].get();
      const std::size_t bytes = own ? mine_.size() : sizes_[i];
      if (!parse(p, bytes, &all[i])) {
        all[i] = View{};
        copy_name(all[i].h.call, sizeof all[i].h.call, "(unreadable record)");
      }
    }
    return all;
  }

 private:
  exchange::Peers peers_;
  int tag_;
  std::vector<std::byte> mine_;
  std::vector<int> partners_;  // sorted
  std::vector<std::unique_ptr<std::byte[]>> bufs_;
  std::vector<std::size_t> sizes_;
  std::vector<p2p::Request*> recvs_, sends_;
};

// The first mismatch in words, or "".
std::string judge(const char* call, MPI_Comm comm, const Geometry& g, const Exchange& ex, bool local) {
  const std::vector<View> all = ex.views();
  Verdict v(call, comm, g);
  if (local)
    compare_neighbors(v, all, ex.partners());
  else
    compare(v, all);
  return v.text();
}

// On a mismatch participant 0 ends the job and the others wait to be
// stopped. Neighbourhood collectives (`local`): the ranks that see a
// mismatch on one of their edges end the job (mpiexec prints the first).
bool reports(const Geometry& g, bool local) { return g.me == 0 || local; }
[[noreturn]] void stop(const std::string& text, bool report) {
  if (report) core::abort_job(shm::ExitKind::fatal_error, 1, text.c_str());
  for (;;) pause();  // mpiexec stops us
}

// The request of a nonblocking collective under --check: the exchange, then
// (once every record is here and agrees) the collective's schedule.
class Checked final : public p2p::Extension {
 public:
  Checked(std::unique_ptr<Exchange> ex, std::unique_ptr<coll::Schedule> s, const char* call, MPI_Comm comm,
          Geometry g, bool local)
      : ex_(std::move(ex)), s_(std::move(s)), call_(call), comm_(comm), g_(g), local_(local) {}
  bool poll() override {
    if (!checked_) {
      if (!ex_->received()) return false;
      if (const std::string text = judge(call_, comm_, g_, *ex_, local_); !text.empty())
        stop(text, reports(g_, local_));
      checked_ = true;
    }
    if (!done_) done_ = s_->poll();
    return done_ && ex_->sent();
  }
  int error() const override { return s_->error(); }
  const char* describe() const override { return s_->describe(); }

 private:
  std::unique_ptr<Exchange> ex_;
  std::unique_ptr<coll::Schedule> s_;
  const char* call_;
  MPI_Comm comm_;
  Geometry g_;
  bool local_;
  bool checked_ = false, done_ = false;
};

}  // namespace

class PendingCheck {
 public:
  PendingCheck(comm::Comm& c, const char* call, std::vector<std::byte> record, std::vector<int> partners, bool local)
      : c(c), call(call), record(std::move(record)), partners(std::move(partners)), local(local) {}
  comm::Comm& c;
  const char* call;
  std::vector<std::byte> record;
  std::vector<int> partners;  // whom to exchange with
  bool local;                 // a neighbourhood collective (partners: the neighbours)
};

namespace {

// Neighbourhood collectives exchange records with their neighbours only
// (a rank with no neighbours waits for nobody, as without --check).
std::vector<int> partners_of(const CollArgs& a, const Geometry& g, bool* local) {
  const int me = g.me;
  *local = a.shape == Shape::neighbor;
  std::vector<int> p;
  if (!*local) {
    for (int i = 0; i < g.n; ++i)
      if (i != me) p.push_back(i);
    return p;
  }
  for (int r : a.neighbors->sources)
    if (r != MPI_PROC_NULL && r != me) p.push_back(r);
  for (int r : a.neighbors->destinations)
    if (r != MPI_PROC_NULL && r != me) p.push_back(r);
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  return p;
}

}  // namespace

void PendingCheckDeleter::operator()(PendingCheck* p) const { delete p; }

Pending agree_slow(const Call& call, comm::Comm& c, MPI_Comm comm, const CollArgs& a, MPI_Request* req) {
  const Geometry g(c);
  std::vector<std::byte> mine = serialize(build(call, c, g, a));
  bool local = false;
  std::vector<int> partners = partners_of(a, g, &local);
  if (req) return Pending(new PendingCheck(c, call.name(), std::move(mine), std::move(partners), local));
  Exchange ex(comm::peers_of(c), exchange::kTagCheck, std::move(mine), std::move(partners));
  ex.start();
  p2p::wait_until([&ex] { return ex.received(); });
  const std::string text = judge(call.name(), comm, g, ex, local);
  // Our record must have left before we stop (the reporter may still be reading it).
  p2p::wait_until([&ex] { return ex.sent(); });
  if (!text.empty()) stop(text, reports(g, local));
  return Pending{};
}

int start_checked(Call& call, std::unique_ptr<coll::Schedule> s, MPI_Comm comm, MPI_Request* req, Pending chk) {
  comm::Comm& c = chk->c;
  const bool local = chk->local;
  auto ex = std::make_unique<Exchange>(comm::peers_of(c), exchange::kTagCheck, std::move(chk->record),
                                       std::move(chk->partners));
  ex->start();
  s->round();  // what coll::start does before it starts a schedule
  auto checked = std::make_unique<Checked>(std::move(ex), std::move(s), chk->call, comm, Geometry(c), local);
  if (int e = p2p::start_extension(std::move(checked), comm, req)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api
