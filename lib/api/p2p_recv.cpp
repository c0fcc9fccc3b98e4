// MPI_Recv, MPI_Irecv, MPI_Sendrecv(_replace) and MPI_Get_count.
#include <cstring>
#include <vector>

#include "api/p2p_args.hpp"
#include "core/runtime.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int failed(Call& call, MPI_Comm comm, int code) {
  call.raise_on(comm);
  return call.fail(code, "%s", p2p::error_detail());
}

// MPI_Sendrecv(_replace) once the arguments are checked: the send starts,
// the receive completes, then the send does. To this rank itself the
// receive is posted before the send, so that the message goes straight into
// it (p2p's delivery to oneself, send.cpp) instead of through the self ring.
int send_recv(Call& call, MPI_Comm comm, const p2p::SendArgs& sa, const p2p::RecvArgs& ra, MPI_Status* status) {
  const bool to_self = sa.dest != MPI_PROC_NULL && sa.route.peer_world[sa.dest] == core::rt().rank;
  MPI_Request rreq = MPI_REQUEST_NULL, sreq;
  if (to_self)
    if (int e = p2p::irecv(ra, &rreq)) return call.fail(e, "%s", p2p::error_detail());
  if (int e = p2p::isend(sa, &sreq)) {
    if (to_self) {  // the message it was posted for will not come
      p2p::Request* r = p2p::lookup(rreq);
      p2p::cancel(r);
      p2p::wait(r);
      p2p::finish(&rreq, r, MPI_STATUS_IGNORE);
    }
    return call.fail(e, "%s", p2p::error_detail());
  }
  int e;
  if (to_self) {
    p2p::Request* r = p2p::lookup(rreq);
    p2p::wait(r);
    e = p2p::finish(&rreq, r, status);
  } else {
    e = p2p::recv(ra, status);
  }
  p2p::Request* r = p2p::lookup(sreq);
  p2p::wait(r);
  p2p::finish(&sreq, r, MPI_STATUS_IGNORE);
  if (e != MPI_SUCCESS) return failed(call, comm, e);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Recv");
  p2p::RecvArgs a;
  if (int e = api::check_recv(call, buf, count, datatype, source, tag, comm, &a)) return e;
  const int e = p2p::recv(a, status);
  if (e != MPI_SUCCESS) return failed(call, comm, e);
  return MPI_SUCCESS;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  Call call("MPI_Irecv");
  p2p::RecvArgs a;
  if (int e = api::check_recv(call, buf, count, datatype, source, tag, comm, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::irecv(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Sendrecv");
  p2p::SendArgs sa;
  if (int e = api::check_send(call, sendbuf, sendcount, sendtype, dest, sendtag, comm, p2p::Mode::standard, &sa))
    return e;
  p2p::RecvArgs ra;
  if (int e = api::check_recv(call, recvbuf, recvcount, recvtype, source, recvtag, comm, &ra)) return e;
  return send_recv(call, comm, sa, ra, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Sendrecv_replace");
  p2p::SendArgs sa;
  if (int e = api::check_send(call, buf, count, datatype, dest, sendtag, comm, p2p::Mode::standard, &sa)) return e;
  p2p::RecvArgs ra;
  if (int e = api::check_recv(call, buf, count, datatype, source, recvtag, comm, &ra)) return e;
  // The outgoing data is copied first (as its packed stream), so the receive
  // may overwrite buf while the send is still in flight.
  const std::size_t bytes = static_cast<std::size_t>(count) * sa.type->size;
  std::vector<std::byte> copy(bytes);
  if (bytes) dtype::pack(buf, count, *sa.type, 0, copy.data(), bytes);
  sa.buf = copy.data();
  sa.type = dtype::lookup(MPI_BYTE);
  sa.datatype = MPI_BYTE;
  sa.count = static_cast<int>(bytes);
  return send_recv(call, comm, sa, ra, status);
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  Call call("MPI_Get_count");
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE (or NULL), which holds no count");
  const dtype::Datatype* t;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = call.not_null(count, "count")) return e;
  const long long bytes = status->rmpi_count;
  if (t->size == 0) {
    *count = 0;  // MPICH and Open MPI answer 0 for a zero-size type
    return MPI_SUCCESS;
  }
  const long long n = bytes / static_cast<long long>(t->size);
  if (bytes % static_cast<long long>(t->size) != 0 || n > INT32_MAX)
    *count = MPI_UNDEFINED;
  else
    *count = static_cast<int>(n);
  return MPI_SUCCESS;
}

}  // extern "C"
