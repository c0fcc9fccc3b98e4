// Calls the MPI standard does not define but MPICH (and the libraries built
// on it) accepts with one plain meaning, accepted here with that meaning
// (issue 35): a program that runs on an MPICH cluster runs here too. Under
// `mpiexec --check` each such case is reported once per process as a
// warning (the job goes on), since another MPI library may refuse it.
#pragma once

#include "api/call.hpp"
#include "core/runtime.hpp"

namespace ringmpi::api {

[[gnu::cold]] void warn_lenient(const Call& call, const char* what);
[[gnu::cold]] void warn_lenient_op(const Call& call, MPI_Op op, const dtype::Datatype& t);

// `what` names the case, e.g. "MPI_Win_lock with rank MPI_PROC_NULL (a no-op)".
inline void lenient(const Call& call, const char* what) {
  if (__builtin_expect(core::rt().check_mode, 0)) warn_lenient(call, what);
}

// A predefined op on a type the standard does not list it for but MPICH
// takes: MPI_LAND, MPI_LOR, MPI_LXOR on MPI_AINT, MPI_OFFSET, MPI_COUNT.
inline void lenient_op(const Call& call, MPI_Op op, const dtype::Datatype& t) {
  if (__builtin_expect(core::rt().check_mode, 0)) warn_lenient_op(call, op, t);
}

}  // namespace ringmpi::api
