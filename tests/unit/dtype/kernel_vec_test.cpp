// The vectorised reduction kernels (lib/dtype/kernels.cpp, issue 36) against
// a scalar reference, for every (op, type) pair of the integer, floating,
// logical and byte groups: every length 0..67 (empty, shorter than one
// vector, the vector loop plus every tail) and lengths around the unrolled
// 128-byte loop's turn up to 1000 elements, buffers at odd byte offsets (the
// element type misaligned: MPI_Reduce_local may be handed packed bytes), and
// guard bytes after the end that must stay untouched; both the AVX2 clone
// and the baseline one. Floating values include
// NaN, infinities and signed zeros: MAX/MIN keep the inout value when either
// side is NaN, as the scalar `a > b ? a : b` does.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "dtype/kernels.hpp"
#include "dtype/op.hpp"

using namespace ringmpi::dtype;

namespace {

template <class T>
T ref(MPI_Op op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case MPI_LAND: return a && b;
      case MPI_LOR: return a || b;
      default: return a != b;  // MPI_LXOR
    }
  } else if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case MPI_MAX: return a > b ? a : b;
      case MPI_MIN: return a < b ? a : b;
      case MPI_SUM: return T(a + b);
      case MPI_PROD: return T(a * b);
      case MPI_LAND: return T(a != 0 && b != 0);
      case MPI_LOR: return T(a != 0 || b != 0);
      case MPI_LXOR: return T((a != 0) != (b != 0));
      case MPI_BAND: return T(a & b);
      case MPI_BOR: return T(a | b);
      default: return T(a ^ b);  // MPI_BXOR
    }
  } else {
    switch (op) {
      case MPI_MAX: return a > b ? a : b;
      case MPI_MIN: return a < b ? a : b;
      case MPI_SUM: return a + b;
      default: return a * b;  // MPI_PROD
    }
  }
}

// Value k of a sequence that mixes zeros, signs and (for floating types)
// the special values; integers small enough that a product cannot overflow.
template <class T>
T value(unsigned k) {
  const int small = int((k * 2654435761u) >> 27) - 16;  // -16..15, scrambled
  if constexpr (std::is_same_v<T, bool>) {
    return small > 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (k % 13) {
      case 3: return std::numeric_limits<T>::quiet_NaN();
      case 7: return std::numeric_limits<T>::infinity();
      case 8: return -std::numeric_limits<T>::infinity();
      case 9: return T(-0.0);
      case 10: return T(0.0);
      default: return T(small) / T(4);
    }
  } else if constexpr (std::is_signed_v<T>) {
    return T(small % 4 == 0 ? 0 : small);
  } else {
    return T(small < 0 ? 0 : small * 7);
  }
}

// Equal bit for bit, or both NaN (which NaN an addition of two returns
// depends on the operand order the compiler picked).
template <class T>
bool same(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) && std::isnan(y)) return true;
    if (std::isnan(x) != std::isnan(y)) return false;
    return x == y && std::signbit(x) == std::signbit(y);
  } else {
    return x == y;
  }
}

// Every length 0..67, then lengths around the 128-byte turn of the unrolled
// loop for every element size (1-byte types: 128 elements a turn) and one
// long run: the unrolled loop, the vectoriser's 32-byte loop, its 16-byte
// step and the last elements each run alone and after the others.
const std::vector<int> kLengths = [] {
  std::vector<int> v;
  for (int n = 0; n <= 67; ++n) v.push_back(n);
  for (int n : {95, 96, 97, 127, 128, 129, 143, 159, 160, 161, 255, 256, 257, 287, 1000}) v.push_back(n);
  return v;
}();

// Through dtype::reduce (the clone this CPU runs best), and the build
// target's clone called directly (`baseline`: on an AVX2 machine the SSE2
// code would otherwise go untested).
template <class T>
void check_type(MPI_Datatype h, std::initializer_list<MPI_Op> ops) {
  constexpr std::size_t S = sizeof(T);
  constexpr std::size_t kGuard = 16;
  for (bool baseline : {false, true})
  for (MPI_Op op : ops)
    for (int n : kLengths)
      for (std::size_t ain : {std::size_t(0), std::size_t(1), std::size_t(3)})
        for (std::size_t aio : {std::size_t(0), std::size_t(5), S})  // S: aligned, but not to the vector
        {
          CAPTURE(baseline);
          CAPTURE(op_name(op));
          CAPTURE(n);
          CAPTURE(ain);
          CAPTURE(aio);
          // Byte buffers: elements placed with memcpy at any offset.
          std::vector<unsigned char> in(ain + n * S + kGuard, 0xA5), io(aio + n * S + kGuard, 0x5A);
          std::vector<T> want(std::size_t(n) + 1);  // (+1: never empty, for .data())
          for (int i = 0; i < n; ++i) {
            const T a = value<T>(unsigned(i) * 3 + unsigned(n)), b = value<T>(unsigned(i) * 5 + 1);
            std::memcpy(in.data() + ain + i * S, &a, S);
            std::memcpy(io.data() + aio + i * S, &b, S);
            want[std::size_t(i)] = ref<T>(op, a, b);
          }
          const std::vector<unsigned char> in_before = in, io_before = io;
          if (baseline) {
            const Kernel k = kernel_for(op, h, Isa::baseline);
            REQUIRE(static_cast<bool>(k));
            k(in.data() + ain, io.data() + aio, std::size_t(n));
          } else {
            REQUIRE(reduce(op, in.data() + ain, io.data() + aio, n, h) == MPI_SUCCESS);
          }
          int bad = -1;  // the first element that differs
          for (int i = 0; i < n && bad < 0; ++i) {
            T got;
            std::memcpy(&got, io.data() + aio + i * S, S);
            if (!same<T>(got, want[std::size_t(i)])) bad = i;
          }
          CHECK(bad == -1);
          CHECK(in == in_before);  // the input is not written
          CHECK(std::memcmp(io.data(), io_before.data(), aio) == 0);
          CHECK(std::memcmp(io.data() + aio + n * S, io_before.data() + aio + n * S, kGuard) == 0);
        }
}

#define INTEGER_OPS \
  { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR }
#define FLOAT_OPS \
  { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD }

}  // namespace

TEST_CASE("vectorised kernels: C integer types, every op, lengths 0..67, misaligned buffers") {
  check_type<char>(MPI_CHAR, INTEGER_OPS);
  check_type<signed char>(MPI_SIGNED_CHAR, INTEGER_OPS);
  check_type<unsigned char>(MPI_UNSIGNED_CHAR, INTEGER_OPS);
  check_type<short>(MPI_SHORT, INTEGER_OPS);
  check_type<unsigned short>(MPI_UNSIGNED_SHORT, INTEGER_OPS);
  check_type<int>(MPI_INT, INTEGER_OPS);
  check_type<unsigned>(MPI_UNSIGNED, INTEGER_OPS);
  check_type<long>(MPI_LONG, INTEGER_OPS);
  check_type<unsigned long>(MPI_UNSIGNED_LONG, INTEGER_OPS);
  check_type<long long>(MPI_LONG_LONG, INTEGER_OPS);
  check_type<unsigned long long>(MPI_UNSIGNED_LONG_LONG, INTEGER_OPS);
  check_type<std::int8_t>(MPI_INT8_T, INTEGER_OPS);
  check_type<std::int16_t>(MPI_INT16_T, INTEGER_OPS);
  check_type<std::int32_t>(MPI_INT32_T, INTEGER_OPS);
  check_type<std::int64_t>(MPI_INT64_T, INTEGER_OPS);
  check_type<std::uint8_t>(MPI_UINT8_T, INTEGER_OPS);
  check_type<std::uint16_t>(MPI_UINT16_T, INTEGER_OPS);
  check_type<std::uint32_t>(MPI_UINT32_T, INTEGER_OPS);
  check_type<std::uint64_t>(MPI_UINT64_T, INTEGER_OPS);
  check_type<MPI_Aint>(MPI_AINT, INTEGER_OPS);
  check_type<MPI_Count>(MPI_COUNT, INTEGER_OPS);
}

TEST_CASE("vectorised kernels: Fortran integers, logical, bool and byte") {
  check_type<std::int32_t>(MPI_INTEGER, {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR, MPI_BXOR});
  check_type<std::int64_t>(MPI_INTEGER8, {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_BAND, MPI_BOR, MPI_BXOR});
  check_type<std::int32_t>(MPI_LOGICAL, {MPI_LAND, MPI_LOR, MPI_LXOR});
  check_type<bool>(MPI_C_BOOL, {MPI_LAND, MPI_LOR, MPI_LXOR});
  check_type<unsigned char>(MPI_BYTE, {MPI_BAND, MPI_BOR, MPI_BXOR});
}

TEST_CASE("vectorised kernels: floating types with NaN, infinities and signed zeros") {
  check_type<float>(MPI_FLOAT, FLOAT_OPS);
  check_type<double>(MPI_DOUBLE, FLOAT_OPS);
  check_type<long double>(MPI_LONG_DOUBLE, FLOAT_OPS);
  check_type<float>(MPI_REAL, FLOAT_OPS);
  check_type<double>(MPI_DOUBLE_PRECISION, FLOAT_OPS);
}

// The table every reduction looks its loop up in (resolved once) has a loop
// where the per-type switch has one, for every predefined op and type index, and
// nothing outside them; where it has a loop, the handle is a live
// predefined datatype (MPI_Reduce_local's fast path relies on that).
TEST_CASE("kernel table: the same loops as kernel_for, only for live predefined types") {
  int loops = 0;
  for (int o = 0; o < int(kKernelOps); ++o)
    for (int d = 0; d < int(kKernelTypes); ++d) {
      const MPI_Op op = RMPI_HANDLE(RMPI_KIND_OP, o);
      const MPI_Datatype t = RMPI_HANDLE(RMPI_KIND_DATATYPE, d);
      CAPTURE(o);
      CAPTURE(d);
      const Kernel k = predefined_kernel(op, t);
      // (kernel_for at Isa::best reads the table; the baseline clone comes
      // from the switch, defined for the same pairs.)
      const bool same_loop = k == kernel_for(op, t);
      CHECK(same_loop);
      CHECK(static_cast<bool>(k) == static_cast<bool>(kernel_for(op, t, Isa::baseline)));
      if (k) {
        ++loops;
        const Datatype* dt = lookup(t);
        REQUIRE(dt != nullptr);
        CHECK(dt->predefined);
        CHECK(dt->committed);
        CHECK(dt->handle == t);
        CHECK(dt->basic == t);
      }
    }
  CHECK(loops > 300);
  CHECK_FALSE(static_cast<bool>(predefined_kernel(RMPI_HANDLE(RMPI_KIND_OP, int(kKernelOps)), MPI_INT)));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_SUM, RMPI_HANDLE(RMPI_KIND_DATATYPE, int(kKernelTypes)))));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_SUM, MPI_DATATYPE_NULL)));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_OP_NULL, MPI_INT)));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_REPLACE, MPI_INT)));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_SUM, MPI_COMM_WORLD)));  // a handle of another kind
  CHECK_FALSE(static_cast<bool>(predefined_kernel(MPI_COMM_WORLD, MPI_INT)));
  CHECK_FALSE(static_cast<bool>(predefined_kernel(-1, -1)));
}
