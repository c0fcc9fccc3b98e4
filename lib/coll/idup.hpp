// MPI_Comm_idup (lib/coll/idup.cpp).
#pragma once

#include "comm/comm.hpp"
#include "mpi.h"

namespace ringmpi::coll {

// Starts duplicating `parent`; *newcomm is set when the request completes.
// `hints`: the duplicate's info hints instead of the parent's
// (MPI_Comm_idup_with_info).
int idup(MPI_Comm parent_handle, comm::Comm& parent, MPI_Comm* newcomm, MPI_Request* request,
         const comm::Hints* hints = nullptr);

}  // namespace ringmpi::coll
