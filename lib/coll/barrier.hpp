// Barriers.
#pragma once

#include "comm/comm.hpp"

namespace ringmpi::coll {

// MPI_COMM_WORLD's barrier through the arena's shared counter (see ArenaHeader).
void barrier_world();

}  // namespace ringmpi::coll
