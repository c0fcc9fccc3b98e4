// Sessions (MPI-4.0 §11.3): MPI_Session handles and the process's runtime
// shared between them and the World Model.
//
// The runtime (arena, p2p engine, the world and self communicators the
// library addresses everything through) is started by the first of
// MPI_Init / MPI_Session_init and counted (core::Runtime::users): each
// session and the World Model hold one count; the last MPI_Finalize /
// MPI_Session_finalize drains this process's sends and tells mpiexec it is
// done. A later MPI_Session_init opens it again with every object in place
// (MPI-4.1 §11.3.1: handles such as datatypes outlive the session that
// made them). docs/design/sessions.md says more.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/call.hpp"
#include "comm/errhandler.hpp"
#include "core/handle.hpp"
#include "core/info.hpp"

namespace ringmpi::api {

struct Session {
  std::shared_ptr<const comm::Errhandler> errhandler;
  int thread_level = MPI_THREAD_SINGLE;  // what it asked for (mpi_thread_support_level)
  core::Info info;                        // the hints it was given that the library honours
};

// A process set (session_psets.cpp): its name and members.
struct Pset {
  std::string name;
  std::vector<int> world;  // world ranks, ascending
};

struct SessionState {
  core::HandleTable<Session> table{core::Kind::session};
  std::vector<Pset> psets;  // made on first use (the machine and the binding do not change)
  // Groups made by MPI_Group_from_session_pset: group handle -> session handle,
  // so a communicator made from one knows its session.
  std::vector<std::pair<MPI_Group, MPI_Session>> groups;
  // Communicators made from a session's groups: comm handle -> session
  // handle (a buffered send on one uses the session's buffer, MPI-4.1 §3.6.1).
  std::vector<std::pair<MPI_Comm, MPI_Session>> comms;
};
SessionState& sessions();

// The runtime's count (lib/api/init.cpp). acquire starts it or opens it
// again, at the higher of its thread level and `required`.
int acquire_runtime(int required, int* provided);
void release_runtime();

// A session handle argument: the session, or the call fails with
// MPI_ERR_SESSION (a finalized, null or garbage handle). On success the
// call's errors go to the session's error handler.
int session_arg(Call& call, MPI_Session h, Session** out);

// Records that communicator `comm` was made from a group of `session`.
void note_session_comm(MPI_Comm comm, MPI_Session session);

// The process sets (session_psets.cpp): their names, the same list on every
// process, and the world ranks of one (false: no such set).
std::vector<std::string> pset_names();
bool pset_members(const std::string& name, std::vector<int>* world_ranks);

}  // namespace ringmpi::api
