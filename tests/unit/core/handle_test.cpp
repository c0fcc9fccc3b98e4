#include <doctest/doctest.h>

#include "core/handle.hpp"

using namespace ringmpi::core;

TEST_CASE("handles encode kind, index and generation; freed and foreign handles resolve to nothing") {
  HandleTable<int> t(Kind::comm);
  const int pre = t.put_predefined(1, std::make_unique<int>(7));
  CHECK(pre == MPI_COMM_WORLD);
  REQUIRE(t.get(MPI_COMM_WORLD) != nullptr);
  CHECK(*t.get(MPI_COMM_WORLD) == 7);
  CHECK(t.get(MPI_COMM_NULL) == nullptr);
  CHECK(t.get(MPI_GROUP_EMPTY) == nullptr);  // right index, wrong kind
  CHECK(t.get(0) == nullptr);
  CHECK(t.get(-1) == nullptr);
  CHECK(t.get(12345) == nullptr);

  const int a = t.add(std::make_unique<int>(1));
  CHECK(handle_is(a, Kind::comm));
  CHECK(*t.get(a) == 1);
  CHECK(t.remove(a) != nullptr);
  CHECK(t.get(a) == nullptr);  // freed
  const int b = t.add(std::make_unique<int>(2));
  CHECK(handle_index(b) == handle_index(a));  // slot reused...
  CHECK(b != a);                              // ...under a new generation
  CHECK(t.get(a) == nullptr);
  CHECK(*t.get(b) == 2);
  CHECK(t.remove(MPI_COMM_WORLD) == nullptr);  // predefined objects cannot be removed
  CHECK(t.live() == 1);
}
