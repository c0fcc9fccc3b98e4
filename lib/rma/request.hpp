// Requests of MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate.
#pragma once

#include "mpi.h"

namespace ringmpi::rma {

// A request that is already complete (the operation finished in the call,
// see transfer.hpp), with a handle the user waits on or frees as usual.
// MPI_SUCCESS, or MPI_ERR_INTERN when no request is free.
int completed_request(MPI_Comm comm, MPI_Request* request);

}  // namespace ringmpi::rma
