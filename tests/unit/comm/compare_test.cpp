#include <doctest/doctest.h>

#include "comm/create.hpp"
#include "comm/round.hpp"

using namespace ringmpi;

namespace {

comm::Comm intra(std::vector<int> world) {
  comm::Comm c;
  c.local = c.remote = group::Group::from_world_ranks(world);
  c.peer_world = world;
  return c;
}

comm::Comm inter(std::vector<int> local, std::vector<int> remote) {
  comm::Comm c;
  c.local = group::Group::from_world_ranks(local);
  c.remote = group::Group::from_world_ranks(remote);
  c.peer_world = remote;
  c.inter = true;
  return c;
}

}  // namespace

TEST_CASE("MPI_Comm_compare on intracommunicators") {
  const comm::Comm a = intra({0, 1, 2}), b = intra({0, 1, 2}), c = intra({2, 0, 1}), d = intra({0, 1});
  CHECK(comm::compare(a, a) == MPI_IDENT);
  CHECK(comm::compare(a, b) == MPI_CONGRUENT);
  CHECK(comm::compare(a, c) == MPI_SIMILAR);
  CHECK(comm::compare(a, d) == MPI_UNEQUAL);
  CHECK(comm::compare(intra({0, 1}), intra({0, 2})) == MPI_UNEQUAL);
}

TEST_CASE("MPI_Comm_compare on intercommunicators") {
  const comm::Comm a = inter({0, 1}, {2, 3});
  CHECK(comm::compare(a, inter({0, 1}, {2, 3})) == MPI_CONGRUENT);
  CHECK(comm::compare(a, inter({1, 0}, {2, 3})) == MPI_SIMILAR);
  CHECK(comm::compare(a, inter({0, 1}, {3, 2})) == MPI_SIMILAR);
  CHECK(comm::compare(a, inter({0, 1}, {2})) == MPI_UNEQUAL);
  CHECK(comm::compare(a, inter({2, 3}, {0, 1})) == MPI_UNEQUAL);  // the sides swapped
  CHECK(comm::compare(a, intra({0, 1, 2, 3})) == MPI_UNEQUAL);    // inter vs intra
}

TEST_CASE("group fingerprints see members and order") {
  CHECK(comm::hash_ranks({0, 1, 2}) == comm::hash_ranks({0, 1, 2}));
  CHECK(comm::hash_ranks({0, 1, 2}) != comm::hash_ranks({0, 2, 1}));
  CHECK(comm::hash_ranks({}) != comm::hash_ranks({0}));
}
