// How point-to-point addresses the ranks of one communicator: all the engine
// needs of it. lib/comm fills one per call (comm::Comm::route()); the engine
// never sees a communicator object, so it sits below lib/comm.
#pragma once

#include <cstdint>

namespace ringmpi::p2p {

struct Route {
  std::uint32_t context = 0;        // matching context of the user's traffic
  int rank = 0;                     // the caller's rank in its group, stamped on its messages
  const int* peer_world = nullptr;  // world rank of each rank of the destination group
                                    // (the remote group of an intercommunicator)
};

}  // namespace ringmpi::p2p
