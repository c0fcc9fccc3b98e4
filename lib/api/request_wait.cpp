// MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome (MPI-3.1 §3.7.3, §3.7.5).
#include <vector>

#include "api/p2p_args.hpp"
#include "api/persistent.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

// Hands back every complete request in `which`; on any error fills the
// statuses' MPI_ERROR fields and reports MPI_ERR_IN_STATUS (MPI-3.1 §3.7.5).
int finish_many(Call& call, MPI_Request* array, p2p::Request** rs, const std::vector<int>& which,
                MPI_Status* statuses, bool indexed_statuses) {
  RequestError first;
  std::vector<int> codes(which.size(), MPI_SUCCESS);
  bool any = false;
  for (std::size_t k = 0; k < which.size(); ++k) {
    const int i = which[k];
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[indexed_statuses ? k : i];
    RequestError e;
    codes[k] = finish_request(&array[i], rs[i], st, &e);
    if (codes[k] != MPI_SUCCESS && !any) {
      any = true;
      first = e;
    }
  }
  if (!any) return MPI_SUCCESS;
  if (statuses != MPI_STATUSES_IGNORE)
    for (std::size_t k = 0; k < which.size(); ++k) statuses[indexed_statuses ? k : which[k]].MPI_ERROR = codes[k];
  return report(call, first, MPI_ERR_IN_STATUS, "one or more requests failed (see the statuses); the first: ");
}

}  // namespace ringmpi::api

namespace {

bool usable(const p2p::Request* r) { return r && !(r->persistent && !r->active); }

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  Call call("MPI_Wait");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (*request == MPI_REQUEST_NULL) {
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  p2p::Request* r;
  if (int e = api::check_request(call, *request, "request", &r)) return e;
  const void* const one[1] = {r};
  Call::note_requests(core::Runtime::CallArgs::Kind::request, one, 1);
  // An active persistent collective or partitioned request: a few direct
  // looks first (api::spin_persistent), then the general loop.
  if (r->kind == p2p::Kind::ext && r->persistent) {
    if (!r->complete) api::spin_persistent(r);
    p2p::wait(r);
    // A persistent collective or partitioned epoch that ended well (the
    // usual case): what p2p::finish does for it, without the error path.
    if (r->active && !r->cancelled && r->st_error == MPI_SUCCESS) {
      p2p::status_of(*r, status);
      r->active = false;
      return MPI_SUCCESS;
    }
  }
  p2p::wait(r);
  api::RequestError err;
  if (api::finish_request(request, r, status, &err) != MPI_SUCCESS) return api::report(call, err, err.code);
  return MPI_SUCCESS;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  Call call("MPI_Waitall");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  Call::note_requests(core::Runtime::CallArgs::Kind::all_of, reinterpret_cast<const void* const*>(rs.data()), count);
  std::vector<int> which;
  which.reserve(rs.size());
  for (int i = 0; i < count; ++i) {
    if (!rs[i]) {
      if (array_of_statuses != MPI_STATUSES_IGNORE) p2p::empty_status(&array_of_statuses[i]);
      continue;
    }
    if (rs[i]->kind == p2p::Kind::ext && rs[i]->persistent && !rs[i]->complete) api::spin_persistent(rs[i]);
    p2p::wait(rs[i]);
    which.push_back(i);
  }
  return api::finish_many(call, array_of_requests, rs.data(), which, array_of_statuses, false);
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int* index, MPI_Status* status) {
  Call call("MPI_Waitany");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(count > 0 ? count : 0));
  if (int e = api::check_requests(call, count, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(index, "index")) return e;
  bool active = false;
  for (auto*& r : rs) {
    if (!usable(r)) r = nullptr;
    active |= r != nullptr;
  }
  if (!active) {
    *index = MPI_UNDEFINED;
    p2p::empty_status(status);
    return MPI_SUCCESS;
  }
  Call::note_requests(core::Runtime::CallArgs::Kind::any_of, reinterpret_cast<const void* const*>(rs.data()), count);
  const int i = p2p::wait_any(rs.data(), count);
  *index = i;
  api::RequestError err;
  if (api::finish_request(&array_of_requests[i], rs[static_cast<std::size_t>(i)], status, &err) != MPI_SUCCESS)
    return api::report(call, err, err.code);
  return MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int* outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
  Call call("MPI_Waitsome");
  std::vector<p2p::Request*> rs(static_cast<std::size_t>(incount > 0 ? incount : 0));
  if (int e = api::check_requests(call, incount, array_of_requests, rs.data())) return e;
  if (int e = call.not_null(outcount, "outcount")) return e;
  bool active = false;
  for (auto*& r : rs) {
    if (!usable(r)) r = nullptr;
    active |= r != nullptr;
  }
  if (!active) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  if (int e = call.not_null(array_of_indices, "array_of_indices")) return e;
  Call::note_requests(core::Runtime::CallArgs::Kind::any_of, reinterpret_cast<const void* const*>(rs.data()), incount);
  p2p::wait_any(rs.data(), incount);
  std::vector<int> which;
  for (int i = 0; i < incount; ++i)
    if (rs[i] && p2p::test(rs[i])) which.push_back(i);
  *outcount = static_cast<int>(which.size());
  for (std::size_t k = 0; k < which.size(); ++k) array_of_indices[k] = which[k];
  return api::finish_many(call, array_of_requests, rs.data(), which, array_of_statuses, true);
}

}  // extern "C"
