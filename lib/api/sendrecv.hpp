// What MPI_Sendrecv (p2p_recv.cpp) and MPI_Isendrecv (p2p_isendrecv.cpp)
// share. Internal to lib/api.
#pragma once

#include "api/call.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::api {

// Starts the two halves of a send-receive: the send, and, when the send goes
// to this rank itself (*to_self), the receive first, so that the message goes
// straight into it (p2p's delivery to oneself, send.cpp) instead of through
// the self ring. *sreq gets the send, *rreq the receive (MPI_REQUEST_NULL
// when not to_self: the caller posts it). On failure nothing stays pending
// and the call has failed with the error.
int start_sendrecv(Call& call, const p2p::SendArgs& sa, const p2p::RecvArgs& ra, bool* to_self, MPI_Request* sreq,
                   MPI_Request* rreq);

}  // namespace ringmpi::api
