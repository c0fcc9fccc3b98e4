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
// Persistent extension requests (MPI-4.0 persistent collectives and
// partitioned communication, lib/api/coll_persist.cpp, partitioned.cpp): an
// inactive persistent request for `ext` (complete, as MPI_Send_init's is),
// whose handle goes to *request. MPI_ERR_INTERN (detail set) when none is free.
int make_persistent_extension(std::unique_ptr<Extension> ext, MPI_Comm comm, MPI_Request* request);
// Activates such a request once its operation is started again (the caller
// re-armed r->ext): not complete, polled once now (unless poll_now is false)
// and from then on by every progress() until it finishes.
void restart_extension(Request* r, bool poll_now = true);
// Polls the started extension request r once now, as progress() would
// (outside progress() only: never re-entered); once its operation is
// finished, takes it out of State::extensions and completes it (true).
// MPI_Wait's first looks at a planned persistent collective, whose
// remaining steps read only other members' stores (api/persistent.hpp).
bool poll_extension(Request* r);
// Polls every started extension once (end of progress()).
void poll_extensions(State& s);
// Marks r (finished) complete with its operation's error class.
void finish_extension(State& s, Request* r);

}  // namespace ringmpi::p2p
