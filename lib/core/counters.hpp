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
  // Blocking collectives on a communicator's shared segment (lib/coll/seg_*.cpp), one per
  // family, and the variants within them.
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
};
inline constexpr int kCounters = 21;

inline constexpr std::array<std::string_view, kCounters> kCounterNames{
    "rndv_read",      "rndv_split",     "rndv_push",       "exchange_dissemination", "exchange_tree",
    "seg_barrier",    "seg_bcast",      "seg_scatter",     "seg_gather",             "seg_allgather",
    "seg_alltoall",   "seg_reduce",     "seg_allreduce",   "seg_reduce_scatter",     "seg_scan",
    "seg_neighbor",   "seg_single_copy", "seg_by_blocks", "seg_two_level",   "coll_messages",
    "rndv_staged"};

using Counters = std::array<std::uint64_t, kCounters>;

// The counter named `name`, or -1.
inline int counter_index(std::string_view name) {
  for (int i = 0; i < kCounters; ++i)
    if (kCounterNames[static_cast<std::size_t>(i)] == name) return i;
  return -1;
}

}  // namespace ringmpi::core
