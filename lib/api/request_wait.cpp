// MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome (MPI-3.1 §3.7.3, §3.7.5).
#include <vector>

#include "api/p2p_args.hpp"
#include "api/persistent.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int finish_many(Call& call, MPI_Request* array, p2p::Request* const* rs, const int* which, std::size_t n,
                MPI_Status* statuses, bool indexed_statuses) {
  const bool keep = statuses != MPI_STATUSES_IGNORE;
  RequestError first, later;  // the first error's detail; the others' (unused)
  bool any = false;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = which ? static_cast<std::size_t>(which[k]) : k;
    p2p::Request* r = rs[i];
    if (!r) continue;  // which is null: a null handle (its status is the caller's)
    MPI_Status* st = keep ? &statuses[indexed_statuses ? k : i] : MPI_STATUS_IGNORE;
    int code = MPI_SUCCESS;
    if (r->shared_done) {  // an eager send done inside its call: p2p::finish's first case
      array[i] = MPI_REQUEST_NULL;
      if (keep) p2p::empty_status(st);
    } else if (r->kind != p2p::Kind::ext && r->st_error == MPI_SUCCESS) {
      code = p2p::finish(&array[i], r, st);  // finish_request without an error to describe: the same
    } else {
      code = finish_request(&array[i], r, st, any ? &later : &first);
    }
    if (code != MPI_SUCCESS && !any) {
      any = true;
      if (keep)  // those handed back before this one succeeded
        for (std::size_t j = 0; j < k; ++j) {
          const std::size_t jj = which ? static_cast<std::size_t>(which[j]) : j;
          if (rs[jj]) statuses[indexed_statuses ? j : jj].MPI_ERROR = MPI_SUCCESS;
        }
    }
    if (any && keep) st->MPI_ERROR = code;
  }
  if (!any) return MPI_SUCCESS;
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
  // The requests behind the handles: on the stack for the usual window
  // sizes (osu_bw's 64), no allocation per call.
  constexpr int kOnStack = 128;
  p2p::Request* on_stack[kOnStack];
  std::vector<p2p::Request*> on_heap;
  p2p::Request** rs = on_stack;
  if (count > kOnStack) {
    on_heap.resize(static_cast<std::size_t>(count));
    rs = on_heap.data();
  }
  if (int e = api::check_requests(call, count, array_of_requests, rs)) return e;
  Call::note_requests(core::Runtime::CallArgs::Kind::all_of, reinterpret_cast<const void* const*>(rs), count);
  for (int i = 0; i < count; ++i) {
    p2p::Request* r = rs[i];
    if (!r) {
      if (array_of_statuses != MPI_STATUSES_IGNORE) p2p::empty_status(&array_of_statuses[i]);
      continue;
    }
    if (r->complete) continue;  // p2p::wait's first look
    if (r->kind == p2p::Kind::ext && r->persistent) api::spin_persistent(r);
    p2p::wait(r);
  }
  return api::finish_many(call, array_of_requests, rs, nullptr, static_cast<std::size_t>(count > 0 ? count : 0),
                          array_of_statuses, false);
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
  return api::finish_many(call, array_of_requests, rs.data(), which.data(), which.size(), array_of_statuses, true);
}

}  // extern "C"
