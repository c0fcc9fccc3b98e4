#include "dtype/datatype.hpp"

#include <complex>
#include <cstddef>
#include <cstdio>

#include "core/runtime.hpp"
#include "dtype/layout.hpp"
#include "dtype/op.hpp"
#include "dtype/real16.hpp"

namespace ringmpi::dtype {
namespace {

template <class T>
Datatype basic(MPI_Datatype h, const char* name) {
  Datatype d;
  d.size = sizeof(T);
  d.extent = d.true_extent = sizeof(T);
  d.committed = d.predefined = true;
  d.layout = leaf({{0, sizeof(T)}});
  d.align = alignof(T);
  d.elements = 1;
  d.basic = d.handle = h;
  d.name = name;
  return d;
}

// The C pair types of MINLOC/MAXLOC: value then int, laid out as the struct.
// They are predefined (combiner NAMED) but hold two basic elements.
template <class V>
Datatype pair(MPI_Datatype h, const char* name) {
  struct P {
    V v;
    int i;
  };
  Datatype d;
  d.size = sizeof(V) + sizeof(int);
  d.extent = sizeof(P);
  d.true_extent = static_cast<std::ptrdiff_t>(offsetof(P, i) + sizeof(int));
  d.committed = d.predefined = true;
  d.layout = leaf({{0, sizeof(V)}, {static_cast<std::ptrdiff_t>(offsetof(P, i)), sizeof(int)}});
  d.align = alignof(P);
  d.elements = 2;
  d.basic = d.handle = h;
  d.name = name;
  return d;
}

// The Fortran pair types of MINLOC/MAXLOC (MPI_2INTEGER, MPI_2REAL,
// MPI_2DOUBLE_PRECISION): value and index of the same type, no padding.
template <class V>
Datatype fortran_pair(MPI_Datatype h, const char* name) {
  Datatype d;
  d.size = 2 * sizeof(V);
  d.extent = d.true_extent = 2 * sizeof(V);
  d.committed = d.predefined = true;
  d.layout = leaf({{0, 2 * sizeof(V)}});
  d.align = alignof(V);
  d.elements = 2;
  d.basic = d.handle = h;
  d.name = name;
  return d;
}

}  // namespace

State::State() {
  auto put = [this](MPI_Datatype h, Datatype d) {
    d.blocks = d.layout->blocks;
    table.put_predefined(core::handle_index(h), std::make_shared<Datatype>(std::move(d)));
  };
#define RMPI_BASIC(H, T) put(H, basic<T>(H, #H))
  RMPI_BASIC(MPI_CHAR, char);
  RMPI_BASIC(MPI_SHORT, short);
  RMPI_BASIC(MPI_INT, int);
  RMPI_BASIC(MPI_LONG, long);
  RMPI_BASIC(MPI_LONG_LONG_INT, long long);
  RMPI_BASIC(MPI_SIGNED_CHAR, signed char);
  RMPI_BASIC(MPI_UNSIGNED_CHAR, unsigned char);
  RMPI_BASIC(MPI_UNSIGNED_SHORT, unsigned short);
  RMPI_BASIC(MPI_UNSIGNED, unsigned);
  RMPI_BASIC(MPI_UNSIGNED_LONG, unsigned long);
  RMPI_BASIC(MPI_UNSIGNED_LONG_LONG, unsigned long long);
  RMPI_BASIC(MPI_FLOAT, float);
  RMPI_BASIC(MPI_DOUBLE, double);
  RMPI_BASIC(MPI_LONG_DOUBLE, long double);
  RMPI_BASIC(MPI_WCHAR, wchar_t);
  RMPI_BASIC(MPI_C_BOOL, bool);
  RMPI_BASIC(MPI_INT8_T, std::int8_t);
  RMPI_BASIC(MPI_INT16_T, std::int16_t);
  RMPI_BASIC(MPI_INT32_T, std::int32_t);
  RMPI_BASIC(MPI_INT64_T, std::int64_t);
  RMPI_BASIC(MPI_UINT8_T, std::uint8_t);
  RMPI_BASIC(MPI_UINT16_T, std::uint16_t);
  RMPI_BASIC(MPI_UINT32_T, std::uint32_t);
  RMPI_BASIC(MPI_UINT64_T, std::uint64_t);
  // MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX are one handle, so it has one
  // name; MPICH's is "MPI_C_COMPLEX" (its typename test asks that name of
  // MPI_C_COMPLEX and accepts it for MPI_C_FLOAT_COMPLEX), and so is ours
  // (issue 35). MPI_LONG_LONG likewise answers "MPI_LONG_LONG_INT".
  put(MPI_C_FLOAT_COMPLEX, basic<std::complex<float>>(MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX"));
  RMPI_BASIC(MPI_C_DOUBLE_COMPLEX, std::complex<double>);
  RMPI_BASIC(MPI_C_LONG_DOUBLE_COMPLEX, std::complex<long double>);
  RMPI_BASIC(MPI_BYTE, unsigned char);
  RMPI_BASIC(MPI_PACKED, unsigned char);
  RMPI_BASIC(MPI_AINT, MPI_Aint);
  RMPI_BASIC(MPI_OFFSET, MPI_Offset);
  RMPI_BASIC(MPI_COUNT, MPI_Count);
  RMPI_BASIC(MPI_CXX_BOOL, bool);
  RMPI_BASIC(MPI_CXX_FLOAT_COMPLEX, std::complex<float>);
  RMPI_BASIC(MPI_CXX_DOUBLE_COMPLEX, std::complex<double>);
  RMPI_BASIC(MPI_CXX_LONG_DOUBLE_COMPLEX, std::complex<long double>);
  // Fortran types with gfortran's default sizes (mpi.h).
  RMPI_BASIC(MPI_INTEGER, std::int32_t);
  RMPI_BASIC(MPI_REAL, float);
  RMPI_BASIC(MPI_DOUBLE_PRECISION, double);
  RMPI_BASIC(MPI_COMPLEX, std::complex<float>);
  RMPI_BASIC(MPI_DOUBLE_COMPLEX, std::complex<double>);
  RMPI_BASIC(MPI_LOGICAL, std::int32_t);
  RMPI_BASIC(MPI_CHARACTER, char);
  RMPI_BASIC(MPI_INTEGER1, std::int8_t);
  RMPI_BASIC(MPI_INTEGER2, std::int16_t);
  RMPI_BASIC(MPI_INTEGER4, std::int32_t);
  RMPI_BASIC(MPI_INTEGER8, std::int64_t);
  RMPI_BASIC(MPI_REAL4, float);
  RMPI_BASIC(MPI_REAL8, double);
  RMPI_BASIC(MPI_COMPLEX8, std::complex<float>);
  RMPI_BASIC(MPI_COMPLEX16, std::complex<double>);
#if defined(RINGMPI_HAVE_REAL16)
  RMPI_BASIC(MPI_REAL16, Real16);
  RMPI_BASIC(MPI_COMPLEX32, Complex32);
#endif
#undef RMPI_BASIC
  put(MPI_2INTEGER, fortran_pair<std::int32_t>(MPI_2INTEGER, "MPI_2INTEGER"));
  put(MPI_2REAL, fortran_pair<float>(MPI_2REAL, "MPI_2REAL"));
  put(MPI_2DOUBLE_PRECISION, fortran_pair<double>(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"));
  put(MPI_FLOAT_INT, pair<float>(MPI_FLOAT_INT, "MPI_FLOAT_INT"));
  put(MPI_DOUBLE_INT, pair<double>(MPI_DOUBLE_INT, "MPI_DOUBLE_INT"));
  put(MPI_LONG_INT, pair<long>(MPI_LONG_INT, "MPI_LONG_INT"));
  put(MPI_2INT, pair<int>(MPI_2INT, "MPI_2INT"));
  put(MPI_SHORT_INT, pair<short>(MPI_SHORT_INT, "MPI_SHORT_INT"));
  put(MPI_LONG_DOUBLE_INT, pair<long double>(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"));
  install_predefined_ops(*this);
}

State::~State() = default;

State& make_state() {
  auto& p = core::rt().dtypes;
  if (!p) p = std::make_unique<State>();
  return *p;
}

TypePtr lookup_shared(MPI_Datatype h) { return state().table.get_shared(h); }

std::string describe(MPI_Datatype h) {
  const Datatype* t = lookup(h);
  if (t && t->predefined && !t->name.empty()) return t->name;
  char buf[64];
  std::snprintf(buf, sizeof buf, "datatype 0x%x", static_cast<unsigned>(h));
  if (t && !t->name.empty()) return std::string(buf) + " '" + t->name + "'";
  return buf;
}

MPI_Datatype new_handle(TypePtr t) {
  Datatype& d = *t;
  const MPI_Datatype h = state().table.add(std::move(t));
  if (h != MPI_DATATYPE_NULL) ++d.handle_refs;
  return h;
}

void release_handle(MPI_Datatype h) {
  if (TypePtr p = state().table.remove(h)) --p->handle_refs;
}

void commit(Datatype& t) {
  if (t.committed) return;
  t.committed = true;
  if (t.layout->nblocks <= kMaxFlatBlocks) {
    std::vector<Block> b;
    flatten(*t.layout, 0, b, kMaxFlatBlocks);
    t.blocks = std::move(b);
  }
}

}  // namespace ringmpi::dtype
