#include "topo/levels.hpp"

#include <algorithm>
#include <cstddef>
#include <set>
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

int distinct(const std::vector<int>& v) { return static_cast<int>(std::set<int>(v.begin(), v.end()).size()); }

}  // namespace

Levels placement_levels(const std::vector<Location>& where) {
  const size_t n = where.size();
  std::vector<std::pair<int, int>> order;  // (distinct objects, level)
  for (int k = 0; k < kLevels; ++k) {
    std::vector<int> raw;
    for (const Location& l : where) raw.push_back(l.at[k]);
    if (std::find(raw.begin(), raw.end(), -1) == raw.end()) order.emplace_back(distinct(raw), k);
  }
  std::sort(order.begin(), order.end());
  Levels out;
  std::vector<int> above(n, 0);  // the domains of the last kept level (one: the machine)
  int above_count = 1;
  for (const auto& [count, k] : order) {
    std::vector<std::pair<int, int>> key;
    for (size_t p = 0; p < n; ++p) key.emplace_back(above[p], where[p].at[k]);
    std::vector<int> domain = number(key);
    const int domains = distinct(domain);
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
