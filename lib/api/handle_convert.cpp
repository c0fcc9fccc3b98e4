// MPI_*_c2f / MPI_*_f2c for the handle kinds not converted next to their own
// calls (comm, datatype, win live there). Every ringmpi handle is already an
// int, the same width as MPI_Fint, so the conversion is the identity and
// round-trips every handle, predefined or user-created, including the null
// handles (MPI-3.1 §17.2.4). An f2c of an integer that names no object gives
// a handle that every call taking it rejects, as the standard allows.
// Statuses (MPI-3.1 §17.2.5): a Fortran status is MPI_F_STATUS_SIZE
// integers, the C struct word for word (MPI_SOURCE, MPI_TAG and MPI_ERROR
// first, at the indices MPI_F_SOURCE, MPI_F_TAG, MPI_F_ERROR).
#include <cstring>

#include "api/call.hpp"
#include "mpi.h"

static_assert(sizeof(MPI_Fint) == sizeof(MPI_Group) && sizeof(MPI_Fint) == sizeof(MPI_Request) &&
                  sizeof(MPI_Fint) == sizeof(MPI_Op) && sizeof(MPI_Fint) == sizeof(MPI_Info) &&
                  sizeof(MPI_Fint) == sizeof(MPI_Errhandler) && sizeof(MPI_Fint) == sizeof(MPI_Message),
              "handles must be Fortran-integer sized for the identity conversion");

static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint) && offsetof(MPI_Status, MPI_SOURCE) == 0 &&
                  offsetof(MPI_Status, MPI_TAG) == sizeof(MPI_Fint) && offsetof(MPI_Status, MPI_ERROR) == 2 * sizeof(MPI_Fint),
              "a Fortran status is the C status word for word");

// MPI-4.1 §19.3.5: the mpi_f08 status has C's layout (mpi.h, MPI_F08_status),
// and so has the INTEGER status (MPI_Status_c2f): every conversion is a copy.
namespace {
int copy_status(const char* name, const void* from, const char* from_arg, void* to, const char* to_arg) {
  ringmpi::api::Call call(name);
  if (from == nullptr)
    return call.fail(MPI_ERR_ARG, "argument %s is NULL (an ignored status), which holds no status to convert",
                     from_arg);
  if (int e = call.not_null(to, to_arg)) return e;
  std::memcpy(to, from, sizeof(MPI_Status));
  return MPI_SUCCESS;
}
}  // namespace

extern "C" {

int MPI_Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status) {
  ringmpi::api::Call call("MPI_Status_c2f");
  if (c_status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument c_status is MPI_STATUS_IGNORE (or NULL), which holds no status to convert");
  if (int e = call.not_null(f_status, "f_status")) return e;
  std::memcpy(f_status, c_status, sizeof *c_status);
  return MPI_SUCCESS;
}

int MPI_Status_c2f08(const MPI_Status* c_status, MPI_F08_status* f08_status) {
  return copy_status("MPI_Status_c2f08", c_status, "c_status", f08_status, "f08_status");
}
int MPI_Status_f082c(const MPI_F08_status* f08_status, MPI_Status* c_status) {
  return copy_status("MPI_Status_f082c", f08_status, "f08_status", c_status, "c_status");
}
int MPI_Status_f2f08(const MPI_Fint* f_status, MPI_F08_status* f08_status) {
  return copy_status("MPI_Status_f2f08", f_status, "f_status", f08_status, "f08_status");
}
int MPI_Status_f082f(const MPI_F08_status* f08_status, MPI_Fint* f_status) {
  return copy_status("MPI_Status_f082f", f08_status, "f08_status", f_status, "f_status");
}

int MPI_Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status) {
  ringmpi::api::Call call("MPI_Status_f2c");
  if (f_status == MPI_F_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument f_status is MPI_F_STATUS_IGNORE (or NULL), which holds no status to convert");
  if (c_status == MPI_STATUS_IGNORE) return call.fail(MPI_ERR_ARG, "argument c_status is MPI_STATUS_IGNORE (or NULL)");
  std::memcpy(c_status, f_status, sizeof *c_status);
  return MPI_SUCCESS;
}

MPI_Fint MPI_Group_c2f(MPI_Group group) { return static_cast<MPI_Fint>(group); }
MPI_Group MPI_Group_f2c(MPI_Fint group) { return static_cast<MPI_Group>(group); }
MPI_Fint MPI_Request_c2f(MPI_Request request) { return static_cast<MPI_Fint>(request); }
MPI_Request MPI_Request_f2c(MPI_Fint request) { return static_cast<MPI_Request>(request); }
MPI_Fint MPI_Op_c2f(MPI_Op op) { return static_cast<MPI_Fint>(op); }
MPI_Op MPI_Op_f2c(MPI_Fint op) { return static_cast<MPI_Op>(op); }
MPI_Fint MPI_Info_c2f(MPI_Info info) { return static_cast<MPI_Fint>(info); }
MPI_Info MPI_Info_f2c(MPI_Fint info) { return static_cast<MPI_Info>(info); }
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) { return static_cast<MPI_Fint>(errhandler); }
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) { return static_cast<MPI_Errhandler>(errhandler); }
MPI_Fint MPI_Message_c2f(MPI_Message message) { return static_cast<MPI_Fint>(message); }
MPI_Message MPI_Message_f2c(MPI_Fint message) { return static_cast<MPI_Message>(message); }

}  // extern "C"
