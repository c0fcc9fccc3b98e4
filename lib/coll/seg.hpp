// Blocking collectives on a communicator's shared segment (coll/segment.hpp
// has the layout and the protocol; docs/design/collectives.md the
// algorithms). Each function returns false, having done nothing, when its
// algorithm does not apply to the call; that verdict rests only on what
// every rank knows alike (sizes all ranks agree on, the communicator size,
// the agreed single-copy bit), so every rank takes the same path.
//
// Data moves in one of two ways, chosen per call:
//   - through a region of the writer's slot (one copy in, one copy out per
//     reader): data up to half a slot;
//   - straight from the writer's buffer, which it publishes by address and
//     keeps until every reader is done (one copy: process_vm_readv).
// Reductions fold in rank order, x0 op (x1 op (... op x(n-1))), every
// element by one rank in one order, so non-commutative operations get the
// standard's result and all ranks the same bits.
#pragma once

#include "coll/reduction.hpp"
#include "coll/scheduled.hpp"
#include "coll/segment.hpp"
#include <memory>

#include "coll/typed.hpp"
#include "core/small_vec.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::coll {

// The segment to run collective `family` (one of tunables::Id::coll_*) on,
// or nullptr for the message-passing algorithms: RINGMPI_COLL_* forces
// either; by default the segment is used whenever c has one (the figures
// behind that choice: docs/design/collectives.md).
Segment* segment_for(comm::Comm& c, tunables::Id family);
// RINGMPI_COLL_<family> (0 .. 3, read once).
int family_mode(tunables::Id family);
// Whether the blocking form of `family` (bcast, scatter, gather, allgather,
// alltoall, allreduce, scan) with `bytes` per block leaves the segment for
// messages although it could run there: two ranks, each with a core, and
// little data, when RINGMPI_COLL_<family> does not force a path. There a
// message is one ring entry that the receiver polls directly, one
// cache-line transfer for header and data, where the segment moves the
// posted word, the data and the done word. Measured with bench/coll at
// np = 2 (us, segment / messages): bcast 4 B 0.23 / 0.11, 4 KiB 0.70 /
// 0.64, 16 KiB 2.5 / 2.1, 64 KiB 8.9 / 8.9; scatter 4 B 0.19 / 0.14,
// 1 KiB 0.37 / 0.29, 4 KiB 0.72 / 0.71; allgather 64 B 0.22 / 0.19, 1 KiB
// 0.33 / 0.36; alltoall 64 B 0.29 / 0.23; allreduce 64 B 0.23 / 0.18;
// scan 64 B 0.17 / 0.13, 1 KiB 0.22 / 0.30. Scatter takes messages below
// 2 KiB blocks (1 KiB ones included, as those figures say), and the v forms of scatter
// and gather decide as the plain ones: with two ranks both know the one
// block that moves. Measured again for that (best of 4-6 alternating runs
// on a loaded machine, so slower than above): scatter 1 KiB 1.18 / 0.95,
// scatterv 256 B 0.73 / 0.44, 1 KiB 1.16 / 0.93; at 2 KiB the runs
// disagreed (scatter 1.50 / 1.23 and 1.52 / 1.49, scatterv 1.60 / 1.04
// and 1.20 / 1.42). Reduce, exscan and reduce_scatter were as fast or
// faster on the segment at every size, and so stay there.
bool two_ranks_by_messages(const Segment& s, tunables::Id family, std::size_t bytes);

// Nonblocking collectives on the segment (coll/seg_nonblocking.cpp): the
// segment when c has one attached already and the family is not forced to
// messages (nor under mpiexec --check), else nullptr. The iseg_* functions
// return -1, having done nothing, when their form does not apply (then a
// schedule runs), else the start's error class.
std::shared_ptr<Segment> nonblocking_segment(comm::Comm& c, tunables::Id family);
int iseg_barrier(const std::shared_ptr<Segment>& s, MPI_Comm comm, MPI_Request* request);
int iseg_bcast(const std::shared_ptr<Segment>& s, const Typed& buf, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request);
// root -1: MPI_Iallreduce.
int iseg_reduce(const std::shared_ptr<Segment>& s, const Reduction& r, const void* mine, void* result, int root,
                MPI_Comm comm, MPI_Request* request);
int iseg_scan(const std::shared_ptr<Segment>& s, const Reduction& r, const void* mine, void* result, bool exclusive,
              MPI_Comm comm, MPI_Request* request);
int iseg_reduce_scatter(const std::shared_ptr<Segment>& s, const Reduction& r, const void* mine, void* result,
                        const int* counts, MPI_Comm comm, MPI_Request* request);
// Data movement (coll/seg_nonblocking_movement.cpp); `block` as for the
// blocking forms below; recvtype: the handle kept alive until completion.
int iseg_scatterv(const std::shared_ptr<Segment>& s, const void* sendbuf, const int* counts, const int* displs,
                  const dtype::Datatype& stype, const Typed& recv, MPI_Datatype recvtype, bool in_place, int root,
                  long long block, MPI_Comm comm, MPI_Request* request);
int iseg_gatherv(const std::shared_ptr<Segment>& s, const Typed& send, bool in_place, void* recvbuf,
                 const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype, int root,
                 long long block, MPI_Comm comm, MPI_Request* request);
int iseg_allgatherv(const std::shared_ptr<Segment>& s, const Typed& send, bool in_place, void* recvbuf,
                    const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request);
int iseg_alltoallv(const std::shared_ptr<Segment>& s, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, MPI_Datatype recvtype, bool in_place, long long block, MPI_Comm comm,
                   MPI_Request* request);

void seg_barrier(Segment& s);

// Two levels (coll/seg_numa.cpp): whether family runs its NUMA-aware form on
// s (counts it when yes), and those forms.
bool two_level(const Segment& s, tunables::Id family);
void bcast_two_level(Segment& s, const Typed& buf, int root);
bool fold_two_level_applies(const Segment& s, const Reduction& r, tunables::Id family);
int fold_two_level(Segment& s, const Reduction& r, const void* mine, void* result, int root, bool all);
bool seg_bcast(Segment& s, const Typed& buf, int root);
// `block`: the bytes of every block when all ranks know it (MPI_Scatter,
// MPI_Gather), else -1 (the v forms).
bool seg_scatterv(Segment& s, const void* sendbuf, const int* counts, const int* displs, const dtype::Datatype& stype,
                  const Typed& recv, bool in_place, int root, long long block);
bool seg_gatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                 const dtype::Datatype& rtype, int root, long long block);
bool seg_allgatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                    const dtype::Datatype& rtype);
bool seg_alltoallv(Segment& s, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, bool in_place, long long block);

// One neighbourhood exchange (seg_neighbor.cpp): MPI_Neighbor_allgather(v)
// (`gather`: sends[0] goes to every destination) or
// MPI_Neighbor_alltoall(v,w): block j of sendbuf to destinations[j], block
// i of recvbuf from sources[i], receive blocks matched in recv_order
// (topo/neighbors.hpp); the three lists must outlive a nonblocking one.
// The block lists keep up to kInlineBlocks blocks inline (a 3-D grid has 6
// neighbours): no heap allocation per call for the usual topologies.
inline constexpr std::size_t kInlineBlocks = 8;
using BlockList = core::SmallVec<Block, kInlineBlocks>;
struct NeighborArgs {
  const void* sendbuf;
  BlockList sends;
  void* recvbuf;
  BlockList recvs;
  const std::vector<int>* destinations;
  const std::vector<int>* sources;
  const std::vector<int>* recv_order;
  bool gather;
};
// `max_outdegree`: the topology's largest out-degree (-1: unknown, then
// the segment does not apply).
bool seg_neighbor(Segment& s, int max_outdegree, const NeighborArgs& a);
// The nonblocking form: -1 when it does not apply (nothing done, `keep`
// untouched), else the start's error class; what `keep` holds (the lists,
// derived datatypes) then lives until the operation completes.
int iseg_neighbor(const std::shared_ptr<Segment>& s, int max_outdegree, const NeighborArgs& a,
                  std::vector<std::shared_ptr<const void>>& keep, MPI_Comm comm, MPI_Request* request);
// The same on a communicator of one rank, where every neighbour is this
// rank or MPI_PROC_NULL: each receive block is copied from the send block
// it pairs with (no segment, no message).
void neighbor_self(const NeighborArgs& a);

// Reductions: -1 when the segment algorithm does not apply, else the error
// class of applying the operation (MPI_SUCCESS).
int seg_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root);
int seg_allreduce(Segment& s, const Reduction& r, const void* mine, void* result);
int seg_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result, const int* counts);
int seg_scan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive);

}  // namespace ringmpi::coll
