// Argument checks shared by the collective entry points (blocking and
// nonblocking, intra- and intercommunicator), and the dispatch of a
// scheduled collective.
//
// A buffer may be NULL (or MPI_BOTTOM) wherever the count involved is zero
// or its datatype holds absolute addresses (MPI-3.1 §4.1.12): a NULL buffer is
// refused only when the data would start in the never-mapped first page.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <memory>

#include "api/call.hpp"
#include "api/coll_check.hpp"
#include "coll/reduction.hpp"
#include "coll/schedule.hpp"
#include "coll/scheduled.hpp"

namespace ringmpi::api {

// The communicator of a collective (scan and exscan: intra_only). Inside,
// a nullptr request stands for the blocking form; the MPI_I* entry points
// refuse a NULL request argument before anything else.
// The passing cases of these checks are inline (every collective runs
// them; out of line they were a third of a zero-byte call), the failing
// ones format their messages out of line (coll_args.cpp).
[[gnu::cold]] int not_intracomm(Call& call, MPI_Comm h);
[[gnu::always_inline]] inline int coll_comm(Call& call, MPI_Comm h, comm::Comm** c, bool intra_only = false) {
  if (int e = call.comm(h, "comm", c)) return e;
  if (__builtin_expect(intra_only && (*c)->inter, 0)) return not_intracomm(call, h);
  return MPI_SUCCESS;
}
// Intracommunicator: 0..size-1. Intercommunicator: MPI_ROOT, MPI_PROC_NULL
// or a rank of the remote group.
int check_root_rest(Call& call, const comm::Comm& c, int root);  // intercommunicators, and failures
[[gnu::always_inline]] inline int check_root(Call& call, const comm::Comm& c, int root) {
  call.note_peer(root);
  if (__builtin_expect(!c.inter && static_cast<unsigned>(root) < static_cast<unsigned>(c.size()), 1))
    return MPI_SUCCESS;
  return check_root_rest(call, c, root);
}
// True when this rank's data arguments of a rooted collective matter as a
// sender/receiver (not an MPI_PROC_NULL rank of the root's group).
inline bool takes_part(const comm::Comm& c, int root) { return !(c.inter && root == MPI_PROC_NULL); }
inline bool is_root(const comm::Comm& c, int root) { return c.inter ? root == MPI_ROOT : c.rank == root; }

[[gnu::always_inline]] inline bool null_data(const void* buf, const dtype::Datatype& t) {
  return buf == nullptr && t.size > 0 && t.true_lb < 4096;
}
// The same for data `offset` bytes past buf (the byte displacements of the
// w forms): with buf MPI_BOTTOM they may be absolute addresses.
bool null_data_at(const void* buf, std::ptrdiff_t offset, const dtype::Datatype& t);
// A (buf, count, type) triple significant on this rank.
[[gnu::cold]] int null_buffer(Call& call, int count, const char* bufname, const char* countname);
[[gnu::always_inline]] inline int check_buffer(Call& call, const void* buf, int count, MPI_Datatype th, const char* bufname,
                        const char* countname, const char* typename_, const dtype::Datatype** t) {
  if (int e = call.count(count, countname)) return e;
  if (int e = call.datatype(th, typename_, t)) return e;
  if (__builtin_expect(count > 0 && null_data(buf, **t), 0)) return null_buffer(call, count, bufname, countname);
  return MPI_SUCCESS;
}
// counts/displs arrays of n entries, counts non-negative; buf checked against them.
int check_vector(Call& call, int n, const void* buf, const int* counts, const int* displs, const dtype::Datatype& t,
                 const char* bufname, const char* cname, const char* dname);
// A valid op defined for t; *out (when given) is the op object.
int check_op_slow(Call& call, MPI_Op op, const dtype::Datatype& t, const dtype::Op** out);
// The last predefined op and predefined datatype that passed check_op:
// both live until MPI_Finalize at fixed addresses and the answer cannot
// change, so the same pair passes again without the lookup and the
// kernel table (a third of a small reduction's argument checks). Calls
// are serialised at every thread level (api/call.hpp), as this is.
struct OpMemo {
  MPI_Op op = MPI_OP_NULL;
  const dtype::Datatype* type = nullptr;
  const dtype::Op* object = nullptr;
};
extern OpMemo g_op_memo;
[[gnu::always_inline]] inline int check_op(Call& call, MPI_Op op, const dtype::Datatype& t,
                                           const dtype::Op** out = nullptr) {
  if (__builtin_expect(op == g_op_memo.op && &t == g_op_memo.type && op != MPI_OP_NULL, 1)) {
    if (__builtin_expect(core::rt().check_mode, 0)) return check_op_slow(call, op, t, out);  // its lenient note
    if (out) *out = g_op_memo.object;
    return MPI_SUCCESS;
  }
  return check_op_slow(call, op, t, out);
}
// MPI_ERR_BUFFER when a byte that a send block reads is also written by a
// receive block (MPI-3.1 §2.3: an OUT argument may not alias another one;
// MPI_IN_PLACE is how a collective reuses its buffer). Blocks are
// (counts[i], displs[i] in extents of the type); displs == nullptr: one block
// at offset 0. Only blocks whose first data bytes coincide are caught, so a
// call is refused only when such a byte certainly exists.
int check_alias(Call& call, const void* sbuf, int sn, const int* scounts, const int* sdispls,
                const dtype::Datatype& st, const void* rbuf, int rn, const int* rcounts, const int* rdispls,
                const dtype::Datatype& rt);
// The same for one block on each side at offset 0 of one type t (the
// reductions): their first data bytes coincide only when the buffers do.
[[gnu::always_inline]] inline int check_alias_one(Call& call, const void* sbuf, int scount, const void* rbuf,
                                                  int rcount, const dtype::Datatype& t) {
  if (__builtin_expect(sbuf != rbuf || scount <= 0 || rcount <= 0 || t.size == 0, 1)) return MPI_SUCCESS;
  return check_alias(call, sbuf, 1, &scount, nullptr, t, rbuf, 1, &rcount, nullptr, t);
}
// The same from the blocks' first data bytes, for per-block datatypes and
// byte displacements (MPI_Alltoallw): (address, block index) of every block
// that moves data on each side.
using BlockStart = std::pair<std::uintptr_t, int>;
// (Inline: the uniform forms' alias test asks it four times a call.)
inline std::uintptr_t first_data_byte(const void* buf, std::ptrdiff_t offset, const dtype::Datatype& t) {
  return reinterpret_cast<std::uintptr_t>(buf) + static_cast<std::uintptr_t>(offset + t.true_lb);
}
int check_alias_starts(Call& call, const std::vector<BlockStart>& sends, std::vector<BlockStart> receives);
// MPI_ERR_BUFFER when buf is MPI_IN_PLACE (the message out of line).
[[gnu::cold]] int in_place_refused(Call& call, const char* name);
[[gnu::always_inline]] inline int not_in_place(Call& call, const void* buf, const char* name) {
  if (__builtin_expect(buf == MPI_IN_PLACE, 0)) return in_place_refused(call, name);
  return MPI_SUCCESS;
}

// Blocking (req == nullptr): runs s to its end; else starts it and sets *req.
// `types` are kept alive while a nonblocking one runs (MPI_Type_free may come first).
// `chk`: a nonblocking collective's --check record (agree()), exchanged before s runs.
int dispatch(Call& call, std::unique_ptr<coll::Schedule> s, MPI_Comm comm, MPI_Request* req, Pending chk = {});
void keep_type(coll::Schedule& s, MPI_Datatype h);

// Zero-byte collectives (issue 36). A collective whose own arguments tell
// this rank that no rank moves a byte -- by the standard's matching rules:
// a bcast's or a reduction's count and datatype are the same on every rank,
// a gather's recvcount at the root matches every rank's send and each
// rank's send matches it, likewise for scatter, allgather, alltoall,
// reduce_scatter's recvcounts and allgatherv's (every rank passes all
// counts); in the other v and w forms a rank knows only its own counts, so
// they run (but for MPI_Gatherv and MPI_Scatterv on two ranks, pair_empty
// below), and their algorithms skip the empty blocks on both sides
// (docs/design/collectives.md, "Zero bytes") -- and that promises no synchronisation
// (MPI-4.1 §6.1: only MPI_Barrier must synchronise) is complete at once,
// without meeting the other ranks. Every rank draws the same conclusion
// from its own arguments, so the collectives after it still match in order.
// Never under mpiexec --check (the round trip is how ranks compare their
// arguments, api/coll_check.hpp), nor on intercommunicators (there a root
// group's other ranks pass no count). The arguments are checked first, as
// for any call. `bytes` is called only where it applies.
template <class Bytes>
[[gnu::always_inline]] inline bool nothing_moves(const comm::Comm& c, Bytes bytes) {
  return !c.inter && !core::rt().check_mode && bytes() == 0;
}

// MPI_Gatherv and MPI_Scatterv on two ranks: the root knows the other
// rank's block from its counts and the other rank knows it from its own
// count (matching type signatures), so both find alike that no byte
// travels between them (`pair_bytes` 0). Then neither runs an algorithm --
// nor takes the segment's sequence number: both skip it -- and the root
// copies its own block itself. With more ranks a member does not know the
// others' blocks, so the v forms go on (the segment's sequence number).
// The persistent forms make no plan for such a call (api/coll_persist.cpp),
// so that every start takes this exit.
template <class Bytes>
[[gnu::always_inline]] inline bool pair_empty(const comm::Comm& c, Bytes pair_bytes) {
  return c.size() == 2 && nothing_moves(c, pair_bytes);
}

}  // namespace ringmpi::api
