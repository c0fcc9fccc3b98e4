// Error handlers on communicators (MPI-3.1 §8.3) and the deprecated MPI-1
// names. The handler of a communicator is inherited by MPI_Comm_dup/split
// (lib/comm); errors that concern no communicator go to MPI_COMM_WORLD's.
#include <cstdio>

#include "api/errhandler_args.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int create_errhandler(Call& call, MPI_Comm_errhandler_function* fn, const char* fn_arg, comm::Errhandler::For made_for,
                      MPI_Errhandler* out) {
  if (int e = call.initialized()) return e;
  if (!fn) return call.fail(MPI_ERR_ARG, "argument %s is NULL; a handler needs a function", fn_arg);
  if (int e = call.not_null(out, "errhandler")) return e;
  const MPI_Errhandler h = comm::create_errhandler(fn, made_for);
  if (h == MPI_ERRHANDLER_NULL)
    return call.fail(MPI_ERR_OTHER, "the error handler table is full (2^20 live handlers); free handlers with "
                                    "MPI_Errhandler_free");
  *out = h;
  return MPI_SUCCESS;
}

int errhandler_for(Call& call, MPI_Errhandler h, comm::Errhandler::For made_for,
                   std::shared_ptr<const comm::Errhandler>* out) {
  using For = comm::Errhandler::For;
  if (h == MPI_ERRHANDLER_NULL) return call.fail(MPI_ERR_ARG, "argument errhandler is MPI_ERRHANDLER_NULL");
  *out = comm::lookup_errhandler(h);
  if (!*out)
    return call.fail(MPI_ERR_ARG,
                     "argument errhandler=0x%x is not a valid error handler (freed, or not an error handler handle)",
                     static_cast<unsigned>(h));
  const For made = (*out)->made_for;
  if ((*out)->kind != comm::Errhandler::Kind::user || made_for == For::comm || made == made_for) return MPI_SUCCESS;
  auto maker = [](For f) {
    return f == For::win       ? "MPI_Win_create_errhandler"
           : f == For::file    ? "MPI_File_create_errhandler"
           : f == For::session ? "MPI_Session_create_errhandler"
                               : "MPI_Comm_create_errhandler";
  };
  return call.fail(MPI_ERR_ARG, "argument errhandler=0x%x was made by %s; %s need one from %s",
                   static_cast<unsigned>(h), maker(made),
                   made_for == For::win ? "windows" : made_for == For::file ? "files" : "sessions", maker(made_for));
}

}  // namespace ringmpi::api

namespace {

int set(Call& call, MPI_Comm comm, MPI_Errhandler errhandler) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = api::errhandler_for(call, errhandler, comm::Errhandler::For::comm, &eh)) return e;
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
  return api::create_errhandler(call, comm_errhandler_fn, "comm_errhandler_fn", comm::Errhandler::For::comm, errhandler);
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
  if (int e = api::errhandler_for(call, *errhandler, comm::Errhandler::For::comm, &eh)) return e;
  // Communicators using it keep it alive; predefined handlers are never
  // deallocated (freeing the handle MPI_Comm_get_errhandler gave is correct).
  comm::free_user_handle(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  Call call("MPI_Errhandler_create");
  return api::create_errhandler(call, function, "comm_errhandler_fn", comm::Errhandler::For::comm, errhandler);
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
