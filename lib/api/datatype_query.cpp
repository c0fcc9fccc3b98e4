// Datatype queries: extents, sizes, addresses, envelope/contents, names,
// Fortran handle conversion.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

#include "api/datatype_check.hpp"
#include "api/large_count.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int queried(Call& call, MPI_Datatype h, dtype::TypePtr* t) {
  if (int e = call.initialized()) return e;
  return api::any_datatype(call, h, "datatype", t);
}

// Counts reported by MPI_Type_get_envelope for a derived type.
struct Counts {
  int ints, addrs, types;
};
Counts counts(const dtype::Datatype& t) {
  return {static_cast<int>(t.env.ints.size()), static_cast<int>(t.env.addrs.size()),
          static_cast<int>(t.env.types.size())};
}

// A type made by a large-count constructor with a value that does not fit
// an int can be decoded only by the _c forms (MPI-4.1 §5.1.13).
int int_decodable(Call& call, const dtype::Datatype& t, MPI_Datatype h) {
  if (t.env.counts.empty()) return MPI_SUCCESS;
  return call.fail(MPI_ERR_VALUE_TOO_LARGE,
                   "datatype %s was made by a large-count constructor with values that do not fit an int; decode "
                   "it with MPI_Type_get_envelope_c and MPI_Type_get_contents_c",
                   dtype::describe(h).c_str());
}

}  // namespace

extern "C" {

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
  Call call("MPI_Type_get_extent");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(lb, "lb")) return e;
  if (int e = call.not_null(extent, "extent")) return e;
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  Call call("MPI_Type_get_extent_x");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(lb, "lb")) return e;
  if (int e = call.not_null(extent, "extent")) return e;
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent) {
  Call call("MPI_Type_get_true_extent");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(true_lb, "true_lb")) return e;
  if (int e = call.not_null(true_extent, "true_extent")) return e;
  *true_lb = t->true_lb;
  *true_extent = t->true_extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  Call call("MPI_Type_get_true_extent_x");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(true_lb, "true_lb")) return e;
  if (int e = call.not_null(true_extent, "true_extent")) return e;
  *true_lb = t->true_lb;
  *true_extent = t->true_extent;
  return MPI_SUCCESS;
}

int MPI_Type_size(MPI_Datatype datatype, int* size) {
  Call call("MPI_Type_size");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = t->size > std::size_t(INT_MAX) ? MPI_UNDEFINED : static_cast<int>(t->size);
  return MPI_SUCCESS;
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
  Call call("MPI_Type_size_x");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

// Address arithmetic needs no MPI state, so these work before MPI_Init too.
int MPI_Get_address(const void* location, MPI_Aint* address) {
  Call call("MPI_Get_address");
  if (int e = call.not_null(address, "address")) return e;
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(disp));
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return static_cast<MPI_Aint>(static_cast<std::uintptr_t>(addr1) - static_cast<std::uintptr_t>(addr2));
}

int MPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                          int* combiner) {
  Call call("MPI_Type_get_envelope");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(num_integers, "num_integers")) return e;
  if (int e = call.not_null(num_addresses, "num_addresses")) return e;
  if (int e = call.not_null(num_datatypes, "num_datatypes")) return e;
  if (int e = call.not_null(combiner, "combiner")) return e;
  if (int e = int_decodable(call, *t, datatype)) return e;
  const Counts n = counts(*t);
  *num_integers = n.ints;
  *num_addresses = n.addrs;
  *num_datatypes = n.types;
  *combiner = t->env.combiner;
  return MPI_SUCCESS;
}

int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                          int array_of_integers[], MPI_Aint array_of_addresses[],
                          MPI_Datatype array_of_datatypes[]) {
  Call call("MPI_Type_get_contents");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (t->env.combiner == MPI_COMBINER_NAMED)
    return call.fail(MPI_ERR_TYPE,
                     "argument datatype is %s, a predefined (named) datatype; MPI_Type_get_contents is only for "
                     "derived datatypes (check MPI_Type_get_envelope's combiner first)",
                     dtype::describe(datatype).c_str());
  if (int e = int_decodable(call, *t, datatype)) return e;
  const Counts n = counts(*t);
  if (max_integers < n.ints)
    return call.fail(MPI_ERR_ARG, "argument max_integers=%d is less than the %d integers of this datatype",
                     max_integers, n.ints);
  if (max_addresses < n.addrs)
    return call.fail(MPI_ERR_ARG, "argument max_addresses=%d is less than the %d addresses of this datatype",
                     max_addresses, n.addrs);
  if (max_datatypes < n.types)
    return call.fail(MPI_ERR_ARG, "argument max_datatypes=%d is less than the %d datatypes of this datatype",
                     max_datatypes, n.types);
  if (int e = api::array(call, array_of_integers, n.ints, "array_of_integers")) return e;
  if (int e = api::array(call, array_of_addresses, n.addrs, "array_of_addresses")) return e;
  if (int e = api::array(call, array_of_datatypes, n.types, "array_of_datatypes")) return e;
  std::copy(t->env.ints.begin(), t->env.ints.end(), array_of_integers);
  std::copy(t->env.addrs.begin(), t->env.addrs.end(), array_of_addresses);
  // Predefined types come back as themselves; derived ones as new handles to
  // the same type, which the caller frees (§4.1.13).
  for (int i = 0; i < n.types; ++i) {
    const dtype::TypePtr& c = t->env.types[static_cast<std::size_t>(i)];
    MPI_Datatype h = c->predefined ? c->handle : dtype::new_handle(c);
    if (h == MPI_DATATYPE_NULL) {
      for (int j = 0; j < i; ++j)
        if (!t->env.types[static_cast<std::size_t>(j)]->predefined) dtype::release_handle(array_of_datatypes[j]);
      return call.fail(MPI_ERR_OTHER, "all datatype handles are in use (2^20); free datatypes no longer needed");
    }
    array_of_datatypes[i] = h;
  }
  return MPI_SUCCESS;
}

int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
  Call call("MPI_Type_get_extent_c");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(lb, "lb")) return e;
  if (int e = call.not_null(extent, "extent")) return e;
  *lb = t->lb;
  *extent = t->extent;
  return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent) {
  Call call("MPI_Type_get_true_extent_c");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(true_lb, "true_lb")) return e;
  if (int e = call.not_null(true_extent, "true_extent")) return e;
  *true_lb = t->true_lb;
  *true_extent = t->true_extent;
  return MPI_SUCCESS;
}

int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size) {
  Call call("MPI_Type_size_c");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = static_cast<MPI_Count>(t->size);
  return MPI_SUCCESS;
}

int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers, MPI_Count* num_addresses,
                            MPI_Count* num_large_counts, MPI_Count* num_datatypes, int* combiner) {
  Call call("MPI_Type_get_envelope_c");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(num_integers, "num_integers")) return e;
  if (int e = call.not_null(num_addresses, "num_addresses")) return e;
  if (int e = call.not_null(num_large_counts, "num_large_counts")) return e;
  if (int e = call.not_null(num_datatypes, "num_datatypes")) return e;
  if (int e = call.not_null(combiner, "combiner")) return e;
  *num_integers = static_cast<MPI_Count>(t->env.ints.size());
  *num_addresses = static_cast<MPI_Count>(t->env.addrs.size());
  *num_large_counts = static_cast<MPI_Count>(t->env.counts.size());
  *num_datatypes = static_cast<MPI_Count>(t->env.types.size());
  *combiner = t->env.combiner;
  return MPI_SUCCESS;
}

int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                            MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                            MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                            MPI_Datatype array_of_datatypes[]) {
  Call call("MPI_Type_get_contents_c");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (t->env.combiner == MPI_COMBINER_NAMED)
    return call.fail(MPI_ERR_TYPE,
                     "argument datatype is %s, a predefined (named) datatype; MPI_Type_get_contents_c is only for "
                     "derived datatypes (check MPI_Type_get_envelope_c's combiner first)",
                     dtype::describe(datatype).c_str());
  const dtype::Envelope& env = t->env;
  const struct {
    MPI_Count max;
    std::size_t have;
    const char* what;
    const void* array;
  } limits[] = {{max_integers, env.ints.size(), "integers", array_of_integers},
                {max_addresses, env.addrs.size(), "addresses", array_of_addresses},
                {max_large_counts, env.counts.size(), "large_counts", array_of_large_counts},
                {max_datatypes, env.types.size(), "datatypes", array_of_datatypes}};
  for (const auto& l : limits) {
    if (l.max < static_cast<MPI_Count>(l.have))
      return call.fail(MPI_ERR_ARG, "argument max_%s=%lld is less than the %zu %s of this datatype", l.what, l.max,
                       l.have, l.what);
    if (l.have > 0 && l.array == nullptr) return call.fail(MPI_ERR_ARG, "argument array_of_%s is NULL", l.what);
  }
  std::copy(env.ints.begin(), env.ints.end(), array_of_integers);
  std::copy(env.addrs.begin(), env.addrs.end(), array_of_addresses);
  std::copy(env.counts.begin(), env.counts.end(), array_of_large_counts);
  for (std::size_t i = 0; i < env.types.size(); ++i) {
    const dtype::TypePtr& c = env.types[i];
    MPI_Datatype h = c->predefined ? c->handle : dtype::new_handle(c);
    if (h == MPI_DATATYPE_NULL) {
      for (std::size_t j = 0; j < i; ++j)
        if (!env.types[j]->predefined) dtype::release_handle(array_of_datatypes[j]);
      return call.fail(MPI_ERR_OTHER, "all datatype handles are in use (2^20); free datatypes no longer needed");
    }
    array_of_datatypes[i] = h;
  }
  return MPI_SUCCESS;
}

int MPI_Type_set_name(MPI_Datatype datatype, const char* type_name) {
  Call call("MPI_Type_set_name");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  if (int e = call.not_null(type_name, "type_name")) return e;
  // Longer names are truncated to what MPI_Type_get_name can return.
  t->name.assign(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int MPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
  Call call("MPI_Type_get_name");
  if (int e = call.not_null(type_name, "type_name")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  // MPI-4.1 (annex B.1.2, item 18): the null handle is a valid argument and its name is its own.
  if (datatype == MPI_DATATYPE_NULL) return api::null_name(type_name, resultlen, "MPI_DATATYPE_NULL");
  dtype::TypePtr t;
  if (int e = queried(call, datatype, &t)) return e;
  std::memcpy(type_name, t->name.c_str(), t->name.size() + 1);
  *resultlen = static_cast<int>(t->name.size());
  return MPI_SUCCESS;
}

// Fortran handles are the C handles: both are the same ints.
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) { return static_cast<MPI_Fint>(datatype); }
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) { return static_cast<MPI_Datatype>(datatype); }

}  // extern "C"
