// MPI_Grequest_start, MPI_Grequest_complete and the hand-back of a completed
// generalized request (see api/grequest.hpp for when each callback runs).
#include "api/grequest.hpp"

#include <cstdio>
#include <memory>

#include "p2p/extension.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int GeneralizedRequest::query(MPI_Status* st) {
  // The status comes in empty: a query_fn that sets only some fields leaves
  // the others as a receive that got nothing would have them.
  p2p::empty_status(st);
  st->MPI_ERROR = MPI_SUCCESS;
  const int code = query_fn_(extra_, st);
  if (code != MPI_SUCCESS) set_why(code, "query_fn");
  return code;
}

int GeneralizedRequest::free_once() {
  if (freed_) return MPI_SUCCESS;
  freed_ = true;
  const int code = free_fn_(extra_);
  if (code != MPI_SUCCESS) set_why(code, "free_fn");
  return code;
}

void GeneralizedRequest::set_why(int code, const char* fn) {
  std::snprintf(why_, sizeof why_, "the generalized request's %s returned error code %d", fn, code);
}

int finish_grequest(MPI_Request* h, p2p::Request* r, GeneralizedRequest* g, MPI_Status* status, RequestError* err) {
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int code = g->query(st);
  // MPI-3.1 §12.2: free_fn runs after query_fn; the completion call returns
  // query_fn's error if it had one, else free_fn's.
  const int freed = g->free_once();
  if (code == MPI_SUCCESS) code = freed;
  if (code != MPI_SUCCESS) {
    err->code = code;
    err->comm = r->comm;
    std::snprintf(err->why, sizeof err->why, "%s", g->describe());
  }
  p2p::finish(h, r, MPI_STATUS_IGNORE);  // releases it: the handle becomes MPI_REQUEST_NULL
  return code;
}

}  // namespace ringmpi::api

extern "C" {

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
  Call call("MPI_Grequest_start");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(reinterpret_cast<const void*>(query_fn), "query_fn")) return e;
  if (int e = call.not_null(reinterpret_cast<const void*>(free_fn), "free_fn")) return e;
  if (int e = call.not_null(reinterpret_cast<const void*>(cancel_fn), "cancel_fn")) return e;
  if (int e = call.not_null(request, "request")) return e;
  auto g = std::make_unique<api::GeneralizedRequest>(query_fn, free_fn, cancel_fn, extra_state);
  if (int e = p2p::start_extension(std::move(g), MPI_COMM_WORLD, request))
    return call.fail(e, "2^20 requests are live at once; complete some (MPI_Wait/MPI_Test) before starting more");
  return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request) {
  Call call("MPI_Grequest_complete");
  if (int e = call.initialized()) return e;
  if (request == MPI_REQUEST_NULL) return call.fail(MPI_ERR_REQUEST, "argument request is MPI_REQUEST_NULL");
  p2p::Request* r = p2p::lookup_held(request);
  api::GeneralizedRequest* g = r ? api::grequest_of(r) : nullptr;
  if (!g)
    return call.fail(MPI_ERR_REQUEST,
                     "argument request=0x%x is not a live generalized request (not started by MPI_Grequest_start, or "
                     "already completed and handed back by MPI_Wait/MPI_Test)",
                     static_cast<unsigned>(request));
  if (g->user_completed())
    return call.fail(MPI_ERR_REQUEST,
                     "argument request=0x%x: MPI_Grequest_complete was already called for this generalized request; "
                     "it may be called once only (MPI-3.1 §12.2)",
                     static_cast<unsigned>(request));
  g->mark_completed();
  // Freed by the user before now: nobody will hand it back, so free_fn runs
  // here (MPI-3.1 §12.2), and the next progress() releases the request.
  if (r->user_freed) {
    if (int e = g->free_once()) return call.fail(e, "%s", g->describe());
  }
  return MPI_SUCCESS;
}

}  // extern "C"
