// Datatype constructors (MPI-3.1 §4.1.2-4.1.7): argument checks, then lib/dtype/construct.
#include <climits>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "api/datatype_check.hpp"
#include "dtype/construct.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// The checks every constructor starts with.
int common(Call& call, MPI_Datatype old, dtype::TypePtr* t, MPI_Datatype* newtype) {
  if (int e = call.initialized()) return e;
  if (int e = api::any_datatype(call, old, "oldtype", t)) return e;
  return call.not_null(newtype, "newtype");
}

int blocklength(Call& call, int bl) {
  if (bl < 0) return call.fail(MPI_ERR_ARG, "argument blocklength=%d is negative", bl);
  return MPI_SUCCESS;
}

// MPI_Type_indexed and MPI_Type_create_hindexed: the same checks, the
// displacements in elements (int) or in bytes (MPI_Aint).
template <class Disp, class Make>
int indexed(const char* name, int count, const int* blocklengths, const Disp* displacements, MPI_Datatype oldtype,
            MPI_Datatype* newtype, Make make) {
  Call call(name);
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = api::array(call, blocklengths, count, "array_of_blocklengths")) return e;
  if (int e = api::array(call, displacements, count, "array_of_displacements")) return e;
  if (int e = api::nonnegative_entries(call, blocklengths, count, "array_of_blocklengths")) return e;
  std::string why;
  return api::publish(call, make(count, blocklengths, displacements, old, &why), why, newtype);
}

// Their one-blocklength variants (MPI_Type_create_(h)indexed_block).
template <class Disp, class Make>
int indexed_block(const char* name, int count, int bl, const Disp* displacements, MPI_Datatype oldtype,
                  MPI_Datatype* newtype, Make make) {
  Call call(name);
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = blocklength(call, bl)) return e;
  if (int e = api::array(call, displacements, count, "array_of_displacements")) return e;
  std::string why;
  return api::publish(call, make(count, bl, displacements, old, &why), why, newtype);
}

// I: int, or MPI_Count for MPI_Type_create_subarray_c with a value that does not fit an int.
template <class I>
int subarray(Call& call, int ndims, const I array_of_sizes[], const I array_of_subsizes[], const I array_of_starts[],
             int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (ndims <= 0) return call.fail(MPI_ERR_ARG, "argument ndims=%d must be at least 1", ndims);
  if (int e = api::array(call, array_of_sizes, ndims, "array_of_sizes")) return e;
  if (int e = api::array(call, array_of_subsizes, ndims, "array_of_subsizes")) return e;
  if (int e = api::array(call, array_of_starts, ndims, "array_of_starts")) return e;
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return call.fail(MPI_ERR_ARG, "argument order=%d is neither MPI_ORDER_C (%d) nor MPI_ORDER_FORTRAN (%d)", order,
                     MPI_ORDER_C, MPI_ORDER_FORTRAN);
  for (int i = 0; i < ndims; ++i) {
    const long long n = array_of_sizes[i], sub = array_of_subsizes[i], start = array_of_starts[i];
    if (n <= 0) return call.fail(MPI_ERR_ARG, "argument array_of_sizes[%d]=%lld must be at least 1", i, n);
    if (sub <= 0 || sub > n)
      return call.fail(MPI_ERR_ARG, "argument array_of_subsizes[%d]=%lld is outside 1..array_of_sizes[%d]=%lld", i,
                       sub, i, n);
    if (start < 0 || start > n - sub)
      return call.fail(MPI_ERR_ARG,
                       "argument array_of_starts[%d]=%lld is outside 0..%lld (array_of_sizes[%d]=%lld minus "
                       "array_of_subsizes[%d]=%lld)",
                       i, start, n - sub, i, n, i, sub);
  }
  std::string why;
  dtype::TypePtr t;
  if constexpr (std::is_same_v<I, int>)
    t = dtype::make_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, old, &why);
  else
    t = dtype::make_subarray_c(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

template <class I>
int darray(Call& call, int size, int rank, int ndims, const I array_of_gsizes[], const int array_of_distribs[],
           const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
           MPI_Datatype* newtype) {
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (size <= 0) return call.fail(MPI_ERR_ARG, "argument size=%d must be at least 1", size);
  if (rank < 0 || rank >= size)
    return call.fail(MPI_ERR_ARG, "argument rank=%d is outside 0..size-1=%d", rank, size - 1);
  if (ndims <= 0) return call.fail(MPI_ERR_ARG, "argument ndims=%d must be at least 1", ndims);
  if (int e = api::array(call, array_of_gsizes, ndims, "array_of_gsizes")) return e;
  if (int e = api::array(call, array_of_distribs, ndims, "array_of_distribs")) return e;
  if (int e = api::array(call, array_of_dargs, ndims, "array_of_dargs")) return e;
  if (int e = api::array(call, array_of_psizes, ndims, "array_of_psizes")) return e;
  if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
    return call.fail(MPI_ERR_ARG, "argument order=%d is neither MPI_ORDER_C (%d) nor MPI_ORDER_FORTRAN (%d)", order,
                     MPI_ORDER_C, MPI_ORDER_FORTRAN);
  long long procs = 1;
  for (int i = 0; i < ndims; ++i) {
    const long long g = array_of_gsizes[i];
    const int d = array_of_distribs[i], a = array_of_dargs[i], p = array_of_psizes[i];
    if (g <= 0) return call.fail(MPI_ERR_ARG, "argument array_of_gsizes[%d]=%lld must be at least 1", i, g);
    if (p <= 0) return call.fail(MPI_ERR_ARG, "argument array_of_psizes[%d]=%d must be at least 1", i, p);
    if (d != MPI_DISTRIBUTE_BLOCK && d != MPI_DISTRIBUTE_CYCLIC && d != MPI_DISTRIBUTE_NONE)
      return call.fail(MPI_ERR_ARG,
                       "argument array_of_distribs[%d]=%d is not MPI_DISTRIBUTE_BLOCK (%d), MPI_DISTRIBUTE_CYCLIC "
                       "(%d) or MPI_DISTRIBUTE_NONE (%d)",
                       i, d, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE);
    if (a != MPI_DISTRIBUTE_DFLT_DARG && a <= 0)
      return call.fail(MPI_ERR_ARG,
                       "argument array_of_dargs[%d]=%d must be positive or MPI_DISTRIBUTE_DFLT_DARG", i, a);
    if (d == MPI_DISTRIBUTE_NONE && p != 1)
      return call.fail(MPI_ERR_ARG,
                       "argument array_of_psizes[%d]=%d must be 1: dimension %d is MPI_DISTRIBUTE_NONE (not "
                       "distributed)",
                       i, p, i);
    if (d == MPI_DISTRIBUTE_BLOCK && a != MPI_DISTRIBUTE_DFLT_DARG && static_cast<long long>(a) * p < g)
      return call.fail(MPI_ERR_ARG,
                       "argument array_of_dargs[%d]=%d is too small for MPI_DISTRIBUTE_BLOCK: %d blocks of %d "
                       "elements (array_of_psizes[%d]) cover %lld of the %lld elements of array_of_gsizes[%d]",
                       i, a, p, a, i, static_cast<long long>(a) * p, g, i);
    procs *= p;
    if (procs > size)
      break;  // reported below; stops the product before it could overflow
  }
  if (procs != size)
    return call.fail(MPI_ERR_ARG,
                     "argument array_of_psizes: the process grid has %s%lld processes but argument size=%d",
                     procs > size ? "more than " : "", procs, size);
  std::string why;
  dtype::TypePtr t;
  if constexpr (std::is_same_v<I, int>)
    t = dtype::make_darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                           order, old, &why);
  else
    t = dtype::make_darray_c(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                             order, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}


// ---- the large-count constructors (MPI-4.1 MPI_Type_*_c) ----
// Values that all fit an int build the very type the int form builds (and
// decode with either get_contents); otherwise the dtype::make_*_c form.

bool fits(MPI_Count v) { return v >= INT_MIN && v <= INT_MAX; }
bool fit(const MPI_Count* a, MPI_Count n) {
  for (MPI_Count i = 0; i < n; ++i)
    if (!fits(a[i])) return false;
  return true;
}
std::vector<int> ints_of(const MPI_Count* a, MPI_Count n) { return std::vector<int>(a, a + n); }
std::vector<MPI_Aint> aints_of(const MPI_Count* a, MPI_Count n) { return std::vector<MPI_Aint>(a, a + n); }

int count_c(Call& call, MPI_Count n, const char* arg) {
  if (n < 0) return call.fail(MPI_ERR_COUNT, "argument %s=%lld is negative", arg, n);
  return MPI_SUCCESS;
}
int blocklength_c(Call& call, MPI_Count bl) {
  if (bl < 0) return call.fail(MPI_ERR_ARG, "argument blocklength=%lld is negative", bl);
  return MPI_SUCCESS;
}
// Arrays of n (MPI_Count) entries: non-null; block lengths non-negative.
int array_c(Call& call, const void* a, MPI_Count n, const char* arg) {
  if (n > 0 && a == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", arg);
  return MPI_SUCCESS;
}
int blocklengths_c(Call& call, const MPI_Count* a, MPI_Count n) {
  if (int e = array_c(call, a, n, "array_of_blocklengths")) return e;
  for (MPI_Count i = 0; i < n; ++i)
    if (a[i] < 0)
      return call.fail(MPI_ERR_ARG, "argument array_of_blocklengths[%lld]=%lld is negative", i, a[i]);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_contiguous");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = call.count(count, "count")) return e;
  std::string why;
  return api::publish(call, dtype::make_contiguous(count, old, &why), why, newtype);
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_vector");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = ::blocklength(call, blocklength)) return e;
  std::string why;
  return api::publish(call, dtype::make_vector(count, blocklength, stride, old, &why), why, newtype);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
  Call call("MPI_Type_create_hvector");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = ::blocklength(call, blocklength)) return e;
  std::string why;
  return api::publish(call, dtype::make_hvector(count, blocklength, stride, old, &why), why, newtype);
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                     MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_indexed", count, array_of_blocklengths, array_of_displacements, oldtype, newtype,
                 dtype::make_indexed);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed("MPI_Type_create_hindexed", count, array_of_blocklengths, array_of_displacements, oldtype, newtype,
                 dtype::make_hindexed);
}

int MPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                  MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_indexed_block", count, blocklength, array_of_displacements, oldtype, newtype,
                       dtype::make_indexed_block);
}

int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return indexed_block("MPI_Type_create_hindexed_block", count, blocklength, array_of_displacements, oldtype,
                       newtype, dtype::make_hindexed_block);
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  Call call("MPI_Type_create_struct");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(newtype, "newtype")) return e;
  if (int e = call.count(count, "count")) return e;
  if (int e = api::array(call, array_of_blocklengths, count, "array_of_blocklengths")) return e;
  if (int e = api::array(call, array_of_displacements, count, "array_of_displacements")) return e;
  if (int e = api::array(call, array_of_types, count, "array_of_types")) return e;
  if (int e = api::nonnegative_entries(call, array_of_blocklengths, count, "array_of_blocklengths")) return e;
  std::vector<dtype::TypePtr> types(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    char arg[48];
    std::snprintf(arg, sizeof arg, "array_of_types[%d]", i);
    if (int e = api::any_datatype(call, array_of_types[i], arg, &types[static_cast<std::size_t>(i)])) return e;
  }
  std::string why;
  return api::publish(
      call, dtype::make_struct(count, array_of_blocklengths, array_of_displacements, types.data(), &why), why,
      newtype);
}

int MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                             const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_subarray");
  return subarray(call, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, newtype);
}

int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                           const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                           MPI_Datatype* newtype) {
  Call call("MPI_Type_create_darray");
  return darray(call, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes, order,
                oldtype, newtype);
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_resized");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  std::string why;
  return api::publish(call, dtype::make_resized(old, lb, extent, &why), why, newtype);
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_dup");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  dtype::TypePtr t = dtype::make_dup(old);
  dtype::Datatype& d = *t;
  MPI_Datatype h;
  if (int e = api::publish(call, std::move(t), "", &h)) return e;
  if (int e = core::copy_attributes(core::AttrObject::datatype, oldtype, old->attrs, d.attrs)) {
    core::delete_attributes(core::AttrObject::datatype, h, d.attrs);
    dtype::release_handle(h);
    return call.fail(e, "an attribute copy callback of the old datatype returned error code %d", e);
  }
  *newtype = h;
  return MPI_SUCCESS;
}

int MPI_Type_commit(MPI_Datatype* datatype) {
  Call call("MPI_Type_commit");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(datatype, "datatype")) return e;
  dtype::TypePtr t;
  if (int e = api::any_datatype(call, *datatype, "datatype", &t)) return e;
  dtype::commit(*t);
  return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype* datatype) {
  Call call("MPI_Type_free");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(datatype, "datatype")) return e;
  dtype::TypePtr t;
  if (int e = api::any_datatype(call, *datatype, "datatype", &t)) return e;
  if (t->predefined) return call.fail(MPI_ERR_TYPE, "argument datatype is %s, a predefined datatype, which cannot be freed",
                                       dtype::describe(*datatype).c_str());
  // Attributes belong to the object; handles from MPI_Type_get_contents share it.
  if (t->handle_refs == 1)
    if (int e = core::delete_attributes(core::AttrObject::datatype, *datatype, t->attrs))
      return call.fail(e, "an attribute delete callback returned error code %d; the datatype was not freed", e);
  dtype::release_handle(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_contiguous_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  std::string why;
  dtype::TypePtr t = fits(count) ? dtype::make_contiguous(int(count), old, &why)
                                 : dtype::make_contiguous_c(count, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  Call call("MPI_Type_vector_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklength_c(call, blocklength)) return e;
  std::string why;
  dtype::TypePtr t = fits(count) && fits(blocklength) && fits(stride)
                         ? dtype::make_vector(int(count), int(blocklength), int(stride), old, &why)
                         : dtype::make_vector_c(count, blocklength, stride, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                              MPI_Datatype* newtype) {
  Call call("MPI_Type_create_hvector_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklength_c(call, blocklength)) return e;
  std::string why;
  dtype::TypePtr t = fits(count) && fits(blocklength)
                         ? dtype::make_hvector(int(count), int(blocklength), MPI_Aint(stride), old, &why)
                         : dtype::make_hvector_c(count, blocklength, stride, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                       const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_indexed_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklengths_c(call, array_of_blocklengths, count)) return e;
  if (int e = array_c(call, array_of_displacements, count, "array_of_displacements")) return e;
  std::string why;
  dtype::TypePtr t;
  if (fits(count) && fit(array_of_blocklengths, count) && fit(array_of_displacements, count))
    t = dtype::make_indexed(int(count), ints_of(array_of_blocklengths, count).data(),
                            ints_of(array_of_displacements, count).data(), old, &why);
  else
    t = dtype::make_indexed_c(count, array_of_blocklengths, array_of_displacements, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
  Call call("MPI_Type_create_hindexed_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklengths_c(call, array_of_blocklengths, count)) return e;
  if (int e = array_c(call, array_of_displacements, count, "array_of_displacements")) return e;
  std::string why;
  dtype::TypePtr t;
  if (fits(count) && fit(array_of_blocklengths, count))
    t = dtype::make_hindexed(int(count), ints_of(array_of_blocklengths, count).data(),
                             aints_of(array_of_displacements, count).data(), old, &why);
  else
    t = dtype::make_hindexed_c(count, array_of_blocklengths, array_of_displacements, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_indexed_block_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklength_c(call, blocklength)) return e;
  if (int e = array_c(call, array_of_displacements, count, "array_of_displacements")) return e;
  std::string why;
  dtype::TypePtr t;
  if (fits(count) && fits(blocklength) && fit(array_of_displacements, count))
    t = dtype::make_indexed_block(int(count), int(blocklength), ints_of(array_of_displacements, count).data(), old,
                                  &why);
  else
    t = dtype::make_indexed_block_c(count, blocklength, array_of_displacements, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype* newtype) {
  Call call("MPI_Type_create_hindexed_block_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklength_c(call, blocklength)) return e;
  if (int e = array_c(call, array_of_displacements, count, "array_of_displacements")) return e;
  std::string why;
  dtype::TypePtr t;
  if (fits(count) && fits(blocklength))
    t = dtype::make_hindexed_block(int(count), int(blocklength), aints_of(array_of_displacements, count).data(), old,
                                   &why);
  else
    t = dtype::make_hindexed_block_c(count, blocklength, array_of_displacements, old, &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                             const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                             MPI_Datatype* newtype) {
  Call call("MPI_Type_create_struct_c");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(newtype, "newtype")) return e;
  if (int e = count_c(call, count, "count")) return e;
  if (int e = blocklengths_c(call, array_of_blocklengths, count)) return e;
  if (int e = array_c(call, array_of_displacements, count, "array_of_displacements")) return e;
  if (int e = array_c(call, array_of_types, count, "array_of_types")) return e;
  std::vector<dtype::TypePtr> types(static_cast<std::size_t>(count));
  for (MPI_Count i = 0; i < count; ++i) {
    char arg[48];
    std::snprintf(arg, sizeof arg, "array_of_types[%lld]", i);
    if (int e = api::any_datatype(call, array_of_types[i], arg, &types[static_cast<std::size_t>(i)])) return e;
  }
  std::string why;
  dtype::TypePtr t;
  if (fits(count) && fit(array_of_blocklengths, count))
    t = dtype::make_struct(int(count), ints_of(array_of_blocklengths, count).data(),
                           aints_of(array_of_displacements, count).data(), types.data(), &why);
  else
    t = dtype::make_struct_c(count, array_of_blocklengths, array_of_displacements, types.data(), &why);
  return api::publish(call, std::move(t), why, newtype);
}

int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                               const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
  Call call("MPI_Type_create_subarray_c");
  if (ndims > 0 && array_of_sizes && array_of_subsizes && array_of_starts && fit(array_of_sizes, ndims) &&
      fit(array_of_subsizes, ndims) && fit(array_of_starts, ndims))
    return subarray(call, ndims, ints_of(array_of_sizes, ndims).data(), ints_of(array_of_subsizes, ndims).data(),
                    ints_of(array_of_starts, ndims).data(), order, oldtype, newtype);
  return subarray(call, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, newtype);
}

int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                             const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                             int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_darray_c");
  if (ndims > 0 && array_of_gsizes && fit(array_of_gsizes, ndims))
    return darray(call, size, rank, ndims, ints_of(array_of_gsizes, ndims).data(), array_of_distribs, array_of_dargs,
                  array_of_psizes, order, oldtype, newtype);
  return darray(call, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes, order,
                oldtype, newtype);
}

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_resized_c");
  dtype::TypePtr old;
  if (int e = common(call, oldtype, &old, newtype)) return e;
  std::string why;
  // MPI_Aint holds any MPI_Count here (both 64 bits): the int form's type.
  return api::publish(call, dtype::make_resized(old, MPI_Aint(lb), MPI_Aint(extent), &why), why, newtype);
}

}  // extern "C"
