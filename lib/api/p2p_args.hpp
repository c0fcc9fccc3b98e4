// Argument checks shared by the point-to-point entry points: they turn the
// user's (buf, count, datatype, rank, tag, comm) into p2p::SendArgs /
// RecvArgs or fail with a message naming the argument and the bad value.
#pragma once

#include "api/call.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::api {

// Largest valid tag (the MPI_TAG_UB attribute of MPI_COMM_WORLD).
inline constexpr int kTagUb = 2147483647;

// The failing cases of the checks below: format the message and dispatch.
[[gnu::cold]] int bad_buffer(Call& call, int count, const dtype::Datatype* t, const char* arg);
[[gnu::cold]] int bad_tag(Call& call, int tag, bool any_ok, const char* arg);
[[gnu::cold]] int bad_rank(Call& call, int rank, const comm::Comm* c, MPI_Comm h, bool any_ok, const char* arg);
// A wildcard on a communicator whose info asserted it uses none
// (mpi_assert_no_any_source / _no_any_tag, MPI-4.0 §7.4.4): MPI_ERR_RANK /
// MPI_ERR_TAG naming the assertion, else MPI_SUCCESS.
[[gnu::cold]] int check_wildcard(Call& call, const comm::Comm* c, MPI_Comm h, int source, int tag);

// Inline: every send and receive runs them, and a message's latency is a
// few tens of nanoseconds.
inline int check_buffer(Call& call, const void* buf, int count, const dtype::Datatype* t, const char* arg) {
  // MPI_BOTTOM is NULL: a derived type may address absolute memory from it;
  // a predefined one cannot.
  if (__builtin_expect(!buf && count > 0 && t->predefined && t->size > 0, 0)) return bad_buffer(call, count, t, arg);
  return MPI_SUCCESS;
}

inline int check_tag(Call& call, int tag, bool any_ok, const char* arg) {
  call.note_tag(tag);
  if (__builtin_expect(tag >= 0, 1) || (any_ok && tag == MPI_ANY_TAG)) return MPI_SUCCESS;  // kTagUb is INT_MAX
  return bad_tag(call, tag, any_ok, arg);
}

// `rank` addresses the destination group: the remote one of an intercommunicator.
inline int check_rank(Call& call, int rank, const comm::Comm* c, MPI_Comm h, bool any_ok, const char* arg) {
  call.note_peer(rank);
  if (__builtin_expect(static_cast<unsigned>(rank) < c->peer_world.size(), 1) || rank == MPI_PROC_NULL ||
      (any_ok && rank == MPI_ANY_SOURCE))
    return MPI_SUCCESS;
  return bad_rank(call, rank, c, h, any_ok, arg);
}

[[gnu::cold]] int empty_message_type(Call& call, MPI_Datatype* datatype, const dtype::Datatype** t);

// The datatype of a message buffer. Count 0 of MPI_DATATYPE_NULL is an
// empty message: MPICH checks a buffer's datatype only when count > 0, and
// its own tests send and receive (NULL, 0, MPI_DATATYPE_NULL), so it is
// accepted here as 0 bytes (the handle becomes MPI_BYTE; issue 35,
// mpiexec --check warns).
inline int check_message_type(Call& call, int count, MPI_Datatype& datatype, const dtype::Datatype** t) {
  if (__builtin_expect(datatype == MPI_DATATYPE_NULL && count == 0, 0)) return empty_message_type(call, &datatype, t);
  return call.datatype(datatype, "datatype", t);
}

// The message buffer of a send or receive: (buf, count, datatype) on comm.
[[gnu::always_inline]] inline int check_message(Call& call, const void* buf, int count, MPI_Datatype& datatype,
                                                MPI_Comm comm, comm::Comm** c, const dtype::Datatype** t) {
  if (int e = call.comm(comm, "comm", c)) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = check_message_type(call, count, datatype, t)) return e;
  return check_buffer(call, buf, count, *t, "buf");
}

[[gnu::always_inline]] inline int check_send(Call& call, const void* buf, int count, MPI_Datatype datatype, int dest,
                                             int tag, MPI_Comm comm, p2p::Mode mode, p2p::SendArgs* out) {
  comm::Comm* c;
  const dtype::Datatype* t;
  if (int e = check_message(call, buf, count, datatype, comm, &c, &t)) return e;
  if (int e = check_rank(call, dest, c, comm, false, "dest")) return e;
  if (int e = check_tag(call, tag, false, "tag")) return e;
  *out = p2p::SendArgs{buf, count, datatype, t, dest, tag, c->route(), comm, mode};
  Call::note_args(core::Runtime::CallArgs::Kind::send, dest, tag, count, comm, datatype);
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int check_recv(Call& call, void* buf, int count, MPI_Datatype datatype, int source,
                                             int tag, MPI_Comm comm, p2p::RecvArgs* out) {
  comm::Comm* c;
  const dtype::Datatype* t;
  if (int e = check_message(call, buf, count, datatype, comm, &c, &t)) return e;
  if (int e = check_rank(call, source, c, comm, true, "source")) return e;
  if (int e = check_tag(call, tag, true, "tag")) return e;
  if (__builtin_expect(source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG, 0))
    if (int e = check_wildcard(call, c, comm, source, tag)) return e;
  *out = p2p::RecvArgs{buf, count, datatype, t, source, tag, c->route(), comm};
  Call::note_args(core::Runtime::CallArgs::Kind::recv, source, tag, count, comm, datatype);
  return MPI_SUCCESS;
}

// Probe-style (source, tag) checks on comm.
int check_source_tag(Call& call, int source, int tag, MPI_Comm comm, comm::Comm** out);
// A request handle argument that must name a live request (not MPI_REQUEST_NULL).
int check_request(Call& call, MPI_Request h, const char* arg, p2p::Request** out);
// An array of requests: each entry MPI_REQUEST_NULL or live; out[i] null for null ones.
int check_requests(Call& call, int count, const MPI_Request* array, p2p::Request** out);
// A failed request's error, captured before the request is released.
struct RequestError {
  RequestError() { why[0] = '\0'; }  // not "= {}": Waitall makes one per request
  int code = MPI_SUCCESS;
  MPI_Comm comm = MPI_COMM_WORLD;
  char why[512];
};
// p2p::finish, keeping the error (if any) for report().
int finish_request(MPI_Request* h, p2p::Request* r, MPI_Status* status, RequestError* err);
// Reports an error on the failed request's communicator (fail() with `code`).
int report(Call& call, const RequestError& err, int code, const char* prefix = "");
// Hands back the complete requests rs[which[k]] for k < n (which null: every
// non-null rs[i], i < n), statuses[k] (indexed_statuses) or statuses[i]
// getting each one's status; on any error fills the statuses' MPI_ERROR
// fields and reports MPI_ERR_IN_STATUS (MPI-3.1 §3.7.5). request_wait.cpp.
int finish_many(Call& call, MPI_Request* array, p2p::Request* const* rs, const int* which, std::size_t n,
                MPI_Status* statuses, bool indexed_statuses);

}  // namespace ringmpi::api
