// The collective layer's names for what it stands on: the library's own small
// collectives over internal point-to-point (lib/exchange, below lib/comm), the
// tag space of a communicator's coll_context() (exchange/tags.hpp) and a
// communicator's participants (comm/peers.hpp).
#pragma once

#include "comm/peers.hpp"
#include "exchange/exchange.hpp"
#include "exchange/tags.hpp"

namespace ringmpi::coll {

using comm::peers_of;
using exchange::allgather_and;
using exchange::barrier;
using exchange::bcast;
using exchange::eager_safe_bytes;
using exchange::kEagerSafeBytes;
using exchange::Peers;
using exchange::schedule_tag;

}  // namespace ringmpi::coll
