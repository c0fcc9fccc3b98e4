// What the request-array calls of request_test.cpp (MPI_Test*) and
// status_mpi4.cpp (MPI_Request_get_status*) share. Internal to lib/api.
#pragma once

#include <vector>

#include "p2p/engine.hpp"

namespace ringmpi::api {

// Whether entry r of a request array counts as active (MPI-4.1 §3.7.5):
// not MPI_REQUEST_NULL and not an inactive persistent request.
inline bool active_request(const p2p::Request* r) { return r && !(r->persistent && !r->active); }

// The scan of the -some forms (MPI_Testsome, MPI_Request_get_status_some):
// one progress pass, then the indices of rs's active requests that are
// complete in *done. False, with *outcount = MPI_UNDEFINED, when none is
// active; when none is complete, a pass that found no work yields first.
bool scan_some(int count, p2p::Request* const* rs, int* outcount, std::vector<int>* done);

}  // namespace ringmpi::api
