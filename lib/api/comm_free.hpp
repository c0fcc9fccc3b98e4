// Freeing a user's communicator (lib/api/comm_create.cpp).
#pragma once

#include "api/call.hpp"

namespace ringmpi::api {

// MPI_Comm_free, or with disconnect MPI_Comm_disconnect (a barrier on the
// communicator first, MPI-3.1 §10.5.4): checks, attribute delete callbacks,
// the communicator gone and *comm = MPI_COMM_NULL.
int free_comm(Call& call, MPI_Comm* comm, bool disconnect);

}  // namespace ringmpi::api
