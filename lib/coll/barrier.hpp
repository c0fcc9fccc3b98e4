// Barriers.
#pragma once

#include "comm/comm.hpp"

namespace ringmpi::coll {

// MPI_COMM_WORLD's barrier through the arena's shared counter (see ArenaHeader).
void barrier_world();
// MPI_Barrier on any communicator: single-rank intracommunicators at once,
// intracommunicators on their shared segment (coll/segment.hpp), WORLD
// without one through the arena, the rest by dissemination over p2p
// (intercommunicators over the union of both groups: nobody leaves before
// every member of both groups has entered, which implies the standard's
// "until all processes in the other group have entered").
void barrier(MPI_Comm handle, comm::Comm& c);

}  // namespace ringmpi::coll
