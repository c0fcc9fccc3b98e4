// Integer helpers for the group algebra: floor division and congruences.
//
// Group members are world ranks (ints), but the algebra multiplies strides by
// counts and solves congruences, so everything is done in 64 bits and the
// products inside the solver in 128 bits.
#pragma once

#include <cstdint>
#include <numeric>

namespace ringmpi::group {

using i64 = std::int64_t;

inline i64 floor_div(i64 a, i64 b) {
  i64 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline i64 ceil_div(i64 a, i64 b) { return -floor_div(-a, b); }
// a mod m in [0, m) for m > 0.
inline i64 mod(i64 a, i64 m) {
  i64 r = a % m;
  return r < 0 ? r + m : r;
}
inline i64 abs64(i64 a) { return a < 0 ? -a : a; }

// lcm(a, b) for positive a, b, or `cap` + 1 if it exceeds cap.
inline i64 lcm_capped(i64 a, i64 b, i64 cap) {
  const i64 g = std::gcd(a, b);
  const __int128 l = static_cast<__int128>(a / g) * b;
  return l > cap ? cap + 1 : static_cast<i64>(l);
}

// Smallest x >= 0 with a*x == b (mod m), m > 0, or -1 if there is none.
// On success *step is the period of the solutions (m / gcd(a, m)).
inline i64 solve_congruence(i64 a, i64 b, i64 m, i64* step) {
  a = mod(a, m);
  b = mod(b, m);
  const i64 g = std::gcd(a, m);  // gcd(0, m) == m
  if (b % g != 0) return -1;
  const i64 mg = m / g;
  *step = mg;
  if (mg == 1) return 0;
  // Inverse of a/g modulo m/g by the extended Euclidean algorithm.
  i64 r0 = mod(a / g, mg), r1 = mg, s0 = 1, s1 = 0;
  while (r1 != 0) {
    const i64 q = r0 / r1;
    i64 t = r0 - q * r1;
    r0 = r1;
    r1 = t;
    t = s0 - q * s1;
    s0 = s1;
    s1 = t;
  }
  const __int128 x = static_cast<__int128>(mod(s0, mg)) * (b / g) % mg;
  return static_cast<i64>(x);
}

}  // namespace ringmpi::group
