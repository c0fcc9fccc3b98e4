#include "api/large_count.hpp"

#include <string>

#include "dtype/construct.hpp"
#include "dtype/op.hpp"

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

int large_reduction(Call& call, MPI_Count count, MPI_Datatype datatype, MPI_Op op, const char* count_arg,
                    const char* form, Counted* n) {
  if (count > INT_MAX) {
    const dtype::Op* o = dtype::lookup_op(op);
    if (!o || o->user())
      return call.fail(MPI_ERR_UNSUPPORTED_OPERATION,
                       "%s=%lld: a %s reduction of more than INT_MAX elements with a user-defined op is not "
                       "supported (the blocking form is; docs/guide/large-counts.md)",
                       count_arg, static_cast<long long>(count), form);
  }
  return n->set(call, count, datatype, count_arg, "datatype");
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
