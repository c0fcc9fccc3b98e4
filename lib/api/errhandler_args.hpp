// Error handlers as arguments: making one and checking one given for a
// communicator, a window or a file (lib/api/errhandler.cpp).
#pragma once

#include <memory>

#include "api/call.hpp"
#include "comm/errhandler.hpp"

namespace ringmpi::api {

// MPI_{Comm,Win,File}_create_errhandler: fn (argument `fn_arg`) must not be
// NULL; the new handle goes to *out.
int create_errhandler(Call& call, MPI_Comm_errhandler_function* fn, const char* fn_arg, comm::Errhandler::For made_for,
                      MPI_Errhandler* out);
// The handler behind h for an object of kind `made_for`: a predefined one,
// or a user one made for that kind (communicators take any).
int errhandler_for(Call& call, MPI_Errhandler h, comm::Errhandler::For made_for,
                   std::shared_ptr<const comm::Errhandler>* out);

}  // namespace ringmpi::api
