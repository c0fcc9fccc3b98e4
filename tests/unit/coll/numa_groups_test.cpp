#include "coll/numa_groups.hpp"

#include <doctest/doctest.h>

using ringmpi::coll::group_by_node;

TEST_CASE("one node: one group, not worth two levels") {
  const auto g = group_by_node({0, 0, 0, 0});
  CHECK(g.count() == 1);
  CHECK(g.contiguous);
  CHECK_FALSE(g.two_level());
}

TEST_CASE("two nodes in halves: contiguous groups led by their lowest rank") {
  const auto g = group_by_node({1, 1, 0, 0, 0});
  REQUIRE(g.count() == 2);
  CHECK(g.members[0] == std::vector<int>{0, 1});
  CHECK(g.members[1] == std::vector<int>{2, 3, 4});
  CHECK(g.leader(1) == 2);
  CHECK(g.group_of[3] == 1);
  CHECK(g.contiguous);
  CHECK(g.two_level());
}

TEST_CASE("alternating nodes: interleaved groups are not contiguous") {
  const auto g = group_by_node({0, 1, 0, 1, 2, 2});
  REQUIRE(g.count() == 3);
  CHECK(g.members[0] == std::vector<int>{0, 2});
  CHECK(g.members[1] == std::vector<int>{1, 3});
  CHECK(g.members[2] == std::vector<int>{4, 5});
  CHECK_FALSE(g.contiguous);
  CHECK(g.two_level());
}

TEST_CASE("every member on its own node: two levels would be one") {
  const auto g = group_by_node({3, 2, 1});
  CHECK(g.count() == 3);
  CHECK_FALSE(g.two_level());
}
