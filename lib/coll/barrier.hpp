// Barriers.
#pragma once

#include <string>

#include "comm/comm.hpp"

namespace ringmpi::coll {

// MPI_COMM_WORLD's barrier through the arena's shared counter (see ArenaHeader).
void barrier_world();
// MPI_Barrier on any communicator, by the algorithm c's plan chooses
// (coll/select.hpp, family barrier): single-rank intracommunicators at once
// (local), intracommunicators on their shared segment (segment,
// numa_leaders), WORLD without one through the arena (world_counter), the
// rest by dissemination over p2p (messages; intercommunicators over the
// union of both groups: nobody leaves before every member of both groups
// has entered, which implies the standard's "until all processes in the
// other group have entered"). MPI_ERR_UNSUPPORTED_OPERATION with *why when
// RINGMPI_COLL_BARRIER forces an algorithm that cannot run here; the
// library's own barriers (why nullptr) then take the default choice.
int barrier(MPI_Comm handle, comm::Comm& c, std::string* why = nullptr);

}  // namespace ringmpi::coll
