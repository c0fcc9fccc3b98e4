// MPI_Get_elements(_x) and MPI_Status_set_elements(_x): basic elements of a
// status's byte count (status->rmpi_count) under a datatype's signature.
#include <climits>

#include "api/datatype_check.hpp"
#include "dtype/elements.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int status_and_type(Call& call, const MPI_Status* status, MPI_Datatype h, dtype::TypePtr* t) {
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(status, "status")) return e;
  if (status == MPI_STATUS_IGNORE)
    return call.fail(MPI_ERR_ARG, "argument status is MPI_STATUS_IGNORE, which holds no count");
  return api::any_datatype(call, h, "datatype", t);
}

// MPI_UNDEFINED when the bytes end inside a basic element (§4.1.11).
MPI_Count elements(const MPI_Status* status, const dtype::Datatype& t) {
  const MPI_Count n = dtype::elements_in(t, status->rmpi_count);
  return n < 0 ? MPI_UNDEFINED : n;
}

}  // namespace

extern "C" {

int MPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
  Call call("MPI_Get_elements");
  dtype::TypePtr t;
  if (int e = status_and_type(call, status, datatype, &t)) return e;
  if (int e = call.not_null(count, "count")) return e;
  const MPI_Count n = elements(status, *t);
  *count = n > INT_MAX ? MPI_UNDEFINED : static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  Call call("MPI_Get_elements_x");
  dtype::TypePtr t;
  if (int e = status_and_type(call, status, datatype, &t)) return e;
  if (int e = call.not_null(count, "count")) return e;
  *count = elements(status, *t);
  return MPI_SUCCESS;
}

int MPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count) {
  Call call("MPI_Get_elements_c");
  dtype::TypePtr t;
  if (int e = status_and_type(call, status, datatype, &t)) return e;
  if (int e = call.not_null(count, "count")) return e;
  *count = elements(status, *t);
  return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  Call call("MPI_Status_set_elements");
  dtype::TypePtr t;
  if (int e = status_and_type(call, status, datatype, &t)) return e;
  if (int e = call.count(count, "count")) return e;
  const MPI_Count bytes = dtype::bytes_of_elements(*t, count);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "argument count=%d, but datatype %s has no basic elements", count,
                     dtype::describe(datatype).c_str());
  status->rmpi_count = bytes;
  return MPI_SUCCESS;
}

namespace {
int set_elements(Call& call, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  dtype::TypePtr t;
  if (int e = status_and_type(call, status, datatype, &t)) return e;
  if (count < 0) return call.fail(MPI_ERR_COUNT, "argument count=%lld is negative", static_cast<long long>(count));
  const MPI_Count bytes = dtype::bytes_of_elements(*t, count);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "argument count=%lld, but datatype %s has no basic elements",
                     static_cast<long long>(count), dtype::describe(datatype).c_str());
  status->rmpi_count = bytes;
  return MPI_SUCCESS;
}
}  // namespace

int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  Call call("MPI_Status_set_elements_x");
  return set_elements(call, status, datatype, count);
}

// MPI-4.0's large-count form of MPI_Status_set_elements: the same as the _x one.
int MPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  Call call("MPI_Status_set_elements_c");
  return set_elements(call, status, datatype, count);
}

}  // extern "C"
