// Barriers.
#pragma once

#include "comm/comm.hpp"

namespace ringmpi::coll {

// MPI_COMM_WORLD's barrier through the arena's shared counter (see ArenaHeader).
void barrier_world();
// MPI_Barrier on any communicator: WORLD through the arena, single-rank
// intracommunicators at once, the rest by dissemination over p2p
// (intercommunicators over the union of both groups: nobody leaves before
// every member of both groups has entered, which implies the standard's
// "until all processes in the other group have entered").
void barrier(MPI_Comm handle, const comm::Comm& c);

}  // namespace ringmpi::coll
