// Placement down the whole hierarchy (packages, NUMA nodes, L3 and L2
// caches) on hwloc synthetic machines, with the levels and the placement
// functions the constructors use: neighbour pairs crossing each level under
// the identity, under the placement by packages and NUMA nodes only (what
// ringmpi did before it looked at caches) and under the full one. The
// counts are those of docs/design/topo.md.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "graphs.hpp"
#include "machine.hpp"
#include "topo/cart_map.hpp"
#include "topo/criterion.hpp"
#include "topo/levels.hpp"
#include "topo/reorder.hpp"

using namespace ringmpi::topo;
using namespace ringmpi::topo::testing;

namespace {

using std::size_t;

// Neighbour pairs crossing a package, a NUMA node, an L3, an L2 (hwloc's
// objects as they are; 0 where the machine has none).
using Crossings = std::vector<int>;

Crossings crossings(const CommGraph& g, const std::vector<Location>& where, const std::vector<int>& node_of) {
  Crossings c;
  for (int k : {kPackage, kNuma, kL3, kL2}) {
    std::vector<int> at(where.size());
    for (size_t p = 0; p < where.size(); ++p) at[static_cast<size_t>(node_of[p])] = where[p].at[k];
    int n = 0;
    for (int v = 0; v < g.size(); ++v)
      for (auto [u, w] : g.adj[static_cast<size_t>(v)])
        if (u > v && at[static_cast<size_t>(u)] != at[static_cast<size_t>(v)]) ++n;
    c.push_back(n);
  }
  return c;
}

std::string text(const Crossings& c) {
  std::ostringstream s;
  s << c[0] << "/" << c[1] << "/" << c[2] << "/" << c[3];
  return s.str();
}

// The locations with the caches forgotten: the levels ringmpi placed by
// before it looked at caches.
std::vector<Location> without_caches(std::vector<Location> where) {
  for (Location& l : where) l.at[kL3] = l.at[kL2] = l.at[kL1] = -1;
  return where;
}

struct Row {
  Crossings identity, coarse, placed;
};

// Checks what every placement must satisfy (a permutation, never worse than
// the identity lexicographically) and reports the row.
Row report(const std::string& what, const CommGraph& g, const std::vector<Location>& where,
           const std::vector<int>& coarse, const std::vector<int>& placed) {
  REQUIRE(std::set<int>(placed.begin(), placed.end()).size() == where.size());
  std::vector<int> identity(where.size());
  std::iota(identity.begin(), identity.end(), 0);
  const Row r{crossings(g, where, identity), crossings(g, where, coarse), crossings(g, where, placed)};
  MESSAGE(what << " package/NUMA/L3/L2 pairs: identity " << text(r.identity) << ", packages+NUMA only "
               << text(r.coarse) << ", all levels " << text(r.placed));
  CHECK(r.placed <= r.identity);
  CHECK(r.placed <= r.coarse);
  return r;
}

Row cart(const std::string& what, const std::vector<Location>& where, const std::vector<int>& dims,
         const std::vector<int>& periods) {
  const CommGraph g = grid_graph(dims, periods);
  const auto levels = placement_levels(where).domain, numa = placement_levels(without_caches(where)).domain;
  // Before: the bisection layout by NUMA node alone, kept when it beat the identity.
  std::vector<std::vector<int>> numa_only;
  for (size_t k = 0; k < numa.size(); ++k)
    if (placement_levels(without_caches(where)).kind[k] == kNuma) numa_only.push_back(numa[k]);
  const auto before = best_placement(g, numa_only, {place(bisection_order(dims), numa_only)});
  return report(what, g, where, before, cart_placement(dims, periods, levels));
}

Row graph(const std::string& what, const std::vector<Location>& where, const CommGraph& g) {
  const auto levels = placement_levels(where).domain, coarse = placement_levels(without_caches(where)).domain;
  return report(what, g, where, graph_placement_tree(g, coarse), graph_placement_tree(g, levels));
}

// The bindings: packed (process p on PU p), or round-robin over the
// objects of a level (process p on the (p / k)-th PU of object p % k).
std::vector<int> binding(const ringmpi::comm::NumaCache& m, const std::string& how, int n) {
  if (how == "by NUMA") return round_robin(m, HWLOC_OBJ_NUMANODE, n);
  if (how == "by L3") return round_robin(m, HWLOC_OBJ_L3CACHE, n);
  if (how == "by L2") return round_robin(m, HWLOC_OBJ_L2CACHE, n);
  return packed(m, n);
}

struct Case {
  const char* machine;
  const char* bind;
  int n;                      // processes
  std::vector<int> dims;      // a grid (periodic as `periodic` says), or
  int periodic;
  const char* graph;          // "shuffle" (-exchange) or "ring" (when dims is empty)
  Crossings identity, coarse, placed;  // package/NUMA/L3/L2 pairs (see Row)
};

constexpr const char* kCaches = "pack:2 numa:2 l3:2 core:2 pu:1";
constexpr const char* kNoCaches = "pack:2 numa:2 core:4 pu:1";
constexpr const char* kOneNuma = "l3:4 l2:2 core:2 pu:1";

// The rows of docs/design/topo.md's table.
const std::vector<Case> kCases = {
    // 2 packages x 2 NUMA nodes x 2 L3 x 2 cores (16 PUs).
    {kCaches, "packed", 16, {4, 4}, 0, "", {4, 12, 16, 0}, {4, 8, 16, 0}, {4, 8, 16, 0}},
    {kCaches, "by NUMA", 16, {4, 4}, 0, "", {4, 12, 16, 0}, {4, 8, 16, 0}, {4, 8, 16, 0}},
    {kCaches, "by L3", 16, {4, 4}, 0, "", {12, 16, 24, 0}, {4, 8, 16, 0}, {4, 8, 16, 0}},
    {kCaches, "by L3", 16, {4, 4}, 1, "", {16, 24, 32, 0}, {8, 16, 24, 0}, {8, 16, 24, 0}},
    {kCaches, "by NUMA", 16, {16}, 1, "", {8, 16, 16, 0}, {2, 4, 8, 0}, {2, 4, 8, 0}},
    {kCaches, "by L3", 16, {16}, 1, "", {4, 8, 16, 0}, {2, 4, 16, 0}, {2, 4, 8, 0}},
    {kCaches, "by NUMA", 16, {2, 8}, 0, "", {6, 14, 22, 0}, {2, 6, 14, 0}, {2, 6, 14, 0}},
    {kCaches, "packed", 16, {}, 0, "shuffle", {7, 11, 13, 0}, {3, 9, 13, 0}, {3, 9, 13, 0}},
    {kCaches, "by NUMA", 16, {}, 0, "shuffle", {7, 19, 21, 0}, {3, 9, 13, 0}, {3, 9, 13, 0}},
    {kCaches, "by L3", 16, {}, 0, "shuffle", {7, 11, 21, 0}, {3, 9, 19, 0}, {3, 9, 13, 0}},
    {kCaches, "by L3", 16, {}, 0, "ring", {4, 8, 16, 0}, {2, 4, 16, 0}, {2, 4, 8, 0}},
    {kCaches, "by NUMA", 12, {3, 4}, 0, "", {3, 9, 13, 0}, {3, 9, 13, 0}, {3, 9, 13, 0}},
    {kCaches, "by NUMA", 12, {}, 0, "ring", {6, 12, 12, 0}, {2, 4, 8, 0}, {2, 4, 8, 0}},
    // The machine, no caches: the Cartesian placement has a package level now.
    {kNoCaches, "by NUMA", 16, {4, 4}, 0, "", {4, 12, 0, 0}, {4, 8, 0, 0}, {4, 8, 0, 0}},
    {kNoCaches, "by NUMA", 16, {16}, 1, "", {8, 16, 0, 0}, {2, 4, 0, 0}, {2, 4, 0, 0}},
    {kNoCaches, "by NUMA", 16, {}, 0, "shuffle", {7, 19, 0, 0}, {3, 9, 0, 0}, {3, 9, 0, 0}},
    // One NUMA node, 4 L3 x 2 L2 x 2 cores: nothing moved before.
    {kOneNuma, "packed", 16, {4, 4}, 0, "", {0, 0, 12, 16}, {0, 0, 12, 16}, {0, 0, 8, 16}},
    {kOneNuma, "by L3", 16, {4, 4}, 0, "", {0, 0, 12, 16}, {0, 0, 12, 16}, {0, 0, 8, 16}},
    {kOneNuma, "by L2", 16, {4, 4}, 0, "", {0, 0, 16, 24}, {0, 0, 16, 24}, {0, 0, 8, 16}},
    {kOneNuma, "by L3", 16, {16}, 1, "", {0, 0, 16, 16}, {0, 0, 16, 16}, {0, 0, 4, 8}},
    {kOneNuma, "packed", 16, {}, 0, "shuffle", {0, 0, 11, 13}, {0, 0, 11, 13}, {0, 0, 9, 13}},
    {kOneNuma, "by L3", 16, {}, 0, "shuffle", {0, 0, 19, 21}, {0, 0, 19, 21}, {0, 0, 9, 13}},
    {kOneNuma, "by L2", 16, {}, 0, "shuffle", {0, 0, 11, 21}, {0, 0, 11, 21}, {0, 0, 9, 13}},
};

}  // namespace

TEST_CASE("down to the caches: neighbour pairs crossing each level, identity against placement") {
  for (const Case& c : kCases) {
    const auto m = machine(c.machine);
    const auto where = bound_to(*m, binding(*m, c.bind, c.n));
    std::ostringstream what;
    what << c.machine << ", " << c.bind << ", ";
    Row r;
    if (!c.dims.empty()) {
      what << "grid";
      for (int d : c.dims) what << " " << d;
      what << (c.periodic ? " periodic" : " open");
      r = cart(what.str(), where, c.dims, std::vector<int>(c.dims.size(), c.periodic));
    } else {
      what << (std::string(c.graph) == "ring" ? "ring" : "shuffle-exchange") << " " << c.n;
      r = graph(what.str(), where, std::string(c.graph) == "ring" ? ring(c.n) : shuffle_exchange(4));
    }
    CHECK(r.identity == c.identity);
    CHECK(r.coarse == c.coarse);
    CHECK(r.placed == c.placed);
  }
}

TEST_CASE("random graphs and bindings: never worse than the identity") {
  const auto m = machine("pack:2 numa:2 l3:2 l2:2 core:2 pu:1");
  std::uint32_t x = 2024;
  auto next = [&] { return x = x * 1664525u + 1013904223u; };
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 8 + static_cast<int>(next() % 25);  // 8..32 processes on distinct PUs
    std::vector<int> pus(32);
    std::iota(pus.begin(), pus.end(), 0);
    for (int i = 31; i > 0; --i)
      std::swap(pus[static_cast<size_t>(i)], pus[next() % static_cast<std::uint32_t>(i + 1)]);
    pus.resize(static_cast<size_t>(n));
    std::vector<WeightedEdge> e;
    for (int k = 0; k < 2 * n; ++k)
      e.push_back({static_cast<int>(next() % static_cast<std::uint32_t>(n)),
                   static_cast<int>(next() % static_cast<std::uint32_t>(n)), static_cast<std::int64_t>(next() % 5)});
    const CommGraph g = make_comm_graph(n, e);
    const auto levels = placement_levels(bound_to(*m, pus)).domain;
    std::vector<int> identity(static_cast<size_t>(n));
    std::iota(identity.begin(), identity.end(), 0);
    const auto placed = graph_placement_tree(g, levels);
    CHECK(std::set<int>(placed.begin(), placed.end()).size() == static_cast<size_t>(n));
    CHECK(level_cuts(g, levels, placed) <= level_cuts(g, levels, identity));
    const std::vector<int> dims{n / 4 > 0 ? 4 : 1, n / 4};
    if (dims[0] * dims[1] == n) {
      const auto cp = cart_placement(dims, {trial % 2, 0}, levels);
      CHECK(level_cuts(grid_graph(dims, {trial % 2, 0}), levels, cp) <=
            level_cuts(grid_graph(dims, {trial % 2, 0}), levels, identity));
    }
  }
}
