// MPIX_Query_counter: the internal path counters of core/counters.hpp, and
// the calls each collective algorithm ran (coll/select.hpp).
#include <string>

#include "api/call.hpp"
#include "coll/select.hpp"
#include "core/counters.hpp"
#include "core/runtime.hpp"

using namespace ringmpi;
using api::Call;

extern "C" int MPIX_Query_counter(const char* name, MPI_Count* value) {
  Call call("MPIX_Query_counter");
  if (!name) return call.fail(MPI_ERR_ARG, "argument name is NULL");
  if (!value) return call.fail(MPI_ERR_ARG, "argument value is NULL");
  // "coll_<family>_<algorithm>": the calls of that row this process ran
  // (coll/select.hpp; the performance variables of that name count per communicator).
  for (const coll::Row* r = coll::rows_begin(); r != coll::rows_end(); ++r)
    if (std::string("coll_") + coll::family_name(r->family) + "_" + coll::algo_name(r->algo) == name) {
      *value = static_cast<MPI_Count>(coll::total_calls(r->family, r->algo));
      return MPI_SUCCESS;
    }
  const int i = core::counter_index(name);
  if (i < 0) {
    std::string names;
    for (std::string_view n : core::kCounterNames) names += (names.empty() ? "" : ", ") + std::string(n);
    names += ", coll_<family>_<algorithm>";
    return call.fail(MPI_ERR_ARG, "argument name=\"%s\" is not a counter (%s)", name, names.c_str());
  }
  *value = static_cast<MPI_Count>(core::counter_value(i));
  return MPI_SUCCESS;
}
