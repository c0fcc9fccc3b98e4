// MPI_Send and friends: blocking and nonblocking sends in the four modes.
#include "api/large_count.hpp"
#include "api/p2p_args.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// Inlined into each blocking send, as the nonblocking ones below are: on
// the 8-byte ping-pong path the two out-of-line frames between MPI_Send and
// p2p::send were about 30 of its instructions.
[[gnu::always_inline]] inline int blocking(Call& call, const void* buf, int count, MPI_Datatype datatype, int dest,
                                           int tag, MPI_Comm comm, p2p::Mode mode) {
  p2p::SendArgs a;
  if (int e = api::check_send(call, buf, count, datatype, dest, tag, comm, mode, &a)) return e;
  if (int e = p2p::send(a)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int blocking(const char* name, const void* buf, int count, MPI_Datatype datatype,
                                           int dest, int tag, MPI_Comm comm, p2p::Mode mode) {
  Call call(name);
  return blocking(call, buf, count, datatype, dest, tag, comm, mode);
}

// Inlined into each MPI_I*send: a message's start costs a few tens of
// instructions, and the call of an out-of-line helper with nine arguments
// was a fifth of them.
[[gnu::always_inline]] inline int nonblocking(Call& call, const void* buf, int count, MPI_Datatype datatype,
                                              int dest, int tag, MPI_Comm comm, p2p::Mode mode,
                                              MPI_Request* request) {
  p2p::SendArgs a;
  if (int e = api::check_send(call, buf, count, datatype, dest, tag, comm, mode, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::isend(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int nonblocking(const char* name, const void* buf, int count, MPI_Datatype datatype,
                                              int dest, int tag, MPI_Comm comm, p2p::Mode mode,
                                              MPI_Request* request) {
  Call call(name);
  return nonblocking(call, buf, count, datatype, dest, tag, comm, mode, request);
}

// The _c forms (MPI-4.1): the count as the int path takes it (large_count.hpp).
int blocking_c(const char* name, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, p2p::Mode mode) {
  Call call(name);
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return blocking(call, buf, n.count, n.datatype, dest, tag, comm, mode);
}

int nonblocking_c(const char* name, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, p2p::Mode mode, MPI_Request* request) {
  Call call(name);
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return nonblocking(call, buf, n.count, n.datatype, dest, tag, comm, mode, request);
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking("MPI_Send", buf, count, datatype, dest, tag, comm, p2p::Mode::standard);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking("MPI_Ssend", buf, count, datatype, dest, tag, comm, p2p::Mode::sync);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking("MPI_Rsend", buf, count, datatype, dest, tag, comm, p2p::Mode::ready);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking("MPI_Bsend", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  return nonblocking("MPI_Isend", buf, count, datatype, dest, tag, comm, p2p::Mode::standard, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking("MPI_Issend", buf, count, datatype, dest, tag, comm, p2p::Mode::sync, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking("MPI_Irsend", buf, count, datatype, dest, tag, comm, p2p::Mode::ready, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking("MPI_Ibsend", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered, request);
}

int MPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_c("MPI_Send_c", buf, count, datatype, dest, tag, comm, p2p::Mode::standard);
}
int MPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_c("MPI_Ssend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::sync);
}
int MPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_c("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::ready);
}
int MPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  return blocking_c("MPI_Bsend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered);
}

int MPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking_c("MPI_Isend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::standard, request);
}
int MPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return nonblocking_c("MPI_Issend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::sync, request);
}
int MPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return nonblocking_c("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::ready, request);
}
int MPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  return nonblocking_c("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered, request);
}

}  // extern "C"
