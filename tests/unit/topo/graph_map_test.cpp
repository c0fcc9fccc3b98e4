// Graph reordering (topo::graph_placement) on hwloc synthetic machines:
// weighted neighbour pairs crossing a NUMA node under the identity and under
// the placement. The counts are those of docs/design/topo.md.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "graphs.hpp"
#include "synthetic.hpp"
#include "topo/graph_map.hpp"

using namespace ringmpi::topo;
using namespace ringmpi::topo::testing;

namespace {

// Weight of the edges crossing a NUMA node, and the neighbour pairs crossing.
struct Cut {
  std::int64_t identity, reordered;
  int pairs_identity, pairs_reordered;
};

int crossing_pairs(const CommGraph& g, const std::vector<int>& domain_at) {
  int n = 0;
  for (int v = 0; v < g.size(); ++v)
    for (auto [u, w] : g.adj[static_cast<std::size_t>(v)])
      if (u > v && domain_at[static_cast<std::size_t>(u)] != domain_at[static_cast<std::size_t>(v)]) ++n;
  return n;
}

// Places g on processes with these domains; checks that the placement is a
// permutation and returns both cuts.
Cut cut(const CommGraph& g, const std::vector<int>& domain) {
  const std::vector<int> node_of = graph_placement(g, domain);
  REQUIRE(node_of.size() == domain.size());
  std::vector<int> domain_at(domain.size(), -1);
  for (std::size_t p = 0; p < domain.size(); ++p) {
    REQUIRE(node_of[p] >= 0);
    REQUIRE(static_cast<std::size_t>(node_of[p]) < domain.size());
    REQUIRE(domain_at[static_cast<std::size_t>(node_of[p])] == -1);  // each node taken once
    domain_at[static_cast<std::size_t>(node_of[p])] = domain[p];
  }
  const Cut c{cut_weight(g, domain), cut_weight(g, domain_at), crossing_pairs(g, domain),
              crossing_pairs(g, domain_at)};
  MESSAGE("weight identity " << c.identity << ", reordered " << c.reordered << "; pairs identity "
                             << c.pairs_identity << ", reordered " << c.pairs_reordered);
  CHECK(c.reordered <= c.identity);
  return c;
}

std::vector<int> first(const std::vector<int>& v, std::size_t n) { return {v.begin(), v.begin() + static_cast<long>(n)}; }

}  // namespace

TEST_CASE("comm graph merges both directions and drops self loops") {
  const CommGraph g = make_comm_graph(3, {{0, 1, 2}, {1, 0, 3}, {1, 1, 5}, {2, 7, 1}, {1, 2, -4}});
  REQUIRE(g.adj[0].size() == 1);
  CHECK(g.adj[0][0] == std::pair<int, std::int64_t>{1, 5});
  CHECK(g.adj[1].size() == 2);
  CHECK(cut_weight(g, {0, 1, 1}) == 5);
  CHECK(cut_weight(g, {0, 0, 0}) == 0);
  // One domain, or a graph already cut optimally: the identity.
  CHECK(graph_placement(ring(8), std::vector<int>(8, 3)) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(graph_placement(ring(8), {0, 0, 0, 0, 1, 1, 1, 1}) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("2 packages x 2 NUMA nodes x 4 cores: graph reordering cuts NUMA-crossing pairs") {
  const std::vector<int> numa = numa_of_pus("pack:2 numa:2 core:4 pu:1");
  REQUIRE(numa.size() == 16);
  const auto scattered = domains(numa, 4, true), packed = domains(numa, 4, false);
  SUBCASE("shuffle-exchange, 16 nodes (the seed's graph)") {
    const CommGraph g = shuffle_exchange(4);
    // 21 neighbour pairs; each is listed on both ends (weight 2).
    const Cut s = cut(g, scattered);
    CHECK(s.pairs_identity == 19);
    CHECK(s.pairs_reordered == 9);
    CHECK(s.reordered == 18);
    const Cut p = cut(g, packed);
    CHECK(p.pairs_identity == 11);
    CHECK(p.pairs_reordered == 9);
  }
  SUBCASE("ring of 16") {
    const Cut s = cut(ring(16), scattered);
    CHECK(s.identity == 16);
    CHECK(s.reordered == 4);
    const Cut p = cut(ring(16), packed);
    CHECK(p.identity == 4);
    CHECK(p.reordered == 4);
  }
  SUBCASE("weights honoured: heavy pairs i, i+8 kept together") {
    std::vector<WeightedEdge> e;
    for (int i = 0; i < 8; ++i) e.push_back({i, i + 8, 10});
    for (int i = 0; i < 16; ++i) e.push_back({i, (i + 1) % 16, 1});
    const CommGraph g = make_comm_graph(16, e);
    const Cut p = cut(g, packed);
    CHECK(p.identity == 84);  // all 8 heavy pairs and 4 ring edges cross
    CHECK(p.reordered == 8);  // no heavy pair crosses; 8 ring edges do
    CHECK(p.pairs_reordered == 8);
  }
}

TEST_CASE("other machines: 2 NUMA x 8 cores, 4 NUMA x 3 cores with 10 processes") {
  const std::vector<int> two = numa_of_pus("numa:2 core:8 pu:1");
  const Cut s = cut(shuffle_exchange(4), domains(two, 2, true));
  CHECK(s.pairs_identity == 15);
  CHECK(s.pairs_reordered == 3);
  const std::vector<int> four = numa_of_pus("numa:4 core:3 pu:1");
  REQUIRE(four.size() == 12);
  // 10 processes scattered round-robin (uneven parts: 3, 3, 2, 2) on a ring.
  const Cut r = cut(ring(10), first(domains(four, 4, true), 10));
  CHECK(r.identity == 10);
  CHECK(r.reordered == 4);
}

TEST_CASE("random graphs: never worse than the identity") {
  const std::vector<int> numa = numa_of_pus("pack:2 numa:2 core:4 pu:1");
  std::uint32_t x = 12345;
  auto next = [&] { return x = x * 1664525u + 1013904223u; };
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<WeightedEdge> e;
    for (int k = 0; k < 24; ++k)
      e.push_back({static_cast<int>(next() % 16), static_cast<int>(next() % 16), static_cast<std::int64_t>(next() % 5)});
    const CommGraph g = make_comm_graph(16, e);
    const std::vector<int> d = domains(numa, 4, trial % 2 == 0);
    const std::vector<int> node_of = graph_placement(g, d);
    CHECK(std::set<int>(node_of.begin(), node_of.end()).size() == 16);
    std::vector<int> at(16);
    for (std::size_t p = 0; p < 16; ++p) at[static_cast<std::size_t>(node_of[p])] = d[p];
    CHECK(cut_weight(g, at) <= cut_weight(g, d));
  }
}

TEST_CASE("down the hwloc tree: packages first, then NUMA nodes") {
  const char* machine = "pack:2 numa:2 core:4 pu:1";
  const std::vector<int> numa = numa_of_pus(machine), pack = level_of_pus(machine, HWLOC_OBJ_PACKAGE);
  REQUIRE(level_of_pus(machine, HWLOC_OBJ_NUMANODE) == numa);
  REQUIRE(pack.size() == 16);
  const auto d_numa = domains(numa, 4, true), d_pack = domains(pack, 4, true);
  for (int k = 0; k < 16; ++k) CHECK(d_pack[static_cast<std::size_t>(k)] == d_numa[static_cast<std::size_t>(k)] / 2);
  int round = 0;
  for (const CommGraph& g : {shuffle_exchange(4), ring(16)}) {
    const std::vector<int> flat = graph_placement(g, d_numa), tree = graph_placement_tree(g, {d_pack, d_numa});
    auto crossing = [&](const std::vector<int>& node_of, const std::vector<int>& domain) {
      std::vector<int> at(16);
      for (std::size_t p = 0; p < 16; ++p) at[static_cast<std::size_t>(node_of[p])] = domain[p];
      return crossing_pairs(g, at);
    };
    const std::vector<int> id = [] {
      std::vector<int> v(16);
      for (int i = 0; i < 16; ++i) v[static_cast<std::size_t>(i)] = i;
      return v;
    }();
    const int pack_id = crossing(id, d_pack), pack_flat = crossing(flat, d_pack), pack_tree = crossing(tree, d_pack);
    const int numa_id = crossing(id, d_numa), numa_flat = crossing(flat, d_numa), numa_tree = crossing(tree, d_numa);
    MESSAGE("package pairs: identity " << pack_id << ", NUMA-only " << pack_flat << ", tree " << pack_tree
                                       << "; NUMA pairs: identity " << numa_id << ", NUMA-only " << numa_flat
                                       << ", tree " << numa_tree);
    CHECK(std::set<int>(tree.begin(), tree.end()).size() == 16);
    CHECK(pack_tree < pack_id);
    CHECK(pack_tree <= pack_flat);
    CHECK(numa_tree < numa_id);
    if (round++ == 0) {
      // Shuffle-exchange: half the package crossings of the NUMA-only
      // partition, as few NUMA crossings.
      CHECK(pack_id == 7);
      CHECK(pack_flat == 6);
      CHECK(pack_tree == 3);
      CHECK(numa_tree == 9);
    }
  }
}
