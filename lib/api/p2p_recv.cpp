// MPI_Recv, MPI_Irecv, MPI_Sendrecv(_replace) and MPI_Get_count.
#include <cstring>
#include <vector>

#include "api/large_count.hpp"
#include "api/p2p_args.hpp"
#include "api/sendrecv.hpp"
#include "core/runtime.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int start_sendrecv(Call& call, const p2p::SendArgs& sa, const p2p::RecvArgs& ra, bool* to_self, MPI_Request* sreq,
                   MPI_Request* rreq) {
  *to_self = sa.dest != MPI_PROC_NULL && sa.route.peer_world[sa.dest] == core::rt().rank;
  *rreq = *sreq = MPI_REQUEST_NULL;
  if (*to_self)
    if (int e = p2p::irecv(ra, rreq)) return call.fail(e, "%s", p2p::error_detail());
  if (int e = p2p::isend(sa, sreq)) {
    if (*to_self) {  // the message it was posted for will not come
      p2p::Request* r = p2p::lookup(*rreq);
      p2p::cancel(r);
      p2p::wait(r);
      p2p::finish(rreq, r, MPI_STATUS_IGNORE);
    }
    return call.fail(e, "%s", p2p::error_detail());
  }
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api

namespace {

int failed(Call& call, MPI_Comm comm, int code) {
  call.raise_on(comm);
  return call.fail(code, "%s", p2p::error_detail());
}

// MPI_Sendrecv(_replace) once the arguments are checked: the send starts
// (start_sendrecv: to this rank itself after the receive is posted), the
// receive completes, then the send does.
int send_recv(Call& call, MPI_Comm comm, const p2p::SendArgs& sa, const p2p::RecvArgs& ra, MPI_Status* status) {
  bool to_self;
  MPI_Request rreq, sreq;
  if (int e = api::start_sendrecv(call, sa, ra, &to_self, &sreq, &rreq)) return e;
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

// Inlined into MPI_Recv (and its _c form), like MPI_Irecv's checks below.
[[gnu::always_inline]] inline int recv(Call& call, void* buf, int count, MPI_Datatype datatype, int source, int tag,
                                       MPI_Comm comm, MPI_Status* status) {
  p2p::RecvArgs a;
  if (int e = api::check_recv(call, buf, count, datatype, source, tag, comm, &a)) return e;
  const int e = p2p::recv(a, status);
  if (e != MPI_SUCCESS) return failed(call, comm, e);
  return MPI_SUCCESS;
}

// Inlined into MPI_Irecv (as the nonblocking sends' checks are, p2p_send.cpp).
[[gnu::always_inline]] inline int irecv(Call& call, void* buf, int count, MPI_Datatype datatype, int source,
                                        int tag, MPI_Comm comm, MPI_Request* request) {
  p2p::RecvArgs a;
  if (int e = api::check_recv(call, buf, count, datatype, source, tag, comm, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::irecv(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int sendrecv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
             MPI_Status* status) {
  p2p::SendArgs sa;
  if (int e = api::check_send(call, sendbuf, sendcount, sendtype, dest, sendtag, comm, p2p::Mode::standard, &sa))
    return e;
  p2p::RecvArgs ra;
  if (int e = api::check_recv(call, recvbuf, recvcount, recvtype, source, recvtag, comm, &ra)) return e;
  return send_recv(call, comm, sa, ra, status);
}

int sendrecv_replace(Call& call, void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                     int recvtag, MPI_Comm comm, MPI_Status* status) {
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
  // More than INT_MAX bytes (a large count's type) go as one element of a
  // contiguous type of that many bytes.
  api::Counted n;
  if (int e = n.set(call, static_cast<MPI_Count>(bytes), MPI_BYTE, "count", "datatype")) return e;
  sa.type = dtype::lookup(n.datatype);
  sa.datatype = n.datatype;
  sa.count = n.count;
  return send_recv(call, comm, sa, ra, status);
}

// What MPI_Get_count(_c) answers: MPI_UNDEFINED when the bytes are not a whole number of elements.
MPI_Count count_of(const MPI_Status* status, const dtype::Datatype& t) {
  const long long bytes = status->rmpi_count;
  if (t.size == 0) return 0;  // MPICH and Open MPI answer 0 for a zero-size type
  if (bytes % static_cast<long long>(t.size) != 0) return MPI_UNDEFINED;
  return bytes / static_cast<long long>(t.size);
}

int get_count_args(Call& call, const MPI_Status* status, MPI_Datatype datatype, const void* count,
                   const dtype::Datatype** t) {
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE (or NULL), which holds no count");
  if (int e = call.datatype(datatype, "datatype", t)) return e;
  return call.not_null(count, "count");
}

}  // namespace

extern "C" {

int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Recv");
  return recv(call, buf, count, datatype, source, tag, comm, status);
}

int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  Call call("MPI_Irecv");
  return irecv(call, buf, count, datatype, source, tag, comm, request);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Sendrecv");
  return sendrecv(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                  comm, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Sendrecv_replace");
  return sendrecv_replace(call, buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  Call call("MPI_Get_count");
  const dtype::Datatype* t = nullptr;
  if (int e = get_count_args(call, status, datatype, count, &t)) return e;
  // A count that does not fit an int is MPI_UNDEFINED (MPI-4.1 §3.2.5).
  const MPI_Count n = count_of(status, *t);
  *count = n > INT32_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Status* status) {
  Call call("MPI_Recv_c");
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return recv(call, buf, n.count, n.datatype, source, tag, comm, status);
}

int MPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request* request) {
  Call call("MPI_Irecv_c");
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return irecv(call, buf, n.count, n.datatype, source, tag, comm, request);
}

int MPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Status* status) {
  Call call("MPI_Sendrecv_c");
  api::Counted sn, rn;
  if (int e = sn.set(call, sendcount, sendtype, "sendcount", "sendtype")) return e;
  if (int e = rn.set(call, recvcount, recvtype, "recvcount", "recvtype")) return e;
  return sendrecv(call, sendbuf, sn.count, sn.datatype, dest, sendtag, recvbuf, rn.count, rn.datatype, source,
                  recvtag, comm, status);
}

int MPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Sendrecv_replace_c");
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return sendrecv_replace(call, buf, n.count, n.datatype, dest, sendtag, source, recvtag, comm, status);
}

int MPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  Call call("MPI_Get_count_c");
  const dtype::Datatype* t = nullptr;
  if (int e = get_count_args(call, status, datatype, count, &t)) return e;
  *count = count_of(status, *t);
  return MPI_SUCCESS;
}

}  // extern "C"
