// Process creation and management (MPI-3.1 chapter 10). A ringmpi job is the
// processes mpiexec started on this node: spawning, ports and name
// publishing are not implemented and say so (MPI_ERR_UNSUPPORTED_OPERATION,
// through the error handler of the communicator involved, as any error).
// MPI_Comm_get_parent lives with the communicator queries (no parent:
// MPI_COMM_NULL). MPI_Comm_disconnect works on every communicator.
#include "api/call.hpp"
#include "api/comm_free.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int unsupported(Call& call, MPI_Comm comm, const char* what) {
  if (int e = call.initialized()) return e;
  if (comm != MPI_COMM_NULL && comm::lookup(comm)) call.raise_on(comm);
  return call.fail(MPI_ERR_UNSUPPORTED_OPERATION,
                   "%s is not supported: a ringmpi job is the processes mpiexec started (mpiexec -n N), and it "
                   "neither starts nor connects to others",
                   what);
}

}  // namespace

extern "C" {

int MPI_Comm_spawn(const char*, char*[], int, MPI_Info, int, MPI_Comm comm, MPI_Comm* intercomm, int[]) {
  Call call("MPI_Comm_spawn");
  if (intercomm) *intercomm = MPI_COMM_NULL;
  return unsupported(call, comm, "starting processes (MPI_Comm_spawn)");
}

int MPI_Comm_spawn_multiple(int, char*[], char**[], const int[], const MPI_Info[], int, MPI_Comm comm,
                            MPI_Comm* intercomm, int[]) {
  Call call("MPI_Comm_spawn_multiple");
  if (intercomm) *intercomm = MPI_COMM_NULL;
  return unsupported(call, comm, "starting processes (MPI_Comm_spawn_multiple)");
}

int MPI_Open_port(MPI_Info, char*) {
  Call call("MPI_Open_port");
  return unsupported(call, MPI_COMM_NULL, "opening a port (MPI_Open_port)");
}

int MPI_Close_port(const char*) {
  Call call("MPI_Close_port");
  return unsupported(call, MPI_COMM_NULL, "closing a port (MPI_Close_port)");
}

int MPI_Comm_accept(const char*, MPI_Info, int, MPI_Comm comm, MPI_Comm* newcomm) {
  Call call("MPI_Comm_accept");
  if (newcomm) *newcomm = MPI_COMM_NULL;
  return unsupported(call, comm, "accepting a connection (MPI_Comm_accept)");
}

int MPI_Comm_connect(const char*, MPI_Info, int, MPI_Comm comm, MPI_Comm* newcomm) {
  Call call("MPI_Comm_connect");
  if (newcomm) *newcomm = MPI_COMM_NULL;
  return unsupported(call, comm, "connecting to a port (MPI_Comm_connect)");
}

int MPI_Publish_name(const char*, MPI_Info, const char*) {
  Call call("MPI_Publish_name");
  return unsupported(call, MPI_COMM_NULL, "publishing a service name (MPI_Publish_name)");
}

int MPI_Unpublish_name(const char*, MPI_Info, const char*) {
  Call call("MPI_Unpublish_name");
  return unsupported(call, MPI_COMM_NULL, "unpublishing a service name (MPI_Unpublish_name)");
}

int MPI_Lookup_name(const char*, MPI_Info, char*) {
  Call call("MPI_Lookup_name");
  return unsupported(call, MPI_COMM_NULL, "looking up a service name (MPI_Lookup_name)");
}

int MPI_Comm_join(int, MPI_Comm* intercomm) {
  Call call("MPI_Comm_join");
  if (intercomm) *intercomm = MPI_COMM_NULL;
  return unsupported(call, MPI_COMM_NULL, "joining over a socket (MPI_Comm_join)");
}

// MPI-3.1 §10.5.4: collective; waits for the communication on comm to
// complete, then frees it. The barrier is that wait: every member has made
// all its calls on comm before any frees it (pending requests must have been
// completed by the user already).
int MPI_Comm_disconnect(MPI_Comm* comm) {
  Call call("MPI_Comm_disconnect");
  return api::free_comm(call, comm, true);
}

}  // extern "C"
