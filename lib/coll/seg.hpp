// Blocking collectives on a communicator's shared segment (coll/segment.hpp
// has the layout and the protocol; docs/design/collectives.md the
// algorithms). Whether one applies to a call is decided before it is
// called (coll/fits.hpp, coll/select.hpp: the caller chose the segment for
// the call from what every rank knows alike); they do not decline.
// The reductions return the error class of applying the operation.
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

// The mode the segment algorithms read of RINGMPI_COLL_<family>
// (coll/select.hpp effective_mode: 1 no NUMA leaders, 3 NUMA leaders).
int family_mode(tunables::Id family);

// Nonblocking collectives on the segment (coll/seg_nonblocking.cpp), on a
// segment attached already: they run calls chosen for them
// (coll/select.hpp) and return the start's error class.
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
// Data movement (coll/seg_nonblocking_movement.cpp); recvtype: the handle
// kept alive until completion.
int iseg_scatterv(const std::shared_ptr<Segment>& s, const void* sendbuf, const int* counts, const int* displs,
                  const dtype::Datatype& stype, const Typed& recv, MPI_Datatype recvtype, bool in_place, int root,
                  MPI_Comm comm, MPI_Request* request);
int iseg_gatherv(const std::shared_ptr<Segment>& s, const Typed& send, bool in_place, void* recvbuf,
                 const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request);
int iseg_allgatherv(const std::shared_ptr<Segment>& s, const Typed& send, bool in_place, void* recvbuf,
                    const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request);
int iseg_alltoallv(const std::shared_ptr<Segment>& s, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, MPI_Datatype recvtype, bool in_place, MPI_Comm comm,
                   MPI_Request* request);

void seg_barrier(Segment& s);

// Two levels (coll/seg_numa.cpp): whether family runs its NUMA-aware form on
// s (counts it when yes), and those forms.
bool two_level(const Segment& s, tunables::Id family);
void bcast_two_level(Segment& s, const Typed& buf, int root);
bool fold_two_level_applies(const Segment& s, const Reduction& r, tunables::Id family);
int fold_two_level(Segment& s, const Reduction& r, const void* mine, void* result, int root, bool all);
void seg_bcast(Segment& s, const Typed& buf, int root);
// `block`: the bytes of every block when all ranks know it (MPI_Scatter,
// MPI_Gather), else -1 (the v forms).
void seg_scatterv(Segment& s, const void* sendbuf, const int* counts, const int* displs, const dtype::Datatype& stype,
                  const Typed& recv, bool in_place, int root, long long block);
void seg_gatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                 const dtype::Datatype& rtype, int root, long long block);
void seg_allgatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                    const dtype::Datatype& rtype);
void seg_alltoallv(Segment& s, const void* sendbuf, const int* scounts, const int* sdispls,
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
// Where the choice (coll/fits.hpp neighbor_fits) put it: single copy, and
// the topology's widest table fits a slot region.
void seg_neighbor(Segment& s, const NeighborArgs& a);
namespace seg {
class Temp;
}
// Their steps (the persistent plan's too, coll/persistent_plan.cpp): this
// member's table of collective k published and posted, the others woken
// (the mode: seg::kInSlot or seg::kByAddress; *keep holds packed copies);
// and every receive block from member j, once j has posted k.
std::uint64_t neighbor_publish(Segment& s, std::uint64_t k, const NeighborArgs& a, std::unique_ptr<seg::Temp>* keep);
void neighbor_take(const Segment& s, std::uint64_t k, const NeighborArgs& a, int j);
// The nonblocking form: the start's error class; what `keep` holds (the
// lists, derived datatypes) then lives until the operation completes.
int iseg_neighbor(const std::shared_ptr<Segment>& s, const NeighborArgs& a,
                  std::vector<std::shared_ptr<const void>>& keep, MPI_Comm comm, MPI_Request* request);
// The same on a communicator of one rank, where every neighbour is this
// rank or MPI_PROC_NULL: each receive block is copied from the send block
// it pairs with (no segment, no message).
void neighbor_self(const NeighborArgs& a);

// Reductions: the error class of applying the operation (MPI_SUCCESS).
int seg_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root);
int seg_allreduce(Segment& s, const Reduction& r, const void* mine, void* result);
int seg_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result, const int* counts);
int seg_scan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive);

}  // namespace ringmpi::coll
