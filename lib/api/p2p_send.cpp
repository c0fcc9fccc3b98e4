// MPI_Send and friends: blocking and nonblocking sends in the four modes.
#include "api/p2p_args.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int blocking(const char* name, const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             p2p::Mode mode) {
  Call call(name);
  p2p::SendArgs a;
  if (int e = api::check_send(call, buf, count, datatype, dest, tag, comm, mode, &a)) return e;
  if (int e = p2p::send(a)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int nonblocking(const char* name, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, p2p::Mode mode, MPI_Request* request) {
  Call call(name);
  p2p::SendArgs a;
  if (int e = api::check_send(call, buf, count, datatype, dest, tag, comm, mode, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::isend(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
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

}  // extern "C"
