// Error handler objects (MPI_Errhandler) and their table.
#pragma once

#include "mpi.h"

namespace ringmpi::comm {

struct Errhandler {
  enum class Kind { fatal, return_codes, abort, user } kind;
  MPI_Comm_errhandler_function* fn = nullptr;
};

}  // namespace ringmpi::comm
