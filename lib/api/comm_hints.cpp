// Communicator info hints (comm_hints.hpp) and the calls that set and read
// them. The assertions are honoured: a wildcard receive or probe on a
// communicator that asserted it never uses one fails (api/p2p_args.hpp).
// They do not make matching faster here: a receive matches in the posted and
// unexpected queues of its context whatever it asserts, since with one
// queue per context and source order kept, a wildcard costs no extra scan.
#include "api/comm_hints.hpp"

#include <algorithm>
#include <cctype>

#include "api/info_args.hpp"
#include "coll/idup.hpp"
#include "p2p/engine.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {
namespace {

// MPI's booleans (§10): "true" / "false", case-insensitive; anything else
// leaves the hint as it was (an unrecognised value is ignored).
void read_bool(const core::Info& in, const char* key, bool* out) {
  const std::string* v = in.find(key);
  if (!v) return;
  std::string lower = *v;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true") *out = true;
  if (lower == "false") *out = false;
}

}  // namespace

int hints_from_info(Call& call, MPI_Info info, const comm::Hints& base, comm::Hints* out) {
  *out = base;
  if (info == MPI_INFO_NULL) return MPI_SUCCESS;
  const core::Info* in = core::info_state().table.get(info);
  if (!in)
    return call.fail(MPI_ERR_INFO, "argument info=0x%x is not a valid info object (freed, or not an info handle)",
                     static_cast<unsigned>(info));
  read_bool(*in, "mpi_assert_no_any_tag", &out->no_any_tag);
  read_bool(*in, "mpi_assert_no_any_source", &out->no_any_source);
  read_bool(*in, "mpi_assert_exact_length", &out->exact_length);
  read_bool(*in, "mpi_assert_allow_overtaking", &out->allow_overtaking);
  return MPI_SUCCESS;
}

// Only the assertions in force: a communicator without any reports no key,
// as before MPI-4.0 (an assertion set to "false" is the default, no hint).
core::Info info_of_hints(const comm::Hints& h) {
  core::Info in;
  if (h.no_any_tag) in.set("mpi_assert_no_any_tag", "true");
  if (h.no_any_source) in.set("mpi_assert_no_any_source", "true");
  if (h.exact_length) in.set("mpi_assert_exact_length", "true");
  if (h.allow_overtaking) in.set("mpi_assert_allow_overtaking", "true");
  if (!h.hw_resource_type.empty()) in.set("mpi_hw_resource_type", h.hw_resource_type);
  return in;
}

}  // namespace ringmpi::api

extern "C" {

int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request) {
  Call call("MPI_Comm_idup_with_info");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  comm::Hints hints;
  if (int e = api::hints_from_info(call, info, comm::Hints{}, &hints)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = coll::idup(comm, *c, newcomm, request, &hints)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

}  // extern "C"
