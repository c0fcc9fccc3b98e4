// Dynamic processes: MPI_Comm_spawn(_multiple) (from a communicator of one
// job or of two) and the parent intercommunicator of a spawned process.
// The protocol and why it is built so: docs/design/dynamic-processes.md.
#pragma once

#include <string>
#include <vector>

#include "comm/create.hpp"
#include "shm/spawn_wire.hpp"

namespace ringmpi::comm {

// Collective over the intracommunicator `comm` (whose members may belong
// to two jobs: the root's job starts the children); `commands` matters on the
// root only (null elsewhere), `local` carries this rank's argument errors
// (the root's bad command, maxprocs or info; a bad root anywhere). On the
// root *codes gets one error code per process asked for (MPI_SUCCESS for
// each started one) whether the call succeeds or fails with MPI_ERR_SPAWN.
Made spawn(const Comm& comm, int root, const std::vector<shm::SpawnCommand>* commands, const LocalError& local,
           std::vector<int>* codes);

// MPI_Init of a spawned process (RINGMPI_PARENT set): builds the parent
// intercommunicator and tells the parents' root that this world is in
// MPI_Init. Returns false with *why set when the environment is malformed.
bool attach_parent(std::string* why);

// The parent intercommunicator, or MPI_COMM_NULL (none, or freed).
MPI_Comm parent();

}  // namespace ringmpi::comm
