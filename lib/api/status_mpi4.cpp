// MPI-4.1's status accessors (§3.2.5: MPI_Status_get/set_source, _tag,
// _error) and MPI_Request_get_status_all/_any/_some (§3.7.5): the multiple
// forms of MPI_Request_get_status, which, unlike MPI_Test*, neither free nor
// deactivate the requests they report on.
#include <vector>

#include "api/grequest.hpp"
#include "api/p2p_args.hpp"
#include "api/request_scan.hpp"
#include "p2p/wait.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int status_arg(Call& call, const MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE (or NULL), which holds no fields");
  return MPI_SUCCESS;
}

// Active and not a persistent request at rest.
using api::active_request;

// The status of complete request r without releasing it (MPI_Request_get_status's
// answer); the request's error class, its sentence in *why.
int peek(p2p::Request* r, MPI_Status* status, char* why, std::size_t n) {
  if (!active_request(r) && !r->shared_done) {
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  if (auto* g = api::grequest_of(r)) {  // query_fn fills the status; the request stays
    MPI_Status local;
    const int code = g->query(status == MPI_STATUS_IGNORE ? &local : status);
    if (code != MPI_SUCCESS) std::snprintf(why, n, "%s", g->describe());
    return code;
  }
  p2p::status_of(*r, status);
  if (r->cancelled || r->st_error == MPI_SUCCESS) return MPI_SUCCESS;
  p2p::describe_error(*r, why, n);
  return r->st_error;
}

}  // namespace

extern "C" {

int MPI_Status_get_source(MPI_Status* status, int* source) {
  Call call("MPI_Status_get_source");
  if (int e = status_arg(call, status)) return e;
  if (int e = call.not_null(source, "source")) return e;
  *source = status->MPI_SOURCE;
  return MPI_SUCCESS;
}

int MPI_Status_get_tag(MPI_Status* status, int* tag) {
  Call call("MPI_Status_get_tag");
  if (int e = status_arg(call, status)) return e;
  if (int e = call.not_null(tag, "tag")) return e;
  *tag = status->MPI_TAG;
  return MPI_SUCCESS;
}

int MPI_Status_get_error(MPI_Status* status, int* error) {
  Call call("MPI_Status_get_error");
  if (int e = status_arg(call, status)) return e;
  if (int e = call.not_null(error, "error")) return e;
  *error = status->MPI_ERROR;
  return MPI_SUCCESS;
}

int MPI_Status_set_source(MPI_Status* status, int source) {
  Call call("MPI_Status_set_source");
  if (int e = status_arg(call, status)) return e;
  status->MPI_SOURCE = source;
  return MPI_SUCCESS;
}

int MPI_Status_set_tag(MPI_Status* status, int tag) {
  Call call("MPI_Status_set_tag");
  if (int e = status_arg(call, status)) return e;
  status->MPI_TAG = tag;
  return MPI_SUCCESS;
}

int MPI_Status_set_error(MPI_Status* status, int error) {
  Call call("MPI_Status_set_error");
  if (int e = status_arg(call, status)) return e;
  status->MPI_ERROR = error;
  return MPI_SUCCESS;
}

int MPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int* flag,
                               MPI_Status array_of_statuses[]) {
  Call call("MPI_Request_get_status_all");
  if (int e = call.initialized()) return e;
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::uint64_t before = p2p::activity();
  p2p::progress();
  for (int i = 0; i < count; ++i)
    if (active_request(rs[i]) && !rs[i]->complete) {
      *flag = 0;
      p2p::yield_if_idle(before);
      return MPI_SUCCESS;
    }
  *flag = 1;
  // As MPI_Testall (§3.7.5): with an error in some request, every status
  // gets its MPI_ERROR field and the call returns MPI_ERR_IN_STATUS.
  int failed = -1;
  char why[512] = "";
  std::vector<int> codes(rs.size(), MPI_SUCCESS);
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
    if (!rs[i]) {
      p2p::empty_status(st);
      continue;
    }
    char w[512] = "";
    codes[static_cast<std::size_t>(i)] = peek(rs[i], st, w, sizeof w);
    if (codes[static_cast<std::size_t>(i)] != MPI_SUCCESS && failed < 0) {
      failed = i;
      std::snprintf(why, sizeof why, "%s", w);
    }
  }
  if (failed < 0) return MPI_SUCCESS;
  if (array_of_statuses == MPI_STATUSES_IGNORE)
    return call.fail(codes[static_cast<std::size_t>(failed)], "request %d: %s", failed, why);
  for (int i = 0; i < count; ++i) array_of_statuses[i].MPI_ERROR = codes[static_cast<std::size_t>(i)];
  return call.fail(MPI_ERR_IN_STATUS, "request %d: %s", failed, why);
}

int MPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int* index, int* flag,
                               MPI_Status* status) {
  Call call("MPI_Request_get_status_any");
  if (int e = call.initialized()) return e;
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(index, "index")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::uint64_t before = p2p::activity();
  p2p::progress();
  bool any_active = false;
  for (int i = 0; i < count; ++i) {
    if (!active_request(rs[i])) continue;
    any_active = true;
    if (!rs[i]->complete) continue;
    *index = i;
    *flag = 1;
    char why[512] = "";
    if (int code = peek(rs[i], status, why, sizeof why)) {
      call.raise_on(rs[i]->comm);
      return call.fail(code, "request %d: %s", i, why);
    }
    return MPI_SUCCESS;
  }
  *index = MPI_UNDEFINED;
  *flag = !any_active;  // no active request: flag true, index MPI_UNDEFINED, an empty status
  if (!any_active)
    p2p::empty_status(status);
  else
    p2p::yield_if_idle(before);
  return MPI_SUCCESS;
}

int MPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int* outcount,
                                int array_of_indices[], MPI_Status array_of_statuses[]) {
  Call call("MPI_Request_get_status_some");
  if (int e = call.initialized()) return e;
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(incount > 0 ? incount : 0));
  if (int e = api::check_requests(call, incount, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(outcount, "outcount")) return e;
  std::vector<int> done;
  if (!api::scan_some(incount, rs.data(), outcount, &done)) return MPI_SUCCESS;
  *outcount = static_cast<int>(done.size());
  if (done.empty()) return MPI_SUCCESS;
  if (int e = call.not_null(array_of_indices, "array_of_indices")) return e;
  int failed = -1;
  char why[512] = "";
  std::vector<int> codes(done.size(), MPI_SUCCESS);
  for (std::size_t k = 0; k < done.size(); ++k) {
    array_of_indices[k] = done[k];
    MPI_Status* st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[k];
    char w[512] = "";
    codes[k] = peek(rs[static_cast<std::size_t>(done[k])], st, w, sizeof w);
    if (codes[k] != MPI_SUCCESS && failed < 0) {
      failed = done[k];
      std::snprintf(why, sizeof why, "%s", w);
    }
  }
  if (failed < 0) return MPI_SUCCESS;
  if (array_of_statuses != MPI_STATUSES_IGNORE)
    for (std::size_t k = 0; k < done.size(); ++k) array_of_statuses[k].MPI_ERROR = codes[k];
  return call.fail(MPI_ERR_IN_STATUS, "request %d: %s", failed, why);
}

}  // extern "C"
