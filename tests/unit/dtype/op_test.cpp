// Every predefined op on every predefined type: defined pairs against a
// reference computation, the others refused with MPI_ERR_OP. Then derived
// types, MINLOC/MAXLOC ties, REPLACE/NO_OP, and user ops.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "dtype/construct.hpp"
#include "dtype/op.hpp"

using namespace ringmpi::dtype;

namespace {

const MPI_Op kArith[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                         MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC};

// The groups of MPI-3.1 §5.9.2, written out independently of the library's tables.
const std::set<MPI_Op> kIntegerOps = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                                      MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
const std::set<MPI_Op> kMultiOps = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR, MPI_BXOR};
const std::set<MPI_Op> kFloatOps = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};
const std::set<MPI_Op> kComplexOps = {MPI_SUM, MPI_PROD};
const std::set<MPI_Op> kLogicalOps = {MPI_LAND, MPI_LOR, MPI_LXOR};
const std::set<MPI_Op> kByteOps = {MPI_BAND, MPI_BOR, MPI_BXOR};
const std::set<MPI_Op> kPairOps = {MPI_MINLOC, MPI_MAXLOC};

template <class T>
T ref_arith(MPI_Op op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case MPI_BAND: return T(a & b);
      case MPI_BOR: return T(a | b);
      case MPI_BXOR: return T(a ^ b);
      case MPI_LAND: return T(a && b);
      case MPI_LOR: return T(a || b);
      case MPI_LXOR: return T(!a != !b);
      default: break;
    }
  }
  switch (op) {
    case MPI_MAX: return a > b ? a : b;
    case MPI_MIN: return a < b ? a : b;
    case MPI_SUM: return T(a + b);
    case MPI_PROD: return T(a * b);
    default: return T();
  }
}

// Small values (no overflow in a product) with repeats, zeros and signs.
// (A plain array, not std::vector, so that bool has contiguous storage.)
template <class T>
struct Values {
  static constexpr int n = 37;  // not a multiple of any vector width
  T v[n];
  explicit Values(int seed) {
    for (int i = 0; i < n; ++i) v[i] = T(((i * 7 + seed * 13) % 11) - (std::is_signed_v<T> ? 5 : 0));
  }
};

template <class T>
void check_real(MPI_Datatype h, const std::set<MPI_Op>& allowed) {
  const Datatype& t = *lookup_shared(h);
  for (MPI_Op op : kArith) {
    CAPTURE(t.name);
    CAPTURE(op_name(op));
    const int n = Values<T>::n;
    Values<T> a(1), b(2), want(2), before(2);
    for (int i = 0; i < n; ++i) want.v[i] = ref_arith<T>(op, a.v[i], b.v[i]);
    if (allowed.count(op)) {
      CHECK(op_mismatch(op, t).empty());
      REQUIRE(reduce(op, a.v, b.v, n, h) == MPI_SUCCESS);
      for (int i = 0; i < n; ++i) CHECK(b.v[i] == want.v[i]);
    } else {
      CHECK_FALSE(op_mismatch(op, t).empty());
      CHECK(reduce(op, a.v, b.v, n, h) == MPI_ERR_OP);
      for (int i = 0; i < n; ++i) CHECK(b.v[i] == before.v[i]);
    }
  }
}

template <class T>
void check_complex(MPI_Datatype h) {
  const Datatype& t = *lookup_shared(h);
  for (MPI_Op op : kArith) {
    CAPTURE(t.name);
    CAPTURE(op_name(op));
    std::vector<T> a, b, want;
    for (int i = 0; i < 9; ++i) {
      a.emplace_back(i - 4, 2 * i);
      b.emplace_back(3 - i, i + 1);
    }
    for (std::size_t i = 0; i < a.size(); ++i) want.push_back(op == MPI_SUM ? a[i] + b[i] : a[i] * b[i]);
    if (kComplexOps.count(op)) {
      REQUIRE(reduce(op, a.data(), b.data(), int(a.size()), h) == MPI_SUCCESS);
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(b[i] == want[i]);
    } else {
      CHECK(reduce(op, a.data(), b.data(), int(a.size()), h) == MPI_ERR_OP);
    }
  }
}

template <class V>
struct Pair {
  V v;
  int i;
};

// MINLOC/MAXLOC on 20 pairs P ({value, index}) of type h, against a fold by
// hand; every other arithmetic op is refused (MPI_ERR_OP).
template <class P>
void check_pair_ops(MPI_Datatype h) {
  using V = decltype(P::v);
  using I = decltype(P::i);
  const Datatype& t = *lookup_shared(h);
  for (MPI_Op op : kArith) {
    CAPTURE(t.name);
    CAPTURE(op_name(op));
    std::vector<P> a(20), b(20);
    for (int k = 0; k < 20; ++k) {
      a[std::size_t(k)] = {V(k % 5), I(k)};
      b[std::size_t(k)] = {V((k * 3) % 5), I(20 - k)};
    }
    std::vector<P> want = b;
    for (std::size_t k = 0; k < a.size(); ++k) {
      const bool better = op == MPI_MAXLOC ? a[k].v > b[k].v : a[k].v < b[k].v;
      if (better) want[k] = a[k];
      if (a[k].v == b[k].v) want[k].i = std::min(a[k].i, b[k].i);
    }
    if (kPairOps.count(op)) {
      REQUIRE(reduce(op, a.data(), b.data(), 20, h) == MPI_SUCCESS);
      for (std::size_t k = 0; k < a.size(); ++k) {
        CHECK(b[k].v == want[k].v);
        CHECK(b[k].i == want[k].i);
      }
    } else {
      CHECK(reduce(op, a.data(), b.data(), 20, h) == MPI_ERR_OP);
    }
  }
}

template <class V>
void check_pair(MPI_Datatype h) {
  REQUIRE(lookup_shared(h)->extent == std::ptrdiff_t(sizeof(Pair<V>)));
  check_pair_ops<Pair<V>>(h);
}

}  // namespace

TEST_CASE("every predefined op on every predefined type") {
  check_real<char>(MPI_CHAR, kIntegerOps);  // MPICH's extension of the C integer group
  check_real<short>(MPI_SHORT, kIntegerOps);
  check_real<int>(MPI_INT, kIntegerOps);
  check_real<long>(MPI_LONG, kIntegerOps);
  check_real<long long>(MPI_LONG_LONG_INT, kIntegerOps);
  check_real<signed char>(MPI_SIGNED_CHAR, kIntegerOps);
  check_real<unsigned char>(MPI_UNSIGNED_CHAR, kIntegerOps);
  check_real<unsigned short>(MPI_UNSIGNED_SHORT, kIntegerOps);
  check_real<unsigned>(MPI_UNSIGNED, kIntegerOps);
  check_real<unsigned long>(MPI_UNSIGNED_LONG, kIntegerOps);
  check_real<unsigned long long>(MPI_UNSIGNED_LONG_LONG, kIntegerOps);
  check_real<std::int8_t>(MPI_INT8_T, kIntegerOps);
  check_real<std::int16_t>(MPI_INT16_T, kIntegerOps);
  check_real<std::int32_t>(MPI_INT32_T, kIntegerOps);
  check_real<std::int64_t>(MPI_INT64_T, kIntegerOps);
  check_real<std::uint8_t>(MPI_UINT8_T, kIntegerOps);
  check_real<std::uint16_t>(MPI_UINT16_T, kIntegerOps);
  check_real<std::uint32_t>(MPI_UINT32_T, kIntegerOps);
  check_real<std::uint64_t>(MPI_UINT64_T, kIntegerOps);
  // The multi-language types: the standard's ops plus the logical ones, which
  // MPICH and Open MPI accept on them too (issue 35).
  check_real<MPI_Aint>(MPI_AINT, kIntegerOps);
  check_real<MPI_Offset>(MPI_OFFSET, kIntegerOps);
  check_real<MPI_Count>(MPI_COUNT, kIntegerOps);
  check_real<float>(MPI_FLOAT, kFloatOps);
  check_real<double>(MPI_DOUBLE, kFloatOps);
  check_real<long double>(MPI_LONG_DOUBLE, kFloatOps);
  check_real<bool>(MPI_C_BOOL, kLogicalOps);
  check_real<bool>(MPI_CXX_BOOL, kLogicalOps);
  check_real<unsigned char>(MPI_BYTE, kByteOps);
  check_real<wchar_t>(MPI_WCHAR, {});
  check_real<unsigned char>(MPI_PACKED, {});
  check_complex<std::complex<float>>(MPI_C_FLOAT_COMPLEX);
  check_complex<std::complex<double>>(MPI_C_DOUBLE_COMPLEX);
  check_complex<std::complex<long double>>(MPI_C_LONG_DOUBLE_COMPLEX);
  check_complex<std::complex<float>>(MPI_CXX_FLOAT_COMPLEX);
  check_complex<std::complex<double>>(MPI_CXX_DOUBLE_COMPLEX);
  check_complex<std::complex<long double>>(MPI_CXX_LONG_DOUBLE_COMPLEX);
  check_pair<float>(MPI_FLOAT_INT);
  check_pair<double>(MPI_DOUBLE_INT);
  check_pair<long>(MPI_LONG_INT);
  check_pair<int>(MPI_2INT);
  check_pair<short>(MPI_SHORT_INT);
  check_pair<long double>(MPI_LONG_DOUBLE_INT);
  // Fortran types (gfortran sizes): "Fortran integer" has the multi-language ops (no logical ones).
  check_real<std::int32_t>(MPI_INTEGER, kMultiOps);
  check_real<std::int8_t>(MPI_INTEGER1, kMultiOps);
  check_real<std::int16_t>(MPI_INTEGER2, kMultiOps);
  check_real<std::int32_t>(MPI_INTEGER4, kMultiOps);
  check_real<std::int64_t>(MPI_INTEGER8, kMultiOps);
  check_real<float>(MPI_REAL, kFloatOps);
  check_real<double>(MPI_DOUBLE_PRECISION, kFloatOps);
  check_real<float>(MPI_REAL4, kFloatOps);
  check_real<double>(MPI_REAL8, kFloatOps);
  check_real<std::int32_t>(MPI_LOGICAL, kLogicalOps);
  check_real<char>(MPI_CHARACTER, {});
  check_complex<std::complex<float>>(MPI_COMPLEX);
  check_complex<std::complex<double>>(MPI_DOUBLE_COMPLEX);
  check_complex<std::complex<float>>(MPI_COMPLEX8);
  check_complex<std::complex<double>>(MPI_COMPLEX16);
}

template <class V>
struct Pair2 {
  V v, i;
};

// MINLOC/MAXLOC on the Fortran pairs: the index has the value's type.
template <class V>
void check_fortran_pair(MPI_Datatype h) {
  const Datatype& t = *lookup_shared(h);
  REQUIRE(t.size == 2 * sizeof(V));
  REQUIRE(t.extent == std::ptrdiff_t(2 * sizeof(V)));
  check_pair_ops<Pair2<V>>(h);
}

TEST_CASE("MINLOC/MAXLOC on MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION") {
  check_fortran_pair<std::int32_t>(MPI_2INTEGER);
  check_fortran_pair<float>(MPI_2REAL);
  check_fortran_pair<double>(MPI_2DOUBLE_PRECISION);
}

TEST_CASE("MINLOC/MAXLOC write the pair's members only, never the padding after the last pair") {
  // Collectives size scratch buffers by the true extent (12 bytes for one
  // MPI_DOUBLE_INT, 20 for MPI_LONG_DOUBLE_INT): bytes after it are not ours.
  struct DI { double v; int i; };
  for (const MPI_Op op : {MPI_MINLOC, MPI_MAXLOC}) {
    alignas(16) unsigned char inout[sizeof(DI) * 2];
    std::memset(inout, 0x5A, sizeof inout);
    const DI a{op == MPI_MINLOC ? -1.0 : 1.0, 3};
    const DI b{0.0, 7};
    std::memcpy(inout, &b, offsetof(DI, i) + sizeof(int));
    REQUIRE(reduce(op, &a, inout, 1, MPI_DOUBLE_INT) == MPI_SUCCESS);
    DI got;
    std::memcpy(&got, inout, sizeof got);
    CHECK(got.v == a.v);
    CHECK(got.i == 3);
    for (std::size_t k = offsetof(DI, i) + sizeof(int); k < sizeof inout; ++k) CHECK(inout[k] == 0x5A);
  }
}

TEST_CASE("MPI_REPLACE copies and MPI_NO_OP keeps, on any type") {
  std::string why;
  const int bl[] = {1, 2};
  const MPI_Aint disp[] = {0, 8};
  TypePtr parts[] = {lookup_shared(MPI_CHAR), lookup_shared(MPI_INT)};
  TypePtr s = make_struct(2, bl, disp, parts, &why);
  commit(*s);
  const MPI_Datatype h = new_handle(s);
  unsigned char a[32], b[32], before[32];
  for (int i = 0; i < 32; ++i) a[i] = static_cast<unsigned char>(i), b[i] = static_cast<unsigned char>(100 + i);
  std::memcpy(before, b, 32);
  CHECK(reduce(MPI_NO_OP, a, b, 2, h) == MPI_SUCCESS);
  CHECK(std::memcmp(b, before, 32) == 0);
  CHECK(reduce(MPI_REPLACE, a, b, 2, h) == MPI_SUCCESS);
  // Data bytes (0, 8..15 of each 16-byte element) copied; gaps untouched.
  for (int i = 0; i < 32; ++i) {
    const int in = i % 16;
    const bool data = in == 0 || (in >= 8 && in < 16);
    CHECK(b[i] == (data ? a[i] : before[i]));
  }
  CHECK_FALSE(op_mismatch(MPI_SUM, *s).empty());
  CHECK(reduce(MPI_SUM, a, b, 2, h) == MPI_ERR_OP);
  release_handle(h);
}

TEST_CASE("predefined ops on derived types of one basic type") {
  std::string why;
  TypePtr v = make_vector(3, 2, 3, lookup_shared(MPI_INT), &why);
  commit(*v);
  const MPI_Datatype h = new_handle(v);
  // Extent 8 ints: element e covers ints 8e + {0, 1, 3, 4, 6, 7}.
  int a[18], b[18], want[18];
  for (int i = 0; i < 18; ++i) {
    const int in = i % 8;
    const bool data = i < 16 && in != 2 && in != 5;
    a[i] = i, b[i] = 100 * i, want[i] = data ? a[i] + b[i] : b[i];
  }
  CHECK(reduce(MPI_SUM, a, b, 2, h) == MPI_SUCCESS);
  for (int i = 0; i < 18; ++i) CHECK(b[i] == want[i]);
  CHECK(reduce(MPI_MINLOC, a, b, 2, h) == MPI_ERR_OP);
  release_handle(h);

  // A padded pair type spaced out by create_resized: every other C struct.
  TypePtr di = make_resized(lookup_shared(MPI_DOUBLE_INT), 0, 32, &why);
  TypePtr row = make_contiguous(4, di, &why);
  commit(*row);
  const MPI_Datatype rh = new_handle(row);
  Pair<double> x[8], y[8];
  const double xv[4] = {1, 7, 3, 2}, yv[4] = {2, 7, 1, 2};
  const int xi[4] = {5, 1, 3, 9}, yi[4] = {0, 0, 1, 4};
  for (int k = 0; k < 4; ++k) {
    x[2 * k] = {xv[k], xi[k]};
    y[2 * k] = {yv[k], yi[k]};
    x[2 * k + 1] = {-1, -1};
    y[2 * k + 1] = {42, 42};
  }
  CHECK(reduce(MPI_MINLOC, x, y, 1, rh) == MPI_SUCCESS);
  CHECK(y[0].v == 1);
  CHECK(y[0].i == 5);
  CHECK(y[2].i == 0);  // tie 7 vs 7: smaller index
  CHECK(y[4].v == 1);
  CHECK(y[6].i == 4);
  CHECK(y[1].v == 42);  // between elements: untouched
  release_handle(rh);

  TypePtr si = make_vector(3, 1, 2, lookup_shared(MPI_SHORT_INT), &why);
  commit(*si);
  const MPI_Datatype sh = new_handle(si);
  Pair<short> p[6], q[6];
  for (int i = 0; i < 6; ++i) p[i] = {short(i), i}, q[i] = {short(3), 10 + i};
  CHECK(reduce(MPI_MAXLOC, p, q, 1, sh) == MPI_SUCCESS);
  CHECK(q[0].v == 3);   // element 0: 0 vs 3
  CHECK(q[2].i == 12);  // element 2 (index 2): 2 vs 3 -> q stays
  CHECK(q[4].v == 4);   // element 4: 4 vs 3 -> p wins
  CHECK(q[4].i == 4);
  CHECK(q[1].i == 11);  // not in the type: untouched
  release_handle(sh);
}

namespace {
MPI_Datatype seen_type;
int seen_len;
// Non-commutative: inout = in - inout, to check the operand order.
void minus(void* in, void* inout, int* len, MPI_Datatype* type) {
  seen_type = *type;
  seen_len = *len;
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] = static_cast<int*>(in)[i] - static_cast<int*>(inout)[i];
}
}  // namespace

TEST_CASE("user ops get the datatype handle and the standard's operand order") {
  const MPI_Op op = new_op(minus, false);
  REQUIRE(lookup_op(op));
  CHECK_FALSE(lookup_op(op)->commute);
  CHECK(op_mismatch(op, *lookup(MPI_DOUBLE)).empty());
  int a[3] = {10, 20, 30}, b[3] = {1, 2, 3};
  CHECK(reduce(op, a, b, 3, MPI_INT) == MPI_SUCCESS);
  CHECK(seen_type == MPI_INT);
  CHECK(seen_len == 3);
  CHECK(b[0] == 9);
  CHECK(b[2] == 27);
  free_op(op);
  CHECK(lookup_op(op) == nullptr);
  CHECK(lookup_op(MPI_SUM)->commute);
}
