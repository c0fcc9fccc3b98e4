// Counts of the internal paths that tests force with a tunable
// (RINGMPI_FORCE_COPY_FALLBACK, RINGMPI_INTERNAL_EAGER_SAFE, ...), so that a
// test can check that the path it forced was really taken (a test that forces
// a mode and passes on the default path proves nothing). Read by programs
// through MPIX_Query_counter (include/mpi.h, ringmpi's only extension); a
// plain increment on paths that are not the small-message fast path.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ringmpi::core {

enum class Counter : int {
  rndv_read,               // receiver-side rendezvous: read with process_vm_readv
  rndv_split,              // ... and the sender wrote a share (cts_write)
  rndv_push,               // ... pushed through the ring (cts_push: copy fallback)
  exchange_dissemination,  // library allgather rounds: dissemination (eager steps)
  exchange_tree,           // ... binomial tree (messages above the eager-safe size)
  // Collectives on a communicator's shared segment (lib/coll/seg_*.cpp), blocking and
  // nonblocking, one per family, and the variants within them.
  seg_barrier,
  seg_bcast,
  seg_scatter,
  seg_gather,
  seg_allgather,
  seg_alltoall,
  seg_reduce,
  seg_allreduce,
  seg_reduce_scatter,
  seg_scan,
  seg_neighbor,     // ... neighbourhood collectives (seg_neighbor.cpp)
  seg_single_copy,  // ... data read straight from another rank's buffer (process_vm_readv)
  seg_by_blocks,    // ... a reduction folded by blocks (each rank one block) rather than whole
  seg_two_level,    // ... NUMA-aware: one leader per NUMA node for the cross-node step
  coll_messages,    // blocking intracommunicator collectives run over messages (no segment)
  rndv_staged,      // rendezvous reads into short pieces, through a staging buffer (p2p/rndv.cpp)
  seg_pushed,       // gather blocks written straight into the root's buffer (process_vm_writev)
  // Issue 36 (speed): paths that skip work.
  coll_zero_byte,  // collectives with nothing to move returned at once (api/coll_zero.cpp)
  acc_direct,      // accumulates combined straight into the target memory in one pass (rma/transfer.cpp)
  rndv_taken_back,  // mid-size blocking sends offered as rendezvous, not matched at once, sent eagerly (p2p/send.cpp)
  // Single copy (lib/smsc): for p2p, the collective segment and RMA alike.
  smsc_calls,     // process_vm_readv/writev calls that moved data
  smsc_bytes,     // ... the bytes they moved
  smsc_fallback,  // transfers that went another way because single copy is off or was refused (rndv.cpp, segment.cpp)
  // Persistent collectives (api/coll_persist.cpp): starts that ran the plan made at _init
  // (coll/persistent_plan.hpp), not the nonblocking form.
  coll_persistent_planned,
};
inline constexpr int kCounters = 29;

inline constexpr std::array<std::string_view, kCounters> kCounterNames{
    "rndv_read",      "rndv_split",     "rndv_push",       "exchange_dissemination", "exchange_tree",
    "seg_barrier",    "seg_bcast",      "seg_scatter",     "seg_gather",             "seg_allgather",
    "seg_alltoall",   "seg_reduce",     "seg_allreduce",   "seg_reduce_scatter",     "seg_scan",
    "seg_neighbor",   "seg_single_copy", "seg_by_blocks", "seg_two_level",   "coll_messages",
    "rndv_staged",    "seg_pushed",
    "coll_zero_byte", "acc_direct",
    "rndv_taken_back",
    "smsc_calls",     "smsc_bytes",     "smsc_fallback",
    "coll_persistent_planned"};

// What each counter counts, in one line (the description of its performance
// variable in the tool information interface, lib/api/tool_catalogue.cpp).
inline constexpr std::array<std::string_view, kCounters> kCounterMeanings{
    "rendezvous messages this rank received by reading the sender's buffer (process_vm_readv)",
    "rendezvous messages received with the copy split between sender and receiver",
    "rendezvous messages received through the ring (copy fallback)",
    "rounds of the library's own allgather run as dissemination (eager steps)",
    "rounds of the library's own allgather run as a binomial tree (data above the eager-safe size)",
    "MPI_Barrier and MPI_Ibarrier calls run on the communicator's shared segment",
    "MPI_Bcast and MPI_Ibcast calls run on the shared segment",
    "MPI_Scatter(v) and MPI_Iscatter(v) calls run on the shared segment",
    "MPI_Gather(v) and MPI_Igather(v) calls run on the shared segment",
    "MPI_Allgather(v) and MPI_Iallgather(v) calls run on the shared segment",
    "MPI_Alltoall(v) and MPI_Ialltoall(v) calls run on the shared segment",
    "MPI_Reduce and MPI_Ireduce calls run on the shared segment",
    "MPI_Allreduce and MPI_Iallreduce calls run on the shared segment",
    "MPI_Reduce_scatter(_block) and MPI_Ireduce_scatter(_block) calls run on the shared segment",
    "MPI_Scan/MPI_Exscan and MPI_Iscan/MPI_Iexscan calls run on the shared segment",
    "neighbourhood collectives run on the shared segment",
    "segment collectives that read data straight from another rank's buffer (process_vm_readv)",
    "segment reductions folded by blocks (each rank one block) rather than whole",
    "segment collectives run with one leader per NUMA node",
    "blocking intracommunicator collectives run over messages (no segment)",
    "rendezvous reads of short pieces through a staging buffer",
    "MPI_Igather(v) blocks a member wrote straight into the root's buffer (process_vm_writev)",
    "collective calls with nothing to move that returned without meeting the other ranks",
    "one-sided accumulates combined straight into the target memory by the vectorised kernel",
    "mid-size blocking sends offered as a rendezvous that the receiver did not match at once, taken back and sent eagerly",
    "process_vm_readv/writev calls that moved data (rendezvous, collective segment, RMA windows over user memory)",
    "bytes moved by process_vm_readv/writev (single copy)",
    "transfers that went another way because single copy is off or was refused: rendezvous messages pushed through "
    "the ring, split shares the receiver copied itself, collective segments attached without it",
    "starts of persistent collectives that ran the plan made for them at _init, not the nonblocking form"};

using Counters = std::array<std::uint64_t, kCounters>;

// The counter named `name`, or -1.
inline int counter_index(std::string_view name) {
  for (int i = 0; i < kCounters; ++i)
    if (kCounterNames[static_cast<std::size_t>(i)] == name) return i;
  return -1;
}

}  // namespace ringmpi::core
