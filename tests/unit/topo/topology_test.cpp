#include <doctest/doctest.h>

#include <vector>

#include "mpi.h"
#include "topo/topology.hpp"

using namespace ringmpi::topo;

TEST_CASE("dims_create picks the most balanced non-increasing factorisation") {
  auto run = [](int n, std::vector<int> d) {
    CHECK(dims_create(n, static_cast<int>(d.size()), d.data()).empty());
    return d;
  };
  CHECK(run(12, {0, 0}) == std::vector<int>{4, 3});
  CHECK(run(16, {0, 0, 0}) == std::vector<int>{4, 2, 2});
  CHECK(run(7, {0, 0}) == std::vector<int>{7, 1});
  CHECK(run(36, {0, 0}) == std::vector<int>{6, 6});
  CHECK(run(24, {0, 3, 0}) == std::vector<int>{4, 3, 2});
  CHECK(run(6, {0, 0, 0, 0}) == std::vector<int>{3, 2, 1, 1});
  CHECK(run(1, {0, 0}) == std::vector<int>{1, 1});
  // Equal spreads (20 x 18 x 14 and 21 x 16 x 15): the larger smallest factor wins.
  CHECK(run(5040, {0, 0, 0}) == std::vector<int>{21, 16, 15});
  CHECK(run(360, {0, 0, 0}) == std::vector<int>{10, 6, 6});
  CHECK(balanced_factors(735134400, 20).size() == 20);
  std::vector<int> bad{5, 0};
  CHECK_FALSE(dims_create(12, 2, bad.data()).empty());
  std::vector<int> neg{-1};
  CHECK_FALSE(dims_create(4, 1, neg.data()).empty());
}

TEST_CASE("Cartesian rank/coords round trip and shifts at the edges") {
  Topology t;
  t.dims = {3, 4, 2};
  t.periods = {1, 0, 1};
  for (int r = 0; r < t.cart_size(); ++r) {
    int c[3];
    t.cart_coords(r, c);
    CHECK(t.cart_rank(c) == r);
  }
  int c[3] = {-1, 0, 3};  // periodic dims wrap
  CHECK(t.cart_rank(c) == 2 * 8 + 0 * 2 + 1);
  int off[3] = {0, 4, 0};  // non-periodic out of range
  CHECK(t.cart_rank(off) == -1);
  int src, dst;
  t.cart_shift(0, 1, 1, &src, &dst);  // coords (0,0,0) along dim 1
  CHECK(src == MPI_PROC_NULL);
  CHECK(dst == 2);
  t.cart_shift(0, 0, 1, &src, &dst);
  CHECK(src == 16);
  CHECK(dst == 8);
}

TEST_CASE("graph validation names the bad entry") {
  const int index[3] = {2, 1, 4};
  const int edges[4] = {1, 2, 0, 0};
  CHECK(graph_invalid(3, index, edges).find("index[1]") != std::string::npos);
  const int index2[2] = {1, 2};
  const int edges2[2] = {1, 5};
  CHECK(graph_invalid(2, index2, edges2).find("edges[1]=5") != std::string::npos);
}
