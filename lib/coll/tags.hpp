// Tags of the library's own traffic on a communicator's coll_context().
//
// User code never sends on coll_context(), so only the library's own
// operations share this space. They are kept apart by tag:
//   tag >= 0                 the leaders' exchange of MPI_Intercomm_create on
//                            peer_comm (the user's tag, unchanged);
//   kTagFirst..kTagLast      the internal collectives below;
//   -100..-127               the user-level collectives (coll/typed.hpp);
//   <= kCreateGroupBase      MPI_Comm_create_group (kCreateGroupBase - tag).
// MPI_ANY_TAG (-1) is never used here.
#pragma once

#include <climits>

namespace ringmpi::coll {

inline constexpr int kTagBarrier = -2;
inline constexpr int kTagAllgather = -3;  // allgather_and (communicator creation)
inline constexpr int kTagBcast = -4;      // bcast (MPI_Intercomm_create's local step)
inline constexpr int kTagFirst = -2;
inline constexpr int kTagLast = -99;
inline constexpr int kCreateGroupBase = -128;

// MPI_Comm_create_group's tag for the user's `tag` (>= 0). Tags too large to
// map stay negative and below kTagLast, folded; two concurrent calls on one
// communicator whose tags fold together are the only ones that could mix.
inline int create_group_tag(int tag) {
  const long long t = static_cast<long long>(kCreateGroupBase) - tag;
  if (t >= INT_MIN) return static_cast<int>(t);
  return kCreateGroupBase - static_cast<int>(static_cast<unsigned>(tag) % (1u << 30));
}

}  // namespace ringmpi::coll
