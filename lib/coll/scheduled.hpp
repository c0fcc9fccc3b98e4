// The collectives as schedules (lib/coll/schedule.hpp): what the
// nonblocking collectives and all intercommunicator collectives run.
//
// Each builder appends its steps to `s`; arguments were checked by lib/api
// and the count and displacement arrays are read only while building (the
// schedule keeps addresses, not the arrays). Intracommunicator builders
// address peers by comm rank; intercommunicator builders (inter_*) map a
// remote rank j to its index in the union order (coll::peers_of).
//
// The algorithms favour few rounds over few bytes: every transfer of a
// round is started at once, which a nonblocking engine can afford (no cycle
// of blocked senders can form: nothing blocks). Reductions fold operands in
// rank order, so non-commutative operations get the standard's result.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "coll/reduction.hpp"
#include "coll/schedule.hpp"
#include "coll/typed.hpp"

namespace ringmpi::coll {

// Typed transfers and copies inside a schedule: non-contiguous data is
// packed by a local step right before the send, and unpacked by a local
// step after the round in which it arrives.
void sched_send(Schedule& s, int to, const Typed& t);
void sched_recv(Schedule& s, int from, const Typed& t);
void sched_copy(Schedule& s, const Typed& from, const Typed& to);
// A local step: result = x[0] op x[1] op ... op x[k-1] (k >= 1), in that order.
void sched_fold(Schedule& s, const Reduction& r, std::vector<const void*> x, void* result);

// One block of an all-to-all: `count` elements of `type` at byte offset `displ`.
struct Block {
  std::ptrdiff_t displ;
  int count;
  const dtype::Datatype* type;
};

// Reductions of at least min_bytes (Schedule::block_reduction_min,
// RINGMPI_COLL_BLOCK_REDUCTION_MIN, 32768 by default) and at least one
// element per rank go by blocks: a reduce-scatter in which rank i folds
// block i, then (allreduce) an allgather of the blocks; each rank moves
// about twice the vector instead of the root receiving n of them. Below
// it, fewer and smaller messages win. Measured with bench/coll at np 2 and
// 4 (docs/guide/benchmarks-and-figures.md).
bool reduce_by_blocks(const Reduction& r, int n, std::size_t min_bytes);
// Small nonblocking allreduces on 3 to Schedule::alltoall_reduce_ranks
// ranks (RINGMPI_COLL_ALLTOALL_REDUCE_RANKS, 16 by default) exchange every
// contribution with every rank (one round) instead of a reduce and a bcast
// (measured on 2 cores, 4 B: np=4 13 us against 16; at np=2 the reduce and
// bcast win, 0.75 us against 0.93).

// Allgathers of at least min_bytes in all: every rank sends its
// block straight to every other (large blocks go by single copy, each
// receiver reading the sender's buffer) instead of a gather and a broadcast
// of the whole through rank 0.
bool allgather_direct(int n, const int* counts, const dtype::Datatype& t, std::size_t min_bytes);

// Gathers, scatters and all-to-alls with blocks of the same size everywhere
// (the non-v forms) run as schedules above the eager-safe size: every
// transfer is posted at once, so the receivers read their blocks in parallel
// (single copy) instead of one rendezvous after the other.
bool fan_out_scheduled(std::size_t block_bytes);

void sched_barrier(Schedule& s);
void sched_bcast(Schedule& s, const Typed& buf, int root);
void sched_gatherv(Schedule& s, const Typed& send, bool in_place, const void* recvbuf, const int* counts,
                   const int* displs, const dtype::Datatype& rtype, int root);
void sched_scatterv(Schedule& s, const void* sendbuf, const int* counts, const int* displs,
                    const dtype::Datatype& stype, const Typed& recv, bool in_place, int root);
void sched_allgatherv(Schedule& s, const Typed& send, bool in_place, void* recvbuf, const int* counts,
                      const int* displs, const dtype::Datatype& rtype);
// sends/recvs: one Block per rank; with in_place the data to send is in recvbuf as received.
void sched_alltoallw(Schedule& s, const void* sendbuf, const std::vector<Block>& sends, void* recvbuf,
                     const std::vector<Block>& recvs, bool in_place);
void sched_reduce(Schedule& s, const Reduction& r, const void* mine, void* result, int root);
void sched_allreduce(Schedule& s, const Reduction& r, const void* mine, void* result);
void sched_reduce_scatter(Schedule& s, const Reduction& r, const void* mine, void* result, const int* counts);
void sched_scan(Schedule& s, const Reduction& r, const void* mine, void* result, bool exclusive);

// Neighbourhood all-to-all (MPI-3.1 §7.6): block j of `sends` to
// destinations[j], block i of `recvs` from sources[i], receives posted in
// recv_order; MPI_PROC_NULL neighbours are skipped (their blocks untouched).
// The allgather forms pass the same block for every destination.
void sched_neighbor_alltoallw(Schedule& s, const void* sendbuf, std::span<const Block> sends,
                              const std::vector<int>& destinations, void* recvbuf, std::span<const Block> recvs,
                              const std::vector<int>& sources, const std::vector<int>& recv_order);

// Intercommunicator forms (MPI-3.1 §5.2.2): `root` is MPI_ROOT at the root,
// MPI_PROC_NULL at the rest of its group, the root's rank in the remote group
// on the other side. Counts and displacements index the remote group.
void inter_bcast(Schedule& s, const comm::Comm& c, const Typed& buf, int root);
void inter_gatherv(Schedule& s, const comm::Comm& c, const Typed& send, const void* recvbuf, const int* counts,
                   const int* displs, const dtype::Datatype* rtype, int root);
void inter_scatterv(Schedule& s, const comm::Comm& c, const void* sendbuf, const int* counts, const int* displs,
                    const dtype::Datatype* stype, const Typed& recv, int root);
void inter_allgatherv(Schedule& s, const comm::Comm& c, const Typed& send, void* recvbuf, const int* counts,
                      const int* displs, const dtype::Datatype& rtype);
void inter_alltoallw(Schedule& s, const comm::Comm& c, const void* sendbuf, const std::vector<Block>& sends,
                     void* recvbuf, const std::vector<Block>& recvs);
void inter_reduce(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result, int root);
// Each group gets the reduction of the other group's contributions.
void inter_allreduce(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result);
// The reduction of the remote group's full vectors (r.count elements), the
// local group's counts[i] elements to local rank i.
void inter_reduce_scatter(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result,
                          const int* counts);
// One piece of an intercommunicator reduce-scatter of more than INT_MAX
// elements (api/coll.cpp): elements [first, first + r.count) of the
// vectors, `mine` pointing at this rank's piece. As inter_reduce_scatter,
// every rank sends its piece to every remote rank and folds the remote
// group's pieces, then keeps the part of its own block [block_first,
// block_first + block_count) that lies in the piece, at that place of
// `result` (the block's start).
void inter_reduce_scatter_piece(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine,
                                std::int64_t first, void* result, std::int64_t block_first, std::int64_t block_count);

}  // namespace ringmpi::coll
