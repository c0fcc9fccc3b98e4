// MPI_Comm_idup (lib/coll/idup.cpp).
#pragma once

#include "comm/comm.hpp"
#include "mpi.h"

namespace ringmpi::coll {

// Starts duplicating `parent`; *newcomm is set when the request completes.
int idup(MPI_Comm parent_handle, comm::Comm& parent, MPI_Comm* newcomm, MPI_Request* request);

}  // namespace ringmpi::coll
