// Persistent collectives planned once (MPI-4.0 §6.12; lib/api/coll_persist.cpp
// makes them): one member's part of a persistent collective on the
// communicator's shared segment, built when the segment is known (at _init,
// or at the first start that finds it attached) and re-armed by every
// MPI_Start. The plan holds everything a nonblocking start would work out
// again (algorithm, block sizes and places, the reduction, the datatype
// objects, the list of blocks to read), so a start is: take the next
// sequence number, write this member's contribution, queue the reads; and
// the completion polls this object directly (no inner request, no
// allocation, no tag, no schedule).
//
// The protocol on the segment is the nonblocking one (coll/seg_op.hpp,
// coll/segment.hpp "Sequence numbers", "Reuse rules"): at its start a member
// writes all it contributes into its slot region and posts; its reads need
// only the other members' starts; it completes its reads in sequence order
// with its other nonblocking segment collectives (Segment::drain) and then
// stores done = k. So MPI_Start never waits for another member's later call
// (it may wait, in Segment::reserve, for readers of its slot to finish
// collectives they have started already, as every segment start does).
//
// Two ranks with a core each and data in the two-rank messages bands (the
// compiled rules, a user's file or a set RINGMPI_COLL_PAIR_*: coll/select.hpp
// pair_rule, mode 0): the
// plan is the blocking call's own algorithm there, one internal message
// each way that moves (PairPlan in persistent_plan.cpp). Its start sends
// (eager: into the peer's ring at once; else a pooled request the epoch
// polls) and never waits; its poll takes the peer's message straight from
// the ring when it is the next record there (p2p::try_recv_internal), else
// posts an internal receive and polls that. Each start takes the next
// schedule tag of the communicator (coll/schedule.hpp next_tag), as a
// nonblocking collective run as a schedule does, so its messages match
// nothing else: blocking calls (the user-collective tags), nonblocking
// ones and other persistent requests started in between on the same
// communicator all use other tags.
//
// Plans exist only where the data travels through slot regions (small data:
// no published address whose owner must wait for its readers) and every
// member decides alike from what all know (sizes, the communicator size, the
// agreed single-copy bit and core count): make_plan_* returns nullptr
// otherwise, and each start runs the nonblocking form instead (which may
// still use the segment, by address, or a schedule).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "coll/reduction.hpp"
#include "coll/seg.hpp"
#include "coll/segment.hpp"
#include "coll/select.hpp"
#include "coll/typed.hpp"

namespace ringmpi::coll {

class PersistentPlan {
 public:
  explicit PersistentPlan(Segment* s) : s_(s) {}
  virtual ~PersistentPlan() = default;
  PersistentPlan(const PersistentPlan&) = delete;
  PersistentPlan& operator=(const PersistentPlan&) = delete;

  Segment* segment() const { return s_; }
  // Starts one epoch on communicator c; `live` is c's segment (the one this
  // plan was made for), which a plan that uses it keeps alive until the
  // epoch is over (live_).
  virtual void start(comm::Comm& c, const std::shared_ptr<Segment>& live);
  // Advances the running epoch (inside progress()); true once it is over.
  virtual bool poll();
  // The algorithm it runs (counted per start: MPIX_Query_counter, the report).
  virtual Algo algo() const { return Algo::segment; }
  // The epoch's error class (a reduction's), once poll() said true.
  int error() const { return error_; }
  // Whether this member's epoch reads others' posts (else it is done with
  // the segment when start() returns, and only waits for its readers).
  virtual bool reads() const { return false; }

 protected:
  Segment& seg() const { return *s_; }
  std::uint64_t k() const { return k_; }
  // This member's contribution to collective k(), written and posted; a
  // member that reads nothing (reads() false) may leave the wake-up of the
  // others to start(), which wakes them once with its done.
  virtual void write() = 0;
  // ready(): the posts complete() reads are there.
  virtual bool ready() { return true; }
  // The reads and folds: an error class.
  virtual int complete() { return MPI_SUCCESS; }
  // Nobody reads this member's published memory any more (its readers'
  // done >= k()): only then is the epoch over, the memory being the caller's.
  virtual bool released() { return true; }
  // The epoch is over: drop what it held (a packed copy, a publication).
  virtual void ended() {}
  std::shared_ptr<Segment> live_;
  int error_ = MPI_SUCCESS;

 private:
  bool try_complete();
  Segment* s_;
  std::uint64_t k_ = 0;
  bool read_ = true;
};

// MPI_Barrier_init: MPI_Ibarrier's per-member counter (always applies).
std::unique_ptr<PersistentPlan> plan_barrier(Segment& s);
// MPI_Bcast_init.
std::unique_ptr<PersistentPlan> plan_bcast(Segment& s, const Typed& buf, int root);
// MPI_Reduce_init (root >= 0) and MPI_Allreduce_init (root -1); `mine` is
// the send buffer (recvbuf with MPI_IN_PLACE).
std::unique_ptr<PersistentPlan> plan_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root);
// MPI_Scan_init and MPI_Exscan_init.
std::unique_ptr<PersistentPlan> plan_scan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive);
// MPI_Allgather_init: `block` elements of rtype per member.
std::unique_ptr<PersistentPlan> plan_allgather(Segment& s, const Typed& send, bool in_place, void* recvbuf, int block,
                                     const dtype::Datatype& rtype);
// MPI_Alltoall_init: n blocks each way (sendcount of stype, recvcount of rtype).
std::unique_ptr<PersistentPlan> plan_alltoall(Segment& s, const void* sendbuf, int sendcount, const dtype::Datatype& stype,
                                    void* recvbuf, int recvcount, const dtype::Datatype& rtype, bool in_place);
// MPI_Scatter_init: the root's blocks of sendcount stype; recv significant
// unless in place at the root.
// `block`: the bytes of every block (all members know it).
std::unique_ptr<PersistentPlan> plan_scatter(Segment& s, const void* sendbuf, int sendcount, const dtype::Datatype* stype,
                                   const Typed& recv, bool in_place, int root, long long block);
// MPI_Gather_init: the root's blocks of recvcount rtype.
std::unique_ptr<PersistentPlan> plan_gather(Segment& s, const Typed& send, bool in_place, void* recvbuf, int recvcount,
                                  const dtype::Datatype* rtype, int root, long long block);

// The v forms (MPI-4.0 §6.12 with the block lists of the copied counts and
// displacements worked out here once). Where a member's block size is not
// known to all (gatherv, scatterv, alltoallv), blocks that do not fit a
// slot region travel by address, so the plan needs single copy
// (tables_apply with no common size) except between two ranks, where both
// know the moving blocks and the pair messages apply as for the uniform forms.
// MPI_Gatherv_init: rtype, counts and displs significant at the root.
std::unique_ptr<PersistentPlan> plan_gatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf,
                                             const int* counts, const int* displs, const dtype::Datatype* rtype,
                                             int root);
// MPI_Scatterv_init: stype, counts and displs significant at the root.
std::unique_ptr<PersistentPlan> plan_scatterv(Segment& s, const void* sendbuf, const int* counts, const int* displs,
                                              const dtype::Datatype* stype, const Typed& recv, bool in_place,
                                              int root);
// MPI_Allgatherv_init (every member knows every block).
std::unique_ptr<PersistentPlan> plan_allgatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf,
                                                const int* counts, const int* displs, const dtype::Datatype& rtype);
// MPI_Alltoallv_init (stype unused in place).
std::unique_ptr<PersistentPlan> plan_alltoallv(Segment& s, const void* sendbuf, const int* scounts,
                                               const int* sdispls, const dtype::Datatype& stype, void* recvbuf,
                                               const int* rcounts, const int* rdispls, const dtype::Datatype& rtype,
                                               bool in_place);
// MPI_Reduce_scatter_init and MPI_Reduce_scatter_block_init: r.count the
// sum of counts (the whole vector, in its slot), counts[j] member j's block.
std::unique_ptr<PersistentPlan> plan_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result,
                                                    const int* counts);
// MPI_Neighbor_*_init: the exchange `a` (block lists made at _init, the
// neighbour lists of the topology, which `lists` keeps alive); applies where
// the nonblocking form's segment way does (seg::neighbor_fits: single copy,
// the widest table of the topology fits a region).
std::unique_ptr<PersistentPlan> plan_neighbor(Segment& s, NeighborArgs a, int max_outdegree,
                                              std::shared_ptr<const void> lists);
// MPI_Alltoallw_init, not in place: src[j] the block for member j, dst[j]
// the block from it (a datatype each); needs single copy, as alltoallv.
std::unique_ptr<PersistentPlan> plan_alltoallw(Segment& s, std::vector<Typed> src, std::vector<Typed> dst);

}  // namespace ringmpi::coll
