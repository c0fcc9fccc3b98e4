// How collectives cut a vector into per-rank blocks: pure functions, unit
// tested (tests/unit/coll).
#pragma once

#include <vector>

namespace ringmpi::coll {

// `count` elements in n blocks as even as can be: the first count % n blocks
// hold one element more (rank i folds block i of a reduction by blocks).
inline std::vector<int> even_counts(int count, int n) {
  std::vector<int> counts(static_cast<std::size_t>(n), count / n);
  for (int i = 0; i < count % n; ++i) ++counts[static_cast<std::size_t>(i)];
  return counts;
}

// Element displacements of consecutive blocks of counts[i] elements.
inline std::vector<int> prefix(int n, const int* counts) {
  std::vector<int> displs(static_cast<std::size_t>(n));
  for (int i = 1; i < n; ++i) displs[static_cast<std::size_t>(i)] = displs[static_cast<std::size_t>(i - 1)] + counts[i - 1];
  return displs;
}

}  // namespace ringmpi::coll
