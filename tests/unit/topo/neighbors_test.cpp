// The neighbourhood a neighbourhood collective uses (topo::neighbors_of) and
// the copy a topology keeps of it (topo::cached_neighbors).
#include <doctest/doctest.h>

#include <vector>

#include "mpi.h"
#include "topo/neighbors.hpp"

using namespace ringmpi::topo;

TEST_CASE("Cartesian neighbours: per dimension negative then positive, PROC_NULL off an open edge") {
  Topology t;
  t.kind = Topology::Kind::cart;
  t.dims = {2, 3};
  t.periods = {0, 1};
  const Neighbors n = neighbors_of(t, 0);  // coords (0, 0)
  CHECK(n.sources == std::vector<int>{MPI_PROC_NULL, 3, 2, 1});
  CHECK(n.destinations == n.sources);
}

TEST_CASE("cached neighbours: computed once per topology, recomputed for another rank") {
  Topology t;
  t.kind = Topology::Kind::graph;
  t.index = {1, 3, 4};
  t.edges = {1, 0, 2, 1};
  const auto a = cached_neighbors(t, 1);
  CHECK(a->sources == std::vector<int>{0, 2});
  CHECK(a->recv_order == std::vector<int>{0, 1});
  CHECK(cached_neighbors(t, 1) == a);  // the same object: no work on later calls
  const auto b = cached_neighbors(t, 0);
  CHECK(b->sources == std::vector<int>{1});
  CHECK(a->sources == std::vector<int>{0, 2});  // a caller's copy stays valid
  // A copy of the topology (a dup's) starts from the same cache.
  const Topology u = t;
  CHECK(cached_neighbors(u, 0) == b);
}
