// Where a process runs (topo::location_of) and the levels the placement
// tells processes apart by (topo::placement_levels), on hwloc synthetic
// machines.
#include <doctest/doctest.h>

#include <vector>

#include "machine.hpp"
#include "topo/levels.hpp"

using namespace ringmpi::topo;
using namespace ringmpi::topo::testing;

namespace {

std::vector<int> at(const Location& l) { return {l.at, l.at + kLevels}; }

}  // namespace

TEST_CASE("location: package, NUMA node and caches of a bound process") {
  // 2 packages x 2 NUMA nodes x 2 L3 x 2 L2 x 2 cores: 32 PUs.
  const auto m = machine("pack:2 numa:2 l3:2 l2:2 core:2 pu:1");
  CHECK(at(location_of(*m, {0}, 0)) == std::vector<int>{0, 0, 0, 0, -1});  // no L1 in this machine
  CHECK(at(location_of(*m, {1}, 1)) == std::vector<int>{0, 0, 0, 0, -1});
  CHECK(at(location_of(*m, {2}, 2)) == std::vector<int>{0, 0, 0, 1, -1});
  CHECK(at(location_of(*m, {5}, 5)) == std::vector<int>{0, 0, 1, 2, -1});
  CHECK(at(location_of(*m, {9}, 9)) == std::vector<int>{0, 1, 2, 4, -1});
  CHECK(at(location_of(*m, {31}, 31)) == std::vector<int>{1, 3, 7, 15, -1});
  // Bound to a whole L3: no L2; to a NUMA node: no cache.
  CHECK(at(location_of(*m, {4, 5, 6, 7}, 6)) == std::vector<int>{0, 0, 1, -1, -1});
  CHECK(at(location_of(*m, {8, 12}, 12)) == std::vector<int>{0, 1, -1, -1, -1});
  // Unbound: the NUMA node (and its package) of where it runs now, no cache.
  std::vector<int> all;
  for (int c = 0; c < 32; ++c) all.push_back(c);
  CHECK(at(location_of(*m, all, 20)) == std::vector<int>{1, 2, -1, -1, -1});
  // A cpu the machine lacks folds onto its PUs (cpu % 32), as for NUMA nodes.
  CHECK(at(location_of(*m, {33}, 33)) == at(location_of(*m, {1}, 1)));
}

TEST_CASE("location: a machine without packages or caches, and one with L1") {
  const auto flat = machine("numa:2 core:2 pu:1");
  CHECK(at(location_of(*flat, {3}, 3)) == std::vector<int>{-1, 1, -1, -1, -1});
  const auto smt = machine("numa:1 l2:2 l1:2 core:1 pu:2");  // 2 PUs share a core and its L1
  CHECK(at(location_of(*smt, {5}, 5)) == std::vector<int>{-1, 0, -1, 1, 2});
}

TEST_CASE("levels: ordered coarse to fine, nested, only those that tell processes apart") {
  const auto m = machine("pack:2 numa:2 l3:2 l2:2 core:2 pu:1");
  SUBCASE("16 processes packed on PUs 0-15: one package; NUMA nodes, L3s, L2s") {
    const Levels l = placement_levels(bound_to(*m, packed(*m, 16)));
    REQUIRE(l.kind == std::vector<Level>{kNuma, kL3, kL2});
    CHECK(l.domain[0] == std::vector<int>{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1});
    CHECK(l.domain[1] == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
    CHECK(l.domain[2] == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7});
  }
  SUBCASE("32 processes: every level down to the L2 (the L1 level is absent)") {
    const Levels l = placement_levels(bound_to(*m, packed(*m, 32)));
    CHECK(l.kind == std::vector<Level>{kPackage, kNuma, kL3, kL2});
  }
  SUBCASE("one process per L2: the L2 level puts everyone alone and is dropped") {
    const Levels l = placement_levels(bound_to(*m, round_robin(*m, HWLOC_OBJ_L2CACHE, 16)));
    CHECK(l.kind == std::vector<Level>{kPackage, kNuma, kL3});
  }
  SUBCASE("an unbound process: no cache level") {
    std::vector<Location> where = bound_to(*m, packed(*m, 16));
    where[3].at[kL3] = where[3].at[kL2] = -1;
    CHECK(placement_levels(where).kind == std::vector<Level>{kNuma});
  }
  SUBCASE("all on one L2, or alone: nothing to tell apart") {
    CHECK(placement_levels(bound_to(*m, {0, 1})).empty());
    CHECK(placement_levels(bound_to(*m, {0, 31})).empty());
    CHECK(placement_levels({}).empty());
  }
}

TEST_CASE("levels: an L3 holding two NUMA nodes (sub-NUMA clustering) comes first") {
  const auto m = machine("pack:2 l3:1 numa:2 core:4 pu:1");
  const Levels l = placement_levels(bound_to(*m, packed(*m, 16)));
  // Package and L3 coincide: the L3 splits nothing and is dropped.
  CHECK(l.kind == std::vector<Level>{kPackage, kNuma});
  const auto snc = machine("l3:2 numa:2 core:2 pu:1");  // no package objects
  CHECK(placement_levels(bound_to(*snc, packed(*snc, 8))).kind == std::vector<Level>{kL3, kNuma});
}
