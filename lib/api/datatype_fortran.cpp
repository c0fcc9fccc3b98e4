// MPI_Type_match_size and MPI_Type_create_f90_{integer,real,complex}
// (MPI-3.1 §17.1.9): argument checks, then lib/dtype/fortran.
#include <cstdio>

#include "api/call.hpp"
#include "dtype/fortran.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// p and r are precision and range as SELECTED_REAL_KIND takes them; either, not both, may be MPI_UNDEFINED.
int check_p_r(Call& call, int p, int r) {
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    return call.fail(MPI_ERR_ARG, "arguments p and r are both MPI_UNDEFINED; at most one of them may be");
  return MPI_SUCCESS;
}

int give(Call& call, int combiner, int p, int r, MPI_Datatype basic, MPI_Datatype* newtype) {
  const MPI_Datatype h = dtype::f90_type(combiner, p, r, basic);
  if (h == MPI_DATATYPE_NULL)
    return call.fail(MPI_ERR_OTHER, "all datatype handles are in use (2^20); free datatypes no longer needed");
  *newtype = h;
  return MPI_SUCCESS;
}

const char* describe_p_r(int v, char* buf, std::size_t n) {
  if (v == MPI_UNDEFINED) return "MPI_UNDEFINED";
  std::snprintf(buf, n, "%d", v);
  return buf;
}

// The real kind of (p, r), or the reported error.
int real_kind(Call& call, int p, int r, MPI_Datatype* real) {
  if (int e = check_p_r(call, p, r)) return e;
  *real = dtype::selected_real_type(p, r);
  if (*real == MPI_DATATYPE_NULL) {
    char pb[16], rb[16];
    return call.fail(MPI_ERR_ARG,
                     "arguments p=%s, r=%s: no REAL kind has that precision and range (the largest has p=%d, "
                     "r=%d)",
                     describe_p_r(p, pb, sizeof pb), describe_p_r(r, rb, sizeof rb),
                     dtype::lookup(MPI_REAL16) ? 33 : 15, dtype::lookup(MPI_REAL16) ? 4931 : 307);
  }
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
  Call call("MPI_Type_match_size");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(datatype, "datatype")) return e;
  if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_COMPLEX)
    return call.fail(MPI_ERR_ARG,
                     "argument typeclass=%d is not MPI_TYPECLASS_INTEGER (%d), MPI_TYPECLASS_REAL (%d) or "
                     "MPI_TYPECLASS_COMPLEX (%d)",
                     typeclass, MPI_TYPECLASS_INTEGER, MPI_TYPECLASS_REAL, MPI_TYPECLASS_COMPLEX);
  const MPI_Datatype h = dtype::match_size(typeclass, size);
  if (h == MPI_DATATYPE_NULL) {
    const char* cls = typeclass == MPI_TYPECLASS_INTEGER ? "MPI_TYPECLASS_INTEGER"
                      : typeclass == MPI_TYPECLASS_REAL  ? "MPI_TYPECLASS_REAL"
                                                         : "MPI_TYPECLASS_COMPLEX";
    const char* sizes = typeclass == MPI_TYPECLASS_INTEGER ? "1, 2, 4, 8"
                        : typeclass == MPI_TYPECLASS_REAL
                            ? (dtype::lookup(MPI_REAL16) ? "4, 8, 16" : "4, 8")
                            : (dtype::lookup(MPI_COMPLEX32) ? "8, 16, 32" : "8, 16");
    return call.fail(MPI_ERR_ARG, "argument size=%d: no predefined type of class %s has that size (sizes: %s)",
                     size, cls, sizes);
  }
  *datatype = h;
  return MPI_SUCCESS;
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_f90_integer");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(newtype, "newtype")) return e;
  if (r == MPI_UNDEFINED) return call.fail(MPI_ERR_ARG, "argument r is MPI_UNDEFINED; it must be a decimal range");
  const MPI_Datatype basic = dtype::selected_int_type(r);
  if (basic == MPI_DATATYPE_NULL)
    return call.fail(MPI_ERR_ARG, "argument r=%d: no INTEGER kind has that decimal range (the largest has 18)", r);
  return give(call, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, basic, newtype);
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_f90_real");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(newtype, "newtype")) return e;
  MPI_Datatype real;
  if (int e = real_kind(call, p, r, &real)) return e;
  return give(call, MPI_COMBINER_F90_REAL, p, r, real, newtype);
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype* newtype) {
  Call call("MPI_Type_create_f90_complex");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(newtype, "newtype")) return e;
  MPI_Datatype real;
  if (int e = real_kind(call, p, r, &real)) return e;
  return give(call, MPI_COMBINER_F90_COMPLEX, p, r, dtype::complex_of(real), newtype);
}

}  // extern "C"
