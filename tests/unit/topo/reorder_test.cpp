// Reordering on hwloc synthetic machines: processes bound packed (rank r on
// PU r) or scattered (consecutive ranks on different NUMA nodes, as a
// round-robin launcher does), neighbour pairs that cross a NUMA node under
// the identity and under topo::place.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "topo/reorder.hpp"
#include "synthetic.hpp"

using namespace ringmpi::topo;
using namespace ringmpi::topo::testing;

namespace {

struct Cut {
  int identity, reordered;
};

// domain[p] of process p, positions laid out by `order`.
Cut cut(const std::vector<std::vector<int>>& adj, const std::vector<int>& order, const std::vector<int>& domain) {
  const std::vector<int> pos = place(order, {domain});
  std::vector<int> at(domain.size());
  for (std::size_t p = 0; p < domain.size(); ++p) at[static_cast<std::size_t>(pos[p])] = domain[p];
  return {crossing_pairs(adj, domain), crossing_pairs(adj, at)};
}

}  // namespace

TEST_CASE("bisection order visits a grid in compact halves") {
  CHECK(bisection_order({2, 2}) == std::vector<int>{0, 1, 2, 3});
  CHECK(bisection_order({2, 4}) == std::vector<int>{0, 1, 4, 5, 2, 3, 6, 7});
  CHECK(bisection_order({4}) == std::vector<int>{0, 1, 2, 3});
  std::vector<int> o = bisection_order({3, 5});
  std::sort(o.begin(), o.end());
  for (int i = 0; i < 15; ++i) CHECK(o[static_cast<std::size_t>(i)] == i);
  CHECK(breadth_first_order({{1}, {0, 2}, {1}, {}}) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("grid adjacency counts each neighbour pair once") {
  CHECK(crossing_pairs(grid_adjacency({4, 4}, {0, 0}), std::vector<int>(16, 0)) == 0);
  std::vector<int> alt(16);
  for (int i = 0; i < 16; ++i) alt[static_cast<std::size_t>(i)] = i;
  CHECK(crossing_pairs(grid_adjacency({4, 4}, {0, 0}), alt) == 24);
  CHECK(crossing_pairs(grid_adjacency({4, 4}, {1, 1}), alt) == 32);
  CHECK(crossing_pairs(grid_adjacency({2, 2}, {1, 1}), alt) == 4);
}

TEST_CASE("2 packages x 2 NUMA nodes x 4 cores: reordering cuts NUMA-crossing neighbour pairs") {
  const std::vector<int> numa = numa_of_pus("pack:2 numa:2 core:4 pu:1");
  REQUIRE(numa.size() == 16);
  const auto scattered = domains(numa, 4, true), packed = domains(numa, 4, false);
  // 4 x 4 grid, not periodic: 24 neighbour pairs.
  const auto grid = grid_adjacency({4, 4}, {0, 0});
  const Cut s = cut(grid, bisection_order({4, 4}), scattered);
  CHECK(s.identity == 12);
  CHECK(s.reordered == 8);
  const Cut p = cut(grid, bisection_order({4, 4}), packed);
  CHECK(p.identity == 12);
  CHECK(p.reordered == 8);
  // 4 x 4 periodic (32 pairs) and a 16-ring.
  const Cut sp = cut(grid_adjacency({4, 4}, {1, 1}), bisection_order({4, 4}), scattered);
  CHECK(sp.identity == 16);
  CHECK(sp.reordered == 16);
  const Cut ring = cut(grid_adjacency({16}, {1}), bisection_order({16}), scattered);
  CHECK(ring.identity == 16);
  CHECK(ring.reordered == 4);
}

TEST_CASE("other machines: 2 NUMA x 8 cores, 4 NUMA x 2 cores; a graph") {
  const std::vector<int> two = numa_of_pus("numa:2 core:8 pu:1");
  const Cut g = cut(grid_adjacency({4, 4}, {0, 0}), bisection_order({4, 4}), domains(two, 2, true));
  CHECK(g.identity == 12);
  CHECK(g.reordered == 4);
  const std::vector<int> four = numa_of_pus("numa:4 core:2 pu:1");
  const Cut h = cut(grid_adjacency({2, 4}, {0, 0}), bisection_order({2, 4}), domains(four, 4, true));
  // Already optimal under the identity (vertical pairs share a node): no worse.
  CHECK(h.identity == 6);
  CHECK(h.reordered == 6);
  // A path graph 0-1-...-7 over 4 nodes x 2 cores, scattered.
  std::vector<std::vector<int>> path(8);
  for (int i = 0; i + 1 < 8; ++i) {
    path[static_cast<std::size_t>(i)].push_back(i + 1);
    path[static_cast<std::size_t>(i + 1)].push_back(i);
  }
  const Cut pg = cut(path, breadth_first_order(path), domains(four, 4, true));
  CHECK(pg.identity == 7);
  CHECK(pg.reordered == 3);
}
