#include "api/datatype_check.hpp"

namespace ringmpi::api {

int any_datatype(Call& call, MPI_Datatype h, const char* arg, dtype::TypePtr* out) {
  if (h == MPI_DATATYPE_NULL) return call.fail(MPI_ERR_TYPE, "argument %s is MPI_DATATYPE_NULL", arg);
  dtype::TypePtr t = dtype::lookup_shared(h);
  if (!t)
    return call.fail(MPI_ERR_TYPE, "argument %s=0x%x is not a valid datatype (freed, or not a datatype handle)", arg,
                     static_cast<unsigned>(h));
  *out = std::move(t);
  return MPI_SUCCESS;
}

int nonnegative_entries(Call& call, const int* a, int n, const char* arg) {
  for (int i = 0; i < n; ++i)
    if (a[i] < 0) return call.fail(MPI_ERR_ARG, "argument %s[%d]=%d is negative", arg, i, a[i]);
  return MPI_SUCCESS;
}

int array(Call& call, const void* a, int n, const char* arg) {
  if (a == nullptr && n > 0) return call.fail(MPI_ERR_ARG, "argument %s is NULL but count=%d", arg, n);
  return MPI_SUCCESS;
}

int publish(Call& call, dtype::TypePtr t, const std::string& why, MPI_Datatype* newtype) {
  if (!t) return call.fail(MPI_ERR_ARG, "cannot build this datatype: %s", why.c_str());
  const MPI_Datatype h = dtype::new_handle(std::move(t));
  if (h == MPI_DATATYPE_NULL)
    return call.fail(MPI_ERR_OTHER, "all datatype handles are in use (2^20); free datatypes no longer needed");
  *newtype = h;
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api
