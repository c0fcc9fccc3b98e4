// Arithmetic progressions, the unit of the group representation: a strided
// run first, first+stride, ..., first+(count-1)*stride of world ranks (or of
// group ranks, or of offsets inside a pattern).
#pragma once

#include <algorithm>

#include "group/arith.hpp"

namespace ringmpi::group {

struct Prog {
  i64 first = 0;
  i64 stride = 1;  // never 0 when count > 1; 1 by convention when count == 1
  i64 count = 0;

  i64 at(i64 j) const { return first + j * stride; }
  i64 last() const { return at(count - 1); }
  i64 lo() const { return stride >= 0 ? first : last(); }
  i64 hi() const { return stride >= 0 ? last() : first; }
  bool operator==(const Prog&) const = default;
};

inline Prog make_prog(i64 first, i64 stride, i64 count) {
  return count == 1 ? Prog{first, 1, 1} : Prog{first, stride, count};
}

// The same set of values in increasing order.
inline Prog increasing(const Prog& p) {
  return p.stride < 0 ? Prog{p.last(), -p.stride, p.count} : p;
}

// Index of v in p, or -1.
inline i64 prog_find(const Prog& p, i64 v) {
  if (p.count == 1) return v == p.first ? 0 : -1;
  const i64 d = v - p.first;
  if (d % p.stride != 0) return -1;
  const i64 j = d / p.stride;
  return (j >= 0 && j < p.count) ? j : -1;
}

// The indices j of a (in increasing order) whose value a.at(j) belongs to b;
// count 0 if none. O(log) by a congruence, whatever the counts.
inline Prog intersect_index(const Prog& a, const Prog& b) {
  const i64 blo = b.lo(), bhi = b.hi();
  const i64 bs = b.count > 1 ? abs64(b.stride) : 1;
  if (a.count == 1) {
    const i64 v = a.first;
    return (v >= blo && v <= bhi && (v - blo) % bs == 0) ? Prog{0, 1, 1} : Prog{0, 1, 0};
  }
  const i64 s = a.stride;
  i64 jlo, jhi;
  if (s > 0) {
    jlo = ceil_div(blo - a.first, s);
    jhi = floor_div(bhi - a.first, s);
  } else {
    jlo = ceil_div(bhi - a.first, s);
    jhi = floor_div(blo - a.first, s);
  }
  jlo = std::max<i64>(jlo, 0);
  jhi = std::min<i64>(jhi, a.count - 1);
  if (jlo > jhi) return {0, 1, 0};
  i64 step = 1;
  const i64 j0 = solve_congruence(s, blo - a.first, bs, &step);
  if (j0 < 0) return {0, 1, 0};
  const i64 j = jlo + mod(j0 - jlo, step);
  if (j > jhi) return {0, 1, 0};
  return make_prog(j, step, (jhi - j) / step + 1);
}

}  // namespace ringmpi::group
