#include "api/large_count.hpp"

#include <string>

#include "dtype/construct.hpp"

namespace ringmpi::api {

Counted::~Counted() {
  if (temp_ != MPI_DATATYPE_NULL) dtype::release_handle(temp_);
}

int Counted::widen(Call& call, MPI_Count n, MPI_Datatype type, const char* count_arg, const char* type_arg) {
  if (n < 0) return call.fail(MPI_ERR_COUNT, "argument %s=%lld is negative", count_arg, n);
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(type, type_arg, &t)) return e;
  std::string why;
  dtype::TypePtr big = dtype::make_contiguous_c(n, dtype::lookup_shared(type), &why);
  if (!big)
    return call.fail(MPI_ERR_COUNT, "argument %s=%lld of %s: %s", count_arg, n, dtype::describe(type).c_str(),
                     why.c_str());
  dtype::commit(*big);
  temp_ = dtype::new_handle(std::move(big));
  if (temp_ == MPI_DATATYPE_NULL) return call.fail(MPI_ERR_INTERN, "no free datatype handle for %s", count_arg);
  count = 1;
  datatype = temp_;
  return MPI_SUCCESS;
}

TempType::~TempType() {
  for (MPI_Datatype h : handles_) dtype::release_handle(h);
}

MPI_Datatype TempType::adopt(dtype::TypePtr t) {
  dtype::commit(*t);
  const MPI_Datatype h = dtype::new_handle(std::move(t));
  if (h != MPI_DATATYPE_NULL) handles_.push_back(h);
  return h;
}

}  // namespace ringmpi::api
