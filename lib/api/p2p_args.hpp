// Argument checks shared by the point-to-point entry points: they turn the
// user's (buf, count, datatype, rank, tag, comm) into p2p::SendArgs /
// RecvArgs or fail with a message naming the argument and the bad value.
#pragma once

#include "api/call.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::api {

// Largest valid tag (the MPI_TAG_UB attribute of MPI_COMM_WORLD).
inline constexpr int kTagUb = 2147483647;

int check_send(Call& call, const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               p2p::Mode mode, p2p::SendArgs* out);
int check_recv(Call& call, void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               p2p::RecvArgs* out);
// Probe-style (source, tag) checks on comm.
int check_source_tag(Call& call, int source, int tag, MPI_Comm comm, comm::Comm** out);
// A request handle argument that must name a live request (not MPI_REQUEST_NULL).
int check_request(Call& call, MPI_Request h, const char* arg, p2p::Request** out);
// An array of requests: each entry MPI_REQUEST_NULL or live; out[i] null for null ones.
int check_requests(Call& call, int count, const MPI_Request* array, p2p::Request** out);
// A failed request's error, captured before the request is released.
struct RequestError {
  int code = MPI_SUCCESS;
  MPI_Comm comm = MPI_COMM_WORLD;
  char why[512] = "";
};
// p2p::finish, keeping the error (if any) for report().
int finish_request(MPI_Request* h, p2p::Request* r, MPI_Status* status, RequestError* err);
// Reports an error on the failed request's communicator (fail() with `code`).
int report(Call& call, const RequestError& err, int code, const char* prefix = "");

}  // namespace ringmpi::api
