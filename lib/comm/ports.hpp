// Ports inside one job: MPI_Open_port, MPI_Close_port, MPI_Comm_accept,
// MPI_Comm_connect (docs/design/dynamic-processes.md, "Ports").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// A spawn from a communicator of this job and another (comm/dynamic.cpp,
// docs/design/dynamic-processes.md "Spawning from two jobs").
struct OtherJob {
  std::string job;                  // its name
  int arena_fd = -1;                // this process's descriptor of its arena (kept open while mapped)
  int base = 0;                     // its foreign_base()
  int room = 0;                     // how many of this job's slots fit in its pending bitmaps
  std::uint64_t ring_capacity = 0;  // its arena's ring capacity
};
// What this process knows of the job of the process bound at foreign index
// `index`; false when none is bound there.
bool other_job(int index, OtherJob* out);
// Binds the processes `remote` (slots of job `job`, whose foreign_base() is
// remote_base) to this process through the bridge /proc/<bridge_pid>/fd/<bridge_fd>
// (this process's own descriptor when bridge_pid is its pid), as member
// `me` of the bridge's accepting side (a_side) or connecting side; maps the
// job's arena from /proc/<arena_pid>/fd/<arena_fd> unless mapped already.
// Appends the foreign indices bound to *indices; false with *err.
bool bind_spawned(const std::string& job, int arena_pid, int arena_fd, int bridge_pid, int bridge_fd, bool a_side,
                  int me, const std::vector<int>& remote, int remote_base, std::vector<int>* indices,
                  std::string* err);
// The foreign indices h holds, released when h is disconnected or freed.
void keep_links(MPI_Comm h, std::vector<int> indices);

// MPI_Comm_disconnect or MPI_Comm_free of h: releases the processes of
// another job that h's accept/connect bound (p2p/foreign.hpp).
void drop_links(MPI_Comm h);

}  // namespace ringmpi::comm
