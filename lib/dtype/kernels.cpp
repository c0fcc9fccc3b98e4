// Loops written so that GCC vectorises them (restrict pointers, no calls,
// branch-free bodies); this file is compiled at -O3 for that, whatever the
// build type.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include "dtype/kernels.hpp"

#include "core/cpu.hpp"
#include "dtype/real16.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ringmpi::dtype {
namespace {

struct Max {
  template <class T>
  static T f(T a, T b) { return a > b ? a : b; }
};
struct Min {
  template <class T>
  static T f(T a, T b) { return a < b ? a : b; }
};
struct Sum {
  template <class T>
  static T f(T a, T b) { return T(a + b); }
};
struct Prod {
  template <class T>
  static T f(T a, T b) { return T(a * b); }
};
struct Land {
  template <class T>
  static T f(T a, T b) { return T((a != T(0)) & (b != T(0))); }
};
struct Lor {
  template <class T>
  static T f(T a, T b) { return T((a != T(0)) | (b != T(0))); }
};
struct Lxor {
  template <class T>
  static T f(T a, T b) { return T((a != T(0)) ^ (b != T(0))); }
};
struct Band {
  template <class T>
  static T f(T a, T b) { return T(a & b); }
};
struct Bor {
  template <class T>
  static T f(T a, T b) { return T(a | b); }
};
struct Bxor {
  template <class T>
  static T f(T a, T b) { return T(a ^ b); }
};

// The loop every predefined op on a scalar type runs: a counted loop over
// restrict-qualified parameters (so the vectoriser needs no runtime overlap
// check and no scalar fallback version) with a branch-free body. MPI-3.1
// §2.3 forbids aliasing an INOUT argument with another argument; in == inout
// exactly would still give f(x, x) per element, as the vector loop loads
// before it stores. Floating MAX/MIN stay `a > b ? a : b`: with a NaN on
// either side the inout value is kept, which is what maxps/maxpd compute,
// so the vector code gives the same results as the scalar code bit for bit.
//
// The elements are read and written with memcpy, not through a T*: the
// buffers may be misaligned for T (MPI_Reduce_local on a packed byte
// buffer), and a misaligned T* access is undefined behaviour (UBSan:
// "load of misaligned address"), which GCC is free to compile with aligned
// instructions. A fixed-size memcpy is one unaligned load or store, and the
// loop vectorises as before (checked: vpaddd/vcmpltpd on ymm registers in
// the AVX2 clone).
template <class T, class F>
[[gnu::always_inline]] inline void run(const unsigned char* __restrict a, unsigned char* __restrict b,
                                       std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    y = F::f(x, y);
    std::memcpy(b + i * sizeof(T), &y, sizeof(T));
  }
}

// Two loops: 128 bytes a turn (four 32-byte vectors in the AVX2 clone,
// eight 16-byte ones in the SSE2 one: run() is given a constant count, so
// the compiler unrolls it whole and the loop overhead is paid once per 128
// bytes, not once per vector), then the last elements (fewer than 128
// bytes) in the vectoriser's own loop: 32 bytes a turn, one 16-byte step,
// then element by element. (A plain vector loop pays its counter, test
// and branch once per vector; at 1-8 KiB that was a third of the
// instructions, issue 36.) Each run() call is one restrict scope: its
// loads and stores provably do not overlap, so no run-time overlap check
// is compiled in. Check after changing this: every loop_avx2 of an integer,
// float, double, bool or byte type has ymm instructions (objdump -d).
// Long runs first go element by element up to a 32-byte boundary of inout,
// where that is a whole number of elements away: the stores (and inout's
// loads) of the loops after it then never straddle two cache lines (with
// 16-byte aligned buffers from malloc, every other 32-byte access would).
// The pointers move on, so that the loops after it are the same code
// whether or not this ran (with an index starting at the peeled count, GCC
// left the unrolled double loop scalar).
template <class T, class F>
[[gnu::always_inline]] inline void align_step(const unsigned char*& a, unsigned char*& b, std::size_t& n) {
  if constexpr (sizeof(T) < 32) {
    const std::size_t off = reinterpret_cast<std::uintptr_t>(b) % 32;
    if (n * sizeof(T) >= 512 && off != 0 && off % sizeof(T) == 0) {
      const std::size_t p = (32 - off) / sizeof(T);
      for (std::size_t j = 0; j < p; ++j) run<T, F>(a + j * sizeof(T), b + j * sizeof(T), 1);
      a += p * sizeof(T);
      b += p * sizeof(T);
      n -= p;
    }
  }
}

template <class T, class F>
[[gnu::always_inline]] inline void body(const unsigned char* a, unsigned char* b, std::size_t n) {
  constexpr std::size_t kVec = sizeof(T) >= 32 ? 1 : 32 / sizeof(T);  // elements in 32 bytes
  constexpr std::size_t kTurn = 4 * kVec;
  align_step<T, F>(a, b, n);
  std::size_t i = 0;
  for (; i + kTurn <= n; i += kTurn) run<T, F>(a + i * sizeof(T), b + i * sizeof(T), kTurn);
  run<T, F>(a + i * sizeof(T), b + i * sizeof(T), n - i);
}

#if defined(__x86_64__) && defined(__GNUC__)
// MAX and MIN of float and double in vector instructions written out:
// maxps(x, y) is `x > y ? x : y` and minps(x, y) `x < y ? x : y` exactly
// (equal values or a NaN on either side give y, the inout element), which
// is F::f(x, y); but from the memcpy loads GCC vectorises that into a
// compare and a byte blend that loads each vector twice (float MAX 16 KiB
// 0.35 us against Open MPI's 0.21). SSE2 is the x86-64 baseline.
template <class T, class F>
inline constexpr bool kFloatMinMax =
    (std::is_same_v<T, float> || std::is_same_v<T, double>) && (std::is_same_v<F, Max> || std::is_same_v<F, Min>);

template <class T, class F>
[[gnu::always_inline]] inline void minmax16(const unsigned char* a, unsigned char* b) {
  if constexpr (std::is_same_v<T, float>) {
    const __m128 x = _mm_loadu_ps(reinterpret_cast<const float*>(a));
    const __m128 y = _mm_loadu_ps(reinterpret_cast<const float*>(b));
    if constexpr (std::is_same_v<F, Max>) _mm_storeu_ps(reinterpret_cast<float*>(b), _mm_max_ps(x, y));
    else _mm_storeu_ps(reinterpret_cast<float*>(b), _mm_min_ps(x, y));
  } else {
    const __m128d x = _mm_loadu_pd(reinterpret_cast<const double*>(a));
    const __m128d y = _mm_loadu_pd(reinterpret_cast<const double*>(b));
    if constexpr (std::is_same_v<F, Max>) _mm_storeu_pd(reinterpret_cast<double*>(b), _mm_max_pd(x, y));
    else _mm_storeu_pd(reinterpret_cast<double*>(b), _mm_min_pd(x, y));
  }
}

template <class T, class F>
[[gnu::always_inline, gnu::target("avx2")]] inline void minmax32(const unsigned char* a, unsigned char* b) {
  if constexpr (std::is_same_v<T, float>) {
    const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(a));
    const __m256 y = _mm256_loadu_ps(reinterpret_cast<const float*>(b));
    if constexpr (std::is_same_v<F, Max>) _mm256_storeu_ps(reinterpret_cast<float*>(b), _mm256_max_ps(x, y));
    else _mm256_storeu_ps(reinterpret_cast<float*>(b), _mm256_min_ps(x, y));
  } else {
    const __m256d x = _mm256_loadu_pd(reinterpret_cast<const double*>(a));
    const __m256d y = _mm256_loadu_pd(reinterpret_cast<const double*>(b));
    if constexpr (std::is_same_v<F, Max>) _mm256_storeu_pd(reinterpret_cast<double*>(b), _mm256_max_pd(x, y));
    else _mm256_storeu_pd(reinterpret_cast<double*>(b), _mm256_min_pd(x, y));
  }
}

// body()'s structure: 128 bytes a turn, then 32 (16) bytes a turn, then
// element by element.
template <class T, class F>
[[gnu::always_inline]] inline void minmax_sse2(const unsigned char* a, unsigned char* b, std::size_t n) {
  align_step<T, F>(a, b, n);
  const std::size_t bytes = n * sizeof(T);
  std::size_t i = 0;
  for (; i + 128 <= bytes; i += 128)
    for (std::size_t j = 0; j < 128; j += 16) minmax16<T, F>(a + i + j, b + i + j);
  for (; i + 16 <= bytes; i += 16) minmax16<T, F>(a + i, b + i);
  run<T, F>(a + i, b + i, (bytes - i) / sizeof(T));
}

template <class T, class F>
[[gnu::always_inline, gnu::target("avx2")]] inline void minmax_avx2(const unsigned char* a, unsigned char* b,
                                                                    std::size_t n) {
  align_step<T, F>(a, b, n);
  const std::size_t bytes = n * sizeof(T);
  std::size_t i = 0;
  for (; i + 128 <= bytes; i += 128)
    for (std::size_t j = 0; j < 128; j += 32) minmax32<T, F>(a + i + j, b + i + j);
  for (; i + 32 <= bytes; i += 32) minmax32<T, F>(a + i, b + i);
  run<T, F>(a + i, b + i, (bytes - i) / sizeof(T));
}
#endif

template <class T, class F>
void loop_default(const void* in, void* inout, std::size_t n) {
  const unsigned char* a = static_cast<const unsigned char*>(in);
  unsigned char* b = static_cast<unsigned char*>(inout);
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (kFloatMinMax<T, F>) {
    minmax_sse2<T, F>(a, b, n);
    return;
  }
#endif
  body<T, F>(a, b, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loop compiled for AVX2 (32-byte vectors, and 64-bit integer
// compares for MAX/MIN of 64-bit integers), chosen at run time when the CPU
// has it: a build for generic x86-64 otherwise stops at SSE2's 16 bytes.
// Both clones load and store with unaligned instructions (body's memcpy
// accesses, loadu/storeu), so buffers misaligned for the element type
// (allowed: MPI_Reduce_local on a packed byte buffer) work; test
// unit-dtype_kernels runs both at odd offsets.
template <class T, class F>
[[gnu::target("avx2")]] void loop_avx2(const void* in, void* inout, std::size_t n) {
  const unsigned char* a = static_cast<const unsigned char*>(in);
  unsigned char* b = static_cast<unsigned char*>(inout);
  if constexpr (kFloatMinMax<T, F>) {
    minmax_avx2<T, F>(a, b, n);
    return;
  }
  body<T, F>(a, b, n);
}

// `wide`: the caller allows the AVX2 clone (Isa::best).
template <class T, class F>
Kernel loop_for(bool wide) {
  return wide && core::have_avx2() ? loop_avx2<T, F> : loop_default<T, F>;
}
#else
template <class T, class F>
Kernel loop_for(bool) {
  return loop_default<T, F>;
}
#endif

// The C layout of the MINLOC/MAXLOC pair types (same as in datatype.cpp).
template <class V>
struct Pair {
  V v;
  int i;
};

// The same for the Fortran pair types (MPI_2INTEGER, MPI_2REAL,
// MPI_2DOUBLE_PRECISION): the index has the value's type.
template <class V>
struct Pair2 {
  V v, i;
};

// MINLOC/MAXLOC (§5.9.4) on pairs P (Pair or Pair2): the better value wins;
// on a tie the smaller index.
template <class P, bool kMax>
void loc(const void* in, void* inout, std::size_t n) {
  const P* __restrict a = static_cast<const P*>(in);
  P* __restrict b = static_cast<P*>(inout);
  for (std::size_t k = 0; k < n; ++k) {
    const bool better = kMax ? a[k].v > b[k].v : a[k].v < b[k].v;
    if (better) {
      // Member by member: a whole-struct copy would also write the padding
      // after the last pair, past a buffer sized by the true extent.
      b[k].v = a[k].v;
      b[k].i = a[k].i;
    } else if (a[k].v == b[k].v && a[k].i < b[k].i)
      b[k].i = a[k].i;
  }
}

#if defined(RINGMPI_HAVE_REAL16)
// COMPLEX*32 has no std::complex; sum and product written out.
void complex32_sum(const void* in, void* inout, std::size_t n) {
  const Complex32* a = static_cast<const Complex32*>(in);
  Complex32* b = static_cast<Complex32*>(inout);
  for (std::size_t k = 0; k < n; ++k) {
    b[k].re = a[k].re + b[k].re;
    b[k].im = a[k].im + b[k].im;
  }
}
void complex32_prod(const void* in, void* inout, std::size_t n) {
  const Complex32* a = static_cast<const Complex32*>(in);
  Complex32* b = static_cast<Complex32*>(inout);
  for (std::size_t k = 0; k < n; ++k) {
    const Real16 re = a[k].re * b[k].re - a[k].im * b[k].im;
    const Real16 im = a[k].re * b[k].im + a[k].im * b[k].re;
    b[k].re = re;
    b[k].im = im;
  }
}
Kernel complex32(MPI_Op op) {
  switch (op) {
    case MPI_SUM: return complex32_sum;
    case MPI_PROD: return complex32_prod;
    default: return nullptr;
  }
}
#endif

// One function per group of §5.9.2; each returns nullptr for ops outside the group's list.
template <class T>
Kernel c_integer(MPI_Op op, bool wide) {  // MAX MIN SUM PROD, logical and bitwise
  switch (op) {
    case MPI_MAX: return loop_for<T, Max>(wide);
    case MPI_MIN: return loop_for<T, Min>(wide);
    case MPI_SUM: return loop_for<T, Sum>(wide);
    case MPI_PROD: return loop_for<T, Prod>(wide);
    case MPI_LAND: return loop_for<T, Land>(wide);
    case MPI_LOR: return loop_for<T, Lor>(wide);
    case MPI_LXOR: return loop_for<T, Lxor>(wide);
    case MPI_BAND: return loop_for<T, Band>(wide);
    case MPI_BOR: return loop_for<T, Bor>(wide);
    case MPI_BXOR: return loop_for<T, Bxor>(wide);
    default: return nullptr;
  }
}

template <class T>
Kernel fortran_integer(MPI_Op op, bool wide) {  // "Fortran integer" of §5.9.2: not the logical ops (nor in MPICH)
  switch (op) {
    case MPI_LAND: case MPI_LOR: case MPI_LXOR: return nullptr;
    default: return c_integer<T>(op, wide);
  }
}

template <class T>
Kernel floating(MPI_Op op, bool wide) {
  switch (op) {
    case MPI_MAX: return loop_for<T, Max>(wide);
    case MPI_MIN: return loop_for<T, Min>(wide);
    case MPI_SUM: return loop_for<T, Sum>(wide);
    case MPI_PROD: return loop_for<T, Prod>(wide);
    default: return nullptr;
  }
}

template <class T>
Kernel complex(MPI_Op op, bool wide) {
  switch (op) {
    case MPI_SUM: return loop_for<T, Sum>(wide);
    case MPI_PROD: return loop_for<T, Prod>(wide);
    default: return nullptr;
  }
}

template <class T>
Kernel logical(MPI_Op op, bool wide) {  // C/C++ bool, Fortran LOGICAL (nonzero is true; results are 0 or 1)
  switch (op) {
    case MPI_LAND: return loop_for<T, Land>(wide);
    case MPI_LOR: return loop_for<T, Lor>(wide);
    case MPI_LXOR: return loop_for<T, Lxor>(wide);
    default: return nullptr;
  }
}

Kernel byte(MPI_Op op, bool wide) {
  switch (op) {
    case MPI_BAND: return loop_for<unsigned char, Band>(wide);
    case MPI_BOR: return loop_for<unsigned char, Bor>(wide);
    case MPI_BXOR: return loop_for<unsigned char, Bxor>(wide);
    default: return nullptr;
  }
}

template <class V>
Kernel pair(MPI_Op op) {
  switch (op) {
    case MPI_MINLOC: return loc<Pair<V>, false>;
    case MPI_MAXLOC: return loc<Pair<V>, true>;
    default: return nullptr;
  }
}

template <class V>
Kernel pair2(MPI_Op op) {
  switch (op) {
    case MPI_MINLOC: return loc<Pair2<V>, false>;
    case MPI_MAXLOC: return loc<Pair2<V>, true>;
    default: return nullptr;
  }
}

}  // namespace

namespace {
Kernel resolve(MPI_Op op, MPI_Datatype type, bool wide);

KernelTable make_table() {
  KernelTable t{};
  for (std::size_t o = 0; o < kKernelOps; ++o)
    for (std::size_t d = 0; d < kKernelTypes; ++d)
      t.k[o][d] = resolve(RMPI_HANDLE(RMPI_KIND_OP, int(o)), RMPI_HANDLE(RMPI_KIND_DATATYPE, int(d)), true);
  return t;
}
}  // namespace

// (Dynamic initialisation when the library is loaded: nothing reduces before.)
const KernelTable kernel_table = make_table();

// The table where it has the loop (the RMA paths ask here on every
// accumulate); the switch for the rest: the baseline clones, and the
// combinations that have no loop (or a caller before the table is filled).
Kernel kernel_for(MPI_Op op, MPI_Datatype type, Isa isa) {
  if (isa == Isa::best)
    if (const Kernel k = predefined_kernel(op, type)) return k;
  return resolve(op, type, isa == Isa::best);
}

namespace {
// One switch over the types of §5.9.2, each case a switch over the ops.
Kernel resolve(MPI_Op op, MPI_Datatype type, bool wide) {
  switch (type) {
    case MPI_CHAR: return c_integer<char>(op, wide);  // not in the standard's list; MPICH accepts it too
    case MPI_SHORT: return c_integer<short>(op, wide);
    case MPI_INT: return c_integer<int>(op, wide);
    case MPI_LONG: return c_integer<long>(op, wide);
    case MPI_LONG_LONG_INT: return c_integer<long long>(op, wide);
    case MPI_SIGNED_CHAR: return c_integer<signed char>(op, wide);
    case MPI_UNSIGNED_CHAR: return c_integer<unsigned char>(op, wide);
    case MPI_UNSIGNED_SHORT: return c_integer<unsigned short>(op, wide);
    case MPI_UNSIGNED: return c_integer<unsigned>(op, wide);
    case MPI_UNSIGNED_LONG: return c_integer<unsigned long>(op, wide);
    case MPI_UNSIGNED_LONG_LONG: return c_integer<unsigned long long>(op, wide);
    case MPI_INT8_T: return c_integer<std::int8_t>(op, wide);
    case MPI_INT16_T: return c_integer<std::int16_t>(op, wide);
    case MPI_INT32_T: return c_integer<std::int32_t>(op, wide);
    case MPI_INT64_T: return c_integer<std::int64_t>(op, wide);
    case MPI_UINT8_T: return c_integer<std::uint8_t>(op, wide);
    case MPI_UINT16_T: return c_integer<std::uint16_t>(op, wide);
    case MPI_UINT32_T: return c_integer<std::uint32_t>(op, wide);
    case MPI_UINT64_T: return c_integer<std::uint64_t>(op, wide);
    // The multi-language types: §5.9.2 lists them with MAX MIN SUM PROD and the
    // bitwise ops only, but MPICH and Open MPI also take the logical ops on them
    // (nonzero is true, as on a C integer), so a program that uses MPI_LAND on
    // MPI_AINT on a cluster runs here too (issue 35).
    case MPI_AINT: return c_integer<MPI_Aint>(op, wide);
    case MPI_OFFSET: return c_integer<MPI_Offset>(op, wide);
    case MPI_COUNT: return c_integer<MPI_Count>(op, wide);
    case MPI_FLOAT: return floating<float>(op, wide);
    case MPI_DOUBLE: return floating<double>(op, wide);
    case MPI_LONG_DOUBLE: return floating<long double>(op, wide);
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX: return complex<std::complex<float>>(op, wide);
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX: return complex<std::complex<double>>(op, wide);
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX: return complex<std::complex<long double>>(op, wide);
    case MPI_C_BOOL:
    case MPI_CXX_BOOL:
      // As bytes: the same 0/1 results for the values a bool holds, and the
      // loop vectorises (GCC leaves a loop over bool scalar).
      static_assert(sizeof(bool) == 1);
      return logical<unsigned char>(op, wide);
    case MPI_BYTE: return byte(op, wide);
    case MPI_FLOAT_INT: return pair<float>(op);
    case MPI_DOUBLE_INT: return pair<double>(op);
    case MPI_LONG_INT: return pair<long>(op);
    case MPI_2INT: return pair<int>(op);
    case MPI_SHORT_INT: return pair<short>(op);
    case MPI_LONG_DOUBLE_INT: return pair<long double>(op);
    // Fortran (§5.9.2): "Fortran integer" has no logical ops.
    case MPI_INTEGER:
    case MPI_INTEGER4: return fortran_integer<std::int32_t>(op, wide);
    case MPI_INTEGER1: return fortran_integer<std::int8_t>(op, wide);
    case MPI_INTEGER2: return fortran_integer<std::int16_t>(op, wide);
    case MPI_INTEGER8: return fortran_integer<std::int64_t>(op, wide);
    case MPI_REAL:
    case MPI_REAL4: return floating<float>(op, wide);
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8: return floating<double>(op, wide);
    case MPI_COMPLEX:
    case MPI_COMPLEX8: return complex<std::complex<float>>(op, wide);
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16: return complex<std::complex<double>>(op, wide);
#if defined(RINGMPI_HAVE_REAL16)
    case MPI_REAL16: return floating<Real16>(op, wide);
    case MPI_COMPLEX32: return complex32(op);
#endif
    case MPI_LOGICAL: return logical<std::int32_t>(op, wide);
    case MPI_2INTEGER: return pair2<std::int32_t>(op);
    case MPI_2REAL: return pair2<float>(op);
    case MPI_2DOUBLE_PRECISION: return pair2<double>(op);
    default: return nullptr;  // MPI_WCHAR, MPI_PACKED, MPI_CHARACTER
  }
}
}  // namespace

}  // namespace ringmpi::dtype
