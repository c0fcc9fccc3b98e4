// Ports inside one job: MPI_Open_port, MPI_Close_port, MPI_Comm_accept,
// MPI_Comm_connect (docs/design/dynamic-processes.md, "Ports").
#pragma once

#include <string>

#include "comm/create.hpp"

namespace ringmpi::comm {

// A new port of this process: its name, or "" when all kMaxPorts are open.
std::string open_port();
// MPI_SUCCESS, or MPI_ERR_PORT with *why (not a port of this process, or
// not open).
int close_port(const std::string& name, std::string* why);

// Collective over the intracommunicator `comm`; `port` matters on the root
// only. `local` carries this rank's argument errors.
Made accept(const Comm& comm, int root, const std::string& port, const LocalError& local);
Made connect(const Comm& comm, int root, const std::string& port, const LocalError& local);

// This job's name in port names (mpiexec's spawn socket name; a singleton
// makes one up). Two processes with the same job name share an arena.
std::string job_name();

// MPI_Comm_disconnect or MPI_Comm_free of h: releases the processes of
// another job that h's accept/connect bound (p2p/foreign.hpp).
void drop_links(MPI_Comm h);

}  // namespace ringmpi::comm
