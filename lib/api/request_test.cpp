// MPI_Test*, MPI_Request_free, MPI_Request_get_status, MPI_Cancel and the
// status helpers (MPI-3.1 §3.7.3 - §3.8).
#include <vector>

#include "api/grequest.hpp"
#include "api/p2p_args.hpp"
#include "api/request_scan.hpp"
#include "p2p/wait.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

bool scan_some(int count, p2p::Request* const* rs, int* outcount, std::vector<int>* done) {
  const std::uint64_t before = p2p::activity();
  p2p::progress();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active_request(rs[i])) continue;
    any_active = true;
    if (rs[i]->complete) done->push_back(i);
  }
  if (!any_active) {
    *outcount = MPI_UNDEFINED;
    return false;
  }
  if (done->empty()) p2p::yield_if_idle(before);
  return true;
}
}  // namespace ringmpi::api

namespace {

using api::active_request;

}  // namespace

extern "C" {

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  Call call("MPI_Test");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  if (*request == MPI_REQUEST_NULL) {
    *flag = 1;
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  p2p::Request* r;
  if (int e = api::check_request(call, *request, "request", &r)) return e;
  const std::uint64_t before = p2p::activity();
  *flag = p2p::test(r);
  if (!*flag) {
    p2p::yield_if_idle(before);
    return MPI_SUCCESS;
  }
  api::RequestError err;
  if (api::finish_request(request, r, status, &err) != MPI_SUCCESS) return api::report(call, err, err.code);
  return MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]) {
  Call call("MPI_Testall");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::uint64_t before = p2p::activity();
  p2p::progress();
  for (int i = 0; i < count; ++i) {
    if (!rs[i]) continue;
    if (!(rs[i]->complete || !active_request(rs[i]))) {
      *flag = 0;
      p2p::yield_if_idle(before);
      return MPI_SUCCESS;
    }
  }
  *flag = 1;
  if (array_of_statuses != MPI_STATUSES_IGNORE)
    for (int i = 0; i < count; ++i)
      if (!rs[i]) p2p::empty_status(&array_of_statuses[i]);
  return api::finish_many(call, array_of_requests, rs.data(), nullptr, rs.size(), array_of_statuses, false);
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int* index, int* flag, MPI_Status* status) {
  Call call("MPI_Testany");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(index, "index")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::uint64_t before = p2p::activity();
  p2p::progress();
  bool active = false;
  for (int i = 0; i < count; ++i) {
    if (!active_request(rs[i])) continue;
    active = true;
    if (rs[i]->complete) {
      *index = i;
      *flag = 1;
      api::RequestError err;
      if (api::finish_request(&array_of_requests[i], rs[i], status, &err) != MPI_SUCCESS)
        return api::report(call, err, err.code);
      return MPI_SUCCESS;
    }
  }
  *index = MPI_UNDEFINED;
  *flag = !active;
  if (!active) p2p::empty_status(status);
  else p2p::yield_if_idle(before);
  return MPI_SUCCESS;
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
  Call call("MPI_Testsome");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(incount > 0 ? incount : 0));
  if (int e = api::check_requests(call, incount, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(outcount, "outcount")) return e;
  std::vector<int> which;
  if (!api::scan_some(incount, rs.data(), outcount, &which)) return MPI_SUCCESS;
  if (!which.empty())
    if (int e = call.not_null(array_of_indices, "array_of_indices")) return e;
  *outcount = static_cast<int>(which.size());
  for (std::size_t k = 0; k < which.size(); ++k) array_of_indices[k] = which[k];
  return api::finish_many(call, array_of_requests, rs.data(), which.data(), which.size(), array_of_statuses, true);
}

int MPI_Request_free(MPI_Request* request) {
  Call call("MPI_Request_free");
  if (int e = call.not_null(request, "request")) return e;
  p2p::Request* r;
  if (int e = api::check_request(call, *request, "request", &r)) return e;
  if (auto* g = api::grequest_of(r)) {
    // Allowed before completion (MPI-3.1 §12.2): free_fn runs once the
    // request is both freed and completed by MPI_Grequest_complete.
    const bool done = g->user_completed();
    const int code = done ? g->free_once() : MPI_SUCCESS;
    if (done && !r->complete) p2p::progress();  // lets the engine complete it, so release() frees it now
    p2p::release(request, r);
    if (code != MPI_SUCCESS) return call.fail(code, "%s", g->describe());
    return MPI_SUCCESS;
  }
  if (r->kind == p2p::Kind::ext && !r->complete && !(r->ext && r->ext->freeable()))
    return call.fail(MPI_ERR_REQUEST,
                     "argument request is a %s still in progress; freeing it is erroneous "
                     "(MPI-3.1 §5.12): complete it with MPI_Wait or MPI_Test",
                     r->persistent ? "started persistent collective or partitioned request" : "nonblocking collective");
  p2p::release(request, r);
  return MPI_SUCCESS;
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  Call call("MPI_Request_get_status");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  if (request == MPI_REQUEST_NULL) {
    *flag = 1;
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  p2p::Request* r;
  if (int e = api::check_request(call, request, "request", &r)) return e;
  *flag = p2p::test(r);
  if (!*flag) return MPI_SUCCESS;
  if (!active_request(r) && !r->shared_done) {
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  if (auto* g = api::grequest_of(r)) {  // query_fn fills the status; the request stays
    MPI_Status local;
    if (int code = g->query(status == MPI_STATUS_IGNORE ? &local : status)) return call.fail(code, "%s", g->describe());
    return MPI_SUCCESS;
  }
  p2p::status_of(*r, status);
  if (!r->cancelled && r->st_error != MPI_SUCCESS) {
    char why[512];
    p2p::describe_error(*r, why, sizeof why);
    call.raise_on(r->comm);
    return call.fail(r->st_error, "%s", why);
  }
  return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request* request) {
  Call call("MPI_Cancel");
  if (int e = call.not_null(request, "request")) return e;
  p2p::Request* r;
  if (int e = api::check_request(call, *request, "request", &r)) return e;
  if (auto* g = api::grequest_of(r)) {
    if (int code = g->cancel()) return call.fail(code, "the generalized request's cancel_fn returned error code %d", code);
    return MPI_SUCCESS;
  }
  if (r->kind == p2p::Kind::ext)
    return call.fail(MPI_ERR_REQUEST, "argument request is a %s, which cannot be cancelled (MPI-3.1 §5.12)",
                     r->persistent ? "persistent collective or partitioned request"
                                   : "nonblocking collective or an MPI_Isendrecv(_replace) (an operation of several "
                                     "transfers)");
  p2p::cancel(r);
  return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  Call call("MPI_Test_cancelled");
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE (or NULL), which holds nothing to test");
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = status->rmpi_cancelled != 0;
  return MPI_SUCCESS;
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  Call call("MPI_Status_set_cancelled");
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE (or NULL), which cannot be set");
  status->rmpi_cancelled = flag != 0;
  return MPI_SUCCESS;
}

}  // extern "C"
