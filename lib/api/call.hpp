// The frame of every MPI_* entry point: argument checks and error dispatch.
//
//   int MPI_Comm_rank(MPI_Comm comm, int* rank) {
//     api::Call call("MPI_Comm_rank");
//     comm::Comm* c;
//     if (int e = call.comm(comm, "comm", &c)) return e;
//     if (int e = call.not_null(rank, "rank")) return e;
//     ...
//   }
//
// fail() formats one line naming the rank, the call, the argument and the
// reason, and hands the error to the error handler of the communicator the
// call is about (MPI_COMM_WORLD's when there is none, as MPI-3.1 §8.3 says):
// fatal/abort print it and end the job; MPI_ERRORS_RETURN returns the code;
// a user handler is called and the code returned.
#pragma once

#include "comm/comm.hpp"
#include "dtype/datatype.hpp"
#include "mpi.h"

namespace ringmpi::api {

class Call {
 public:
  explicit Call(const char* name) : name_(name) {}
  const char* name() const { return name_; }

  // Errors raised from now on go to this communicator's handler.
  void raise_on(MPI_Comm c) { comm_ = c; }
  MPI_Comm comm_handle() const { return comm_; }

  int fail(int error_code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

  // Checks; each returns MPI_SUCCESS or the (already dispatched) error code.
  int initialized();  // between MPI_Init and MPI_Finalize
  int comm(MPI_Comm h, const char* arg, comm::Comm** out);  // also raise_on(h)
  int intracomm(MPI_Comm h, const char* arg, comm::Comm** out);
  int datatype(MPI_Datatype h, const char* arg, const dtype::Datatype** out);  // must be committed
  int count(int n, const char* arg);
  int not_null(const void* p, const char* arg);

 private:
  const char* name_;
  MPI_Comm comm_ = MPI_COMM_WORLD;
};

// Dispatches an error code to the handler of `comm` (used by fail() and by
// MPI_Comm_call_errhandler). `message` may be null for user-raised codes.
int dispatch_error(MPI_Comm comm, int error_code, const char* call, const char* message);

// Human-readable name of a communicator for messages ("MPI_COMM_WORLD", "comm 0x44000005").
std::string describe_comm(MPI_Comm h);

}  // namespace ringmpi::api
