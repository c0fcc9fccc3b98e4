// Error handlers on communicators (MPI-3.1 §8.3) and the deprecated MPI-1
// names. The handler of a communicator is inherited by MPI_Comm_dup/split
// (lib/comm); errors that concern no communicator go to MPI_COMM_WORLD's.
#include <cstdio>

#include "api/call.hpp"
#include "comm/errhandler.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int create(Call& call, MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler) {
  if (int e = call.initialized()) return e;
  if (!fn) return call.fail(MPI_ERR_ARG, "argument comm_errhandler_fn is NULL; a handler needs a function");
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  const MPI_Errhandler h = comm::create_errhandler(fn);
  if (h == MPI_ERRHANDLER_NULL)
    return call.fail(MPI_ERR_OTHER, "the error handler table is full (2^20 live handlers); free handlers with "
                                    "MPI_Errhandler_free");
  *errhandler = h;
  return MPI_SUCCESS;
}

// The handler object behind a handle the user passes in.
int lookup(Call& call, MPI_Errhandler h, const char* arg, std::shared_ptr<const comm::Errhandler>* out) {
  if (h == MPI_ERRHANDLER_NULL) return call.fail(MPI_ERR_ARG, "argument %s is MPI_ERRHANDLER_NULL", arg);
  *out = comm::lookup_errhandler(h);
  if (!*out)
    return call.fail(MPI_ERR_ARG,
                     "argument %s=0x%x is not a valid error handler (freed, or not an error handler handle)", arg,
                     static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

int set(Call& call, MPI_Comm comm, MPI_Errhandler errhandler) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = lookup(call, errhandler, "errhandler", &eh)) return e;
  c->errhandler = std::move(eh);
  return MPI_SUCCESS;
}

int get(Call& call, MPI_Comm comm, MPI_Errhandler* errhandler) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  if (!c->errhandler) c->errhandler = comm::lookup_errhandler(MPI_ERRORS_ARE_FATAL);
  const MPI_Errhandler h = comm::user_handle(c->errhandler);
  if (h == MPI_ERRHANDLER_NULL)
    return call.fail(MPI_ERR_OTHER, "the error handler table is full (2^20 live handlers); free handlers with "
                                    "MPI_Errhandler_free");
  *errhandler = h;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function* comm_errhandler_fn, MPI_Errhandler* errhandler) {
  Call call("MPI_Comm_create_errhandler");
  return create(call, comm_errhandler_fn, errhandler);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  Call call("MPI_Comm_set_errhandler");
  return set(call, comm, errhandler);
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  Call call("MPI_Comm_get_errhandler");
  return get(call, comm, errhandler);
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  Call call("MPI_Comm_call_errhandler");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  char msg[128];
  std::snprintf(msg, sizeof msg, "the application raised error code %d on %s", errorcode,
                api::describe_comm(comm).c_str());
  api::dispatch_error(comm, errorcode, call.name(), msg);
  // MPI-3.1 §8.3.6: MPI_SUCCESS once the handler has been called and returned
  // (MPI_ERRORS_RETURN included: it "returns" the code to nobody).
  return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler* errhandler) {
  Call call("MPI_Errhandler_free");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = lookup(call, *errhandler, "errhandler", &eh)) return e;
  // Communicators using it keep it alive; predefined handlers are never
  // deallocated (freeing the handle MPI_Comm_get_errhandler gave is correct).
  comm::free_user_handle(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  Call call("MPI_Errhandler_create");
  return create(call, function, errhandler);
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  Call call("MPI_Errhandler_set");
  return set(call, comm, errhandler);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  Call call("MPI_Errhandler_get");
  return get(call, comm, errhandler);
}

}  // extern "C"
