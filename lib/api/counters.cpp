// MPIX_Query_counter: the internal path counters of core/counters.hpp.
#include <string>

#include "api/call.hpp"
#include "core/counters.hpp"
#include "core/runtime.hpp"

using namespace ringmpi;
using api::Call;

extern "C" int MPIX_Query_counter(const char* name, MPI_Count* value) {
  Call call("MPIX_Query_counter");
  if (!name) return call.fail(MPI_ERR_ARG, "argument name is NULL");
  if (!value) return call.fail(MPI_ERR_ARG, "argument value is NULL");
  const int i = core::counter_index(name);
  if (i < 0) {
    std::string names;
    for (std::string_view n : core::kCounterNames) names += (names.empty() ? "" : ", ") + std::string(n);
    return call.fail(MPI_ERR_ARG, "argument name=\"%s\" is not a counter (%s)", name, names.c_str());
  }
  *value = static_cast<MPI_Count>(core::counter_value(i));
  return MPI_SUCCESS;
}
