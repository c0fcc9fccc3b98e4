// Loops written so that GCC vectorises them (restrict pointers, no calls,
// branch-free bodies); this file is compiled at -O3 for that, whatever the
// build type.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include "dtype/kernels.hpp"

#include <complex>
#include <cstdint>

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

template <class T, class F>
void loop(const void* in, void* inout, std::size_t n) {
  const T* __restrict a = static_cast<const T*>(in);
  T* __restrict b = static_cast<T*>(inout);
  for (std::size_t i = 0; i < n; ++i) b[i] = F::f(a[i], b[i]);
}

// The C layout of the MINLOC/MAXLOC pair types (same as in datatype.cpp).
template <class V>
struct Pair {
  V v;
  int i;
};

// MINLOC/MAXLOC (§5.9.4): the better value wins; on a tie the smaller index.
template <class V, bool kMax>
void loc(const void* in, void* inout, std::size_t n) {
  const Pair<V>* __restrict a = static_cast<const Pair<V>*>(in);
  Pair<V>* __restrict b = static_cast<Pair<V>*>(inout);
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

// One function per group of §5.9.2; each returns nullptr for ops outside the group's list.
template <class T>
Kernel c_integer(MPI_Op op) {  // MAX MIN SUM PROD, logical and bitwise
  switch (op) {
    case MPI_MAX: return loop<T, Max>;
    case MPI_MIN: return loop<T, Min>;
    case MPI_SUM: return loop<T, Sum>;
    case MPI_PROD: return loop<T, Prod>;
    case MPI_LAND: return loop<T, Land>;
    case MPI_LOR: return loop<T, Lor>;
    case MPI_LXOR: return loop<T, Lxor>;
    case MPI_BAND: return loop<T, Band>;
    case MPI_BOR: return loop<T, Bor>;
    case MPI_BXOR: return loop<T, Bxor>;
    default: return nullptr;
  }
}

template <class T>
Kernel multi_language(MPI_Op op) {  // MPI_AINT, MPI_OFFSET, MPI_COUNT: not the logical ops
  switch (op) {
    case MPI_LAND: case MPI_LOR: case MPI_LXOR: return nullptr;
    default: return c_integer<T>(op);
  }
}

template <class T>
Kernel floating(MPI_Op op) {
  switch (op) {
    case MPI_MAX: return loop<T, Max>;
    case MPI_MIN: return loop<T, Min>;
    case MPI_SUM: return loop<T, Sum>;
    case MPI_PROD: return loop<T, Prod>;
    default: return nullptr;
  }
}

template <class T>
Kernel complex(MPI_Op op) {
  switch (op) {
    case MPI_SUM: return loop<T, Sum>;
    case MPI_PROD: return loop<T, Prod>;
    default: return nullptr;
  }
}

Kernel logical(MPI_Op op) {
  switch (op) {
    case MPI_LAND: return loop<bool, Land>;
    case MPI_LOR: return loop<bool, Lor>;
    case MPI_LXOR: return loop<bool, Lxor>;
    default: return nullptr;
  }
}

Kernel byte(MPI_Op op) {
  switch (op) {
    case MPI_BAND: return loop<unsigned char, Band>;
    case MPI_BOR: return loop<unsigned char, Bor>;
    case MPI_BXOR: return loop<unsigned char, Bxor>;
    default: return nullptr;
  }
}

template <class V>
Kernel pair(MPI_Op op) {
  switch (op) {
    case MPI_MINLOC: return loc<V, false>;
    case MPI_MAXLOC: return loc<V, true>;
    default: return nullptr;
  }
}

}  // namespace

Kernel kernel_for(MPI_Op op, MPI_Datatype type) {
  switch (type) {
    case MPI_CHAR: return c_integer<char>(op);  // not in the standard's list; MPICH accepts it too
    case MPI_SHORT: return c_integer<short>(op);
    case MPI_INT: return c_integer<int>(op);
    case MPI_LONG: return c_integer<long>(op);
    case MPI_LONG_LONG_INT: return c_integer<long long>(op);
    case MPI_SIGNED_CHAR: return c_integer<signed char>(op);
    case MPI_UNSIGNED_CHAR: return c_integer<unsigned char>(op);
    case MPI_UNSIGNED_SHORT: return c_integer<unsigned short>(op);
    case MPI_UNSIGNED: return c_integer<unsigned>(op);
    case MPI_UNSIGNED_LONG: return c_integer<unsigned long>(op);
    case MPI_UNSIGNED_LONG_LONG: return c_integer<unsigned long long>(op);
    case MPI_INT8_T: return c_integer<std::int8_t>(op);
    case MPI_INT16_T: return c_integer<std::int16_t>(op);
    case MPI_INT32_T: return c_integer<std::int32_t>(op);
    case MPI_INT64_T: return c_integer<std::int64_t>(op);
    case MPI_UINT8_T: return c_integer<std::uint8_t>(op);
    case MPI_UINT16_T: return c_integer<std::uint16_t>(op);
    case MPI_UINT32_T: return c_integer<std::uint32_t>(op);
    case MPI_UINT64_T: return c_integer<std::uint64_t>(op);
    case MPI_AINT: return multi_language<MPI_Aint>(op);
    case MPI_OFFSET: return multi_language<MPI_Offset>(op);
    case MPI_COUNT: return multi_language<MPI_Count>(op);
    case MPI_FLOAT: return floating<float>(op);
    case MPI_DOUBLE: return floating<double>(op);
    case MPI_LONG_DOUBLE: return floating<long double>(op);
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX: return complex<std::complex<float>>(op);
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX: return complex<std::complex<double>>(op);
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX: return complex<std::complex<long double>>(op);
    case MPI_C_BOOL:
    case MPI_CXX_BOOL: return logical(op);
    case MPI_BYTE: return byte(op);
    case MPI_FLOAT_INT: return pair<float>(op);
    case MPI_DOUBLE_INT: return pair<double>(op);
    case MPI_LONG_INT: return pair<long>(op);
    case MPI_2INT: return pair<int>(op);
    case MPI_SHORT_INT: return pair<short>(op);
    case MPI_LONG_DOUBLE_INT: return pair<long double>(op);
    default: return nullptr;  // MPI_WCHAR, MPI_PACKED
  }
}

}  // namespace ringmpi::dtype
