// Extension requests (see lib/p2p/request.hpp and extension.cpp).
#pragma once

#include <memory>

#include "mpi.h"
#include "p2p/state.hpp"

namespace ringmpi::p2p {

// A pooled request for `ext`, whose handle goes to *request; polls it once at
// once (unless poll_now is false: an operation that did its part of the
// start itself and has only reads left, which the next progress does).
// Errors of the operation are reported at completion (MPI_Wait/Test) on
// `comm`'s error handler. MPI_ERR_INTERN (detail set) when no request is free.
int start_extension(std::unique_ptr<Extension> ext, MPI_Comm comm, MPI_Request* request, bool poll_now = true);
// A pooled request for an operation the call that made it has finished
// already (request-based RMA, nonblocking file access): its completion
// reports `bytes` as the status's count. MPI_ERR_INTERN when none is free.
int start_completed(MPI_Comm comm, std::size_t bytes, MPI_Request* request);
// Polls every started extension once (end of progress()).
void poll_extensions(State& s);
// Marks r (finished) complete with its operation's error class.
void finish_extension(State& s, Request* r);

}  // namespace ringmpi::p2p
