// A communicator's participants as the exchange primitives address them.
#pragma once

#include "comm/comm.hpp"
#include "exchange/exchange.hpp"

namespace ringmpi::comm {

// An intracommunicator's ranks, or an intercommunicator's union (see Comm:
// local_first says which group leads), on its coll_context().
exchange::Peers peers_of(const Comm& c);

}  // namespace ringmpi::comm
