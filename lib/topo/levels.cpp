#include "topo/levels.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace ringmpi::topo {
namespace {

using std::size_t;

// Dense numbering of keys: equal keys get equal numbers, in key order.
template <class Key>
std::vector<int> number(const std::vector<Key>& keys) {
  std::vector<Key> sorted(keys);
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<int> out;
  out.reserve(keys.size());
  for (const Key& k : keys)
    out.push_back(static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), k) - sorted.begin()));
  return out;
}

// Sorted and deduplicated in place (the callers' copies are scratch): a
// std::set cost a node allocation per process on every reordering call.
int distinct(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
}

}  // namespace

Levels placement_levels(const std::vector<Location>& where) {
  const size_t n = where.size();
  // Processes all in one place (unbound on a machine of one NUMA node, as
  // usual when oversubscribed) have no level that splits them: say so before
  // building the per-level lists, which MPI_Cart_create with reorder would
  // otherwise build on every call.
  const auto same = [&](const Location& l) { return std::equal(l.at, l.at + kLevels, where[0].at); };
  if (n == 0 || std::all_of(where.begin(), where.end(), same)) return {};
  std::vector<std::pair<int, int>> order;  // (distinct objects, level)
  for (int k = 0; k < kLevels; ++k) {
    std::vector<int> raw;
    raw.reserve(n);
    for (const Location& l : where) raw.push_back(l.at[k]);
    if (std::find(raw.begin(), raw.end(), -1) == raw.end()) order.emplace_back(distinct(std::move(raw)), k);
  }
  std::sort(order.begin(), order.end());
  Levels out;
  std::vector<int> above(n, 0);  // the domains of the last kept level (one: the machine)
  int above_count = 1;
  for (const auto& [count, k] : order) {
    std::vector<std::pair<int, int>> key;
    key.reserve(n);
    for (size_t p = 0; p < n; ++p) key.emplace_back(above[p], where[p].at[k]);
    std::vector<int> domain = number(key);
    // number() numbers densely from 0, so the largest number tells how many.
    const int domains = domain.empty() ? 0 : *std::max_element(domain.begin(), domain.end()) + 1;
    if (domains == above_count) continue;             // splits nothing
    if (static_cast<size_t>(domains) == n) break;     // everyone alone, here and below
    out.kind.push_back(static_cast<Level>(k));
    out.domain.push_back(domain);
    above = std::move(domain);
    above_count = domains;
  }
  return out;
}

}  // namespace ringmpi::topo
