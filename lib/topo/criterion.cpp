#include "topo/criterion.hpp"

#include <cstddef>
#include <numeric>

namespace ringmpi::topo {
namespace {

using std::size_t;

bool is_permutation_of_n(const std::vector<int>& v, size_t n) {
  if (v.size() != n) return false;
  std::vector<char> seen(n, 0);
  for (int x : v) {
    if (x < 0 || static_cast<size_t>(x) >= n || seen[static_cast<size_t>(x)]) return false;
    seen[static_cast<size_t>(x)] = 1;
  }
  return true;
}

}  // namespace

std::vector<std::int64_t> level_cuts(const CommGraph& g, const std::vector<std::vector<int>>& levels,
                                     const std::vector<int>& node_of) {
  std::vector<std::int64_t> cuts;
  std::vector<int> at_node(node_of.size());
  for (const auto& l : levels) {
    for (size_t p = 0; p < node_of.size(); ++p) at_node[static_cast<size_t>(node_of[p])] = l[p];
    cuts.push_back(cut_weight(g, at_node));
  }
  return cuts;
}

std::vector<int> best_placement(const CommGraph& g, const std::vector<std::vector<int>>& levels,
                                const std::vector<std::vector<int>>& candidates) {
  const size_t n = static_cast<size_t>(g.size());
  std::vector<int> best(n);
  std::iota(best.begin(), best.end(), 0);
  for (const auto& l : levels)
    if (l.size() != n) return best;
  std::vector<std::int64_t> best_cuts = level_cuts(g, levels, best);
  for (const auto& c : candidates) {
    if (!is_permutation_of_n(c, n)) continue;
    std::vector<std::int64_t> cuts = level_cuts(g, levels, c);
    if (cuts < best_cuts) best = c, best_cuts = std::move(cuts);
  }
  return best;
}

}  // namespace ringmpi::topo
