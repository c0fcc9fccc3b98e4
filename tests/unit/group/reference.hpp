// A naive, enumerated model of MPI groups (vectors of world ranks) written
// straight from MPI-3.1 §5.3, to check the run-based algebra against.
#pragma once

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "mpi.h"

namespace ref {

using V = std::vector<int>;

inline int rank_of(const V& g, int w) {
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g[i] == w) return static_cast<int>(i);
  return MPI_UNDEFINED;
}

inline V incl(const V& g, const V& ranks) {
  V r;
  for (int k : ranks) r.push_back(g[static_cast<std::size_t>(k)]);
  return r;
}

inline V excl(const V& g, const V& ranks) {
  std::set<int> out(ranks.begin(), ranks.end());
  V r;
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!out.count(static_cast<int>(i))) r.push_back(g[i]);
  return r;
}

// The ranks a list of triples names, in order (§5.3.2), or false if a
// triple is malformed (stride 0, or running away from last).
inline bool expand(const std::vector<std::array<int, 3>>& t, V* ranks) {
  ranks->clear();
  for (const auto& [first, last, stride] : t) {
    if (stride == 0) return false;
    if ((stride > 0 && first > last) || (stride < 0 && first < last)) return false;
    for (long long k = first; stride > 0 ? k <= last : k >= last; k += stride) ranks->push_back(static_cast<int>(k));
  }
  return true;
}

inline bool valid_ranks(const V& ranks, std::size_t size) {
  std::set<int> seen;
  for (int r : ranks) {
    if (r < 0 || static_cast<std::size_t>(r) >= size || !seen.insert(r).second) return false;
  }
  return true;
}

inline V set_union(const V& a, const V& b) {
  std::set<int> in(a.begin(), a.end());
  V r = a;
  for (int w : b)
    if (!in.count(w)) r.push_back(w);
  return r;
}

inline V intersection(const V& a, const V& b) {
  std::set<int> in(b.begin(), b.end());
  V r;
  for (int w : a)
    if (in.count(w)) r.push_back(w);
  return r;
}

inline V difference(const V& a, const V& b) {
  std::set<int> in(b.begin(), b.end());
  V r;
  for (int w : a)
    if (!in.count(w)) r.push_back(w);
  return r;
}

inline int compare(const V& a, const V& b) {
  if (a == b) return MPI_IDENT;
  V x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace ref
