// Tags of the library's own traffic on a communicator's coll_context().
//
// User code never sends on coll_context(), so only the library's own
// operations share this space. They are kept apart by tag:
//   tag >= 0                 the leaders' exchange of MPI_Intercomm_create on
//                            peer_comm (the user's tag, unchanged);
//   kTagFirst..kTagLast      the internal collectives below;
//   -100..-127               the user-level collectives (coll/typed.hpp);
//   p2p::kPartSetupTag (-7)  partitioned communication's setup messages,
//   p2p::kPartDataTop..-(2^30)+256
//                            and its data (p2p/partitioned_tags.hpp), between
//                            the create-group and the schedule tags;
//   kCreateGroupBase..kCreateGroupBase-2^29+1
//                            MPI_Comm_create_group (kCreateGroupBase - tag % 2^29);
//   kScheduleTagBase..INT_MIN collectives run as schedules (coll/schedule.hpp):
//                            kScheduleTagBase - (sequence number mod 2^30), so
//                            outstanding nonblocking collectives never match
//                            each other's messages.
// MPI_ANY_TAG (-1) is never used here.
#pragma once

#include <climits>
#include <cstdint>

#include "p2p/partitioned_tags.hpp"

namespace ringmpi::exchange {

inline constexpr int kTagBarrier = -2;
inline constexpr int kTagAllgather = -3;  // allgather_and (communicator creation)
inline constexpr int kTagBcast = -4;      // bcast (MPI_Intercomm_create's local step)
inline constexpr int kTagCheck = -5;      // mpiexec --check: a collective's argument agreement (lib/api/coll_check.cpp)
inline constexpr int kTagSegment = -6;    // attaching a communicator's shared segment (lib/coll/segment.cpp)
inline constexpr int kTagSpawn = -7;      // a spawned world's hello to its parents' root (lib/comm/dynamic.cpp)
inline constexpr int kTagSpawnJobs = -8;  // the root to spawned children: the other job of a two-job spawn (same)
inline constexpr int kTagFirst = -2;
inline constexpr int kTagLast = -99;
inline constexpr int kCreateGroupBase = -128;
inline constexpr int kScheduleTagBase = -(1 << 30);
static_assert(kCreateGroupBase - (1 << 29) > kScheduleTagBase);
static_assert(p2p::kPartSetupTag < kTagSegment && p2p::kPartSetupTag >= kTagLast);
static_assert(p2p::kPartDataTop < kCreateGroupBase - (1 << 29) + 1 &&
              p2p::kPartDataTop - p2p::kPartDataSpan > kScheduleTagBase);

// MPI_Comm_create_group's tag for the user's `tag` (>= 0), folded into 2^29
// values; two concurrent calls on one communicator whose tags fold together
// are the only ones that could mix.
inline int create_group_tag(int tag) {
  return kCreateGroupBase - static_cast<int>(static_cast<unsigned>(tag) % (1u << 29));
}

// The tag of the schedule with sequence number `seq` on a communicator.
inline int schedule_tag(std::uint32_t seq) { return kScheduleTagBase - static_cast<int>(seq & ((1u << 30) - 1)); }

}  // namespace ringmpi::exchange
