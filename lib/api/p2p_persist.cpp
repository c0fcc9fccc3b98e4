// Persistent requests: MPI_Send_init and friends, MPI_Start, MPI_Startall.
#include <cstdio>

#include "api/large_count.hpp"
#include "api/p2p_args.hpp"
#include "api/persistent.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int send_init(Call& call, const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              p2p::Mode mode, MPI_Request* request) {
  p2p::SendArgs a;
  if (int e = api::check_send(call, buf, count, datatype, dest, tag, comm, mode, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::send_init(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int send_init(const char* name, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, p2p::Mode mode, MPI_Request* request) {
  Call call(name);
  return send_init(call, buf, count, datatype, dest, tag, comm, mode, request);
}

// The _c forms: the request keeps the type a large count is made of.
int send_init_c(const char* name, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, p2p::Mode mode, MPI_Request* request) {
  Call call(name);
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return send_init(call, buf, n.count, n.datatype, dest, tag, comm, mode, request);
}

int recv_init(Call& call, void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  p2p::RecvArgs a;
  if (int e = api::check_recv(call, buf, count, datatype, source, tag, comm, &a)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::recv_init(a, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int check_startable(Call& call, MPI_Request h, const char* arg, int i, p2p::Request** out) {
  // The usual case first, without formatting the argument's name (an
  // snprintf was a fifth of a persistent collective's MPI_Start).
  if (h != MPI_REQUEST_NULL && core::rt().phase == core::Phase::running)
    if (p2p::Request* r = p2p::lookup(h); r && r->persistent && !r->active) {
      *out = r;
      return MPI_SUCCESS;
    }
  char name[48];
  if (i >= 0)
    std::snprintf(name, sizeof name, "array_of_requests[%d]", i);
  else
    std::snprintf(name, sizeof name, "%s", arg);
  if (int e = api::check_request(call, h, name, out)) return e;
  if (!(*out)->persistent)
    return call.fail(MPI_ERR_REQUEST,
                     "argument %s is not a persistent request (make it with MPI_Send_init/MPI_Recv_init, a "
                     "collective's _init or MPI_Psend_init/MPI_Precv_init)",
                     name);
  if ((*out)->active)
    return call.fail(MPI_ERR_REQUEST, "argument %s is already active; complete it (MPI_Wait/MPI_Test) before starting it again",
                     name);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return send_init("MPI_Send_init", buf, count, datatype, dest, tag, comm, p2p::Mode::standard, request);
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Ssend_init", buf, count, datatype, dest, tag, comm, p2p::Mode::sync, request);
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Rsend_init", buf, count, datatype, dest, tag, comm, p2p::Mode::ready, request);
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  return send_init("MPI_Bsend_init", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered, request);
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  Call call("MPI_Recv_init");
  return recv_init(call, buf, count, datatype, source, tag, comm, request);
}

int MPI_Send_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  return send_init_c("MPI_Send_init_c", buf, count, datatype, dest, tag, comm, p2p::Mode::standard, request);
}
int MPI_Ssend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return send_init_c("MPI_Ssend_init_c", buf, count, datatype, dest, tag, comm, p2p::Mode::sync, request);
}
int MPI_Rsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return send_init_c("MPI_Rsend_init_c", buf, count, datatype, dest, tag, comm, p2p::Mode::ready, request);
}
int MPI_Bsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  return send_init_c("MPI_Bsend_init_c", buf, count, datatype, dest, tag, comm, p2p::Mode::buffered, request);
}

int MPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  Call call("MPI_Recv_init_c");
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return recv_init(call, buf, n.count, n.datatype, source, tag, comm, request);
}

int MPI_Start(MPI_Request* request) {
  Call call("MPI_Start");
  if (int e = call.not_null(request, "request")) return e;
  p2p::Request* r;
  if (int e = check_startable(call, *request, "request", -1, &r)) return e;
  if (r->kind == p2p::Kind::ext) return api::start_persistent(call, r);  // MPI-4.0 persistent collective, partitioned
  if (int e = p2p::start(r)) {
    call.raise_on(r->comm);
    return call.fail(e, "%s", p2p::error_detail());
  }
  return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  Call call("MPI_Startall");
  if (int e = call.initialized()) return e;
  if (int e = call.count(count, "count")) return e;
  if (count > 0)
    if (int e = call.not_null(array_of_requests, "array_of_requests")) return e;
  for (int i = 0; i < count; ++i) {
    p2p::Request* r;
    if (int e = check_startable(call, array_of_requests[i], nullptr, i, &r)) return e;
  }
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = p2p::lookup(array_of_requests[i]);
    if (r->kind == p2p::Kind::ext) {
      if (int e = api::start_persistent(call, r)) return e;
      continue;
    }
    if (int e = p2p::start(r)) {
      call.raise_on(r->comm);
      return call.fail(e, "array_of_requests[%d]: %s", i, p2p::error_detail());
    }
  }
  return MPI_SUCCESS;
}

}  // extern "C"
