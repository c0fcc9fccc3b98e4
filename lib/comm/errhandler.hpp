// Error handler objects (MPI_Errhandler) and the handles users hold on them.
//
// Communicators share the object (Comm::errhandler); the handle table holds
// one more reference for as long as the user holds a handle. MPI counts
// those handles: MPI_Comm_create_errhandler and every MPI_Comm_get_errhandler
// give one, MPI_Errhandler_free takes one back; the table entry goes when the
// last is freed, the object when no communicator uses it either (MPI-3.1 §8.3.4).
#pragma once

#include <memory>

#include "mpi.h"

namespace ringmpi::comm {

struct Errhandler {
  enum class Kind { fatal, return_codes, abort, user } kind;
  MPI_Comm_errhandler_function* fn = nullptr;
  // Made by MPI_Win_create_errhandler (lib/rma) or MPI_File_create_errhandler
  // (lib/io): fn gets the MPI_Win or MPI_File (the same C type as
  // MPI_Comm_errhandler_function, since all handles are ints).
  // MPI_Session_create_errhandler (lib/api/session.cpp): fn gets the MPI_Session.
  enum class For { comm, win, file, session } made_for = For::comm;
  // Bookkeeping of the user's handle; mutable because communicators hold the
  // object as const (its behaviour never changes, only who refers to it).
  mutable MPI_Errhandler handle = MPI_ERRHANDLER_NULL;
  mutable int user_refs = 0;
};

// MPI_Comm_create_errhandler: a new user handler and its handle, or
// MPI_ERRHANDLER_NULL when the handle table is full.
MPI_Errhandler create_errhandler(MPI_Comm_errhandler_function* fn, Errhandler::For made_for = Errhandler::For::comm);
// MPI_Comm_get_errhandler: the handle of a handler in use, counted as one
// more reference the user must free (the predefined handle for predefined ones).
MPI_Errhandler user_handle(const std::shared_ptr<const Errhandler>& eh);
// MPI_Errhandler_free of a valid handle; predefined handles are left alone.
void free_user_handle(MPI_Errhandler h);
// Handlers created by the user and still held through a handle (for tests).
int live_user_errhandlers();

}  // namespace ringmpi::comm
