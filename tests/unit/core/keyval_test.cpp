// Keyval encoding and lifetime: garbage, stale and wrong-kind ints never
// decode; a freed keyval lives exactly as long as attributes use it.
#include <doctest/doctest.h>

#include "core/attributes.hpp"
#include "mpi.h"

using namespace ringmpi::core;

namespace {
int make(AttrObject o) {
  int k = MPI_KEYVAL_INVALID;
  REQUIRE(create_keyval(o, nullptr, nullptr, nullptr, &k) == MPI_SUCCESS);
  return k;
}
}  // namespace

TEST_CASE("keyvals decode only when valid") {
  const int k = make(AttrObject::comm);
  REQUIRE(find_keyval(k) != nullptr);
  CHECK(find_keyval(k)->object == AttrObject::comm);
  CHECK(find_keyval(MPI_KEYVAL_INVALID) == nullptr);
  CHECK(find_keyval(0) == nullptr);
  CHECK(find_keyval(-1) == nullptr);
  CHECK(find_keyval(MPI_COMM_WORLD) == nullptr);  // a handle of another kind
  CHECK(find_keyval(k ^ 0x00010000) == nullptr);  // another generation
  CHECK(find_keyval(k ^ 0x00C00000) == nullptr);  // claims to be a datatype keyval
  CHECK(find_keyval(k + 1000) == nullptr);        // an index never handed out
  const int t = make(AttrObject::datatype);
  CHECK(t != k);
  REQUIRE(find_keyval(t) != nullptr);
  CHECK(find_keyval(t)->object == AttrObject::datatype);
  free_keyval(k);
  free_keyval(t);
}

TEST_CASE("predefined keyvals are the environment attributes of MPI_COMM_WORLD") {
  for (int k : {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE, MPI_APPNUM}) {
    const Keyval* kv = find_keyval(k);
    REQUIRE(kv != nullptr);
    CHECK(kv->object == AttrObject::comm);
    CHECK(kv->env >= 0);
    CHECK(predefined_keyval_name(k) != nullptr);
  }
  CHECK(std::string(predefined_keyval_name(MPI_TAG_UB)) == "MPI_TAG_UB");
  const int before = live_keyvals();
  free_keyval(MPI_TAG_UB);  // ignored: predefined keyvals are never freed
  CHECK(find_keyval(MPI_TAG_UB) != nullptr);
  CHECK(live_keyvals() == before);

  AttributeSet none;
  void* v = nullptr;
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_WORLD, none, MPI_TAG_UB, &v));
  CHECK(*static_cast<int*>(v) == 2147483647);
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_WORLD, none, MPI_HOST, &v));
  CHECK(*static_cast<int*>(v) == MPI_PROC_NULL);
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_WORLD, none, MPI_IO, &v));
  CHECK(*static_cast<int*>(v) == MPI_ANY_SOURCE);
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_WORLD, none, MPI_WTIME_IS_GLOBAL, &v));
  CHECK(*static_cast<int*>(v) == 1);
  // Other communicators answer them too (as MPICH and Open MPI do), from
  // WORLD's values unless a dup of WORLD copied them there.
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_SELF, none, MPI_TAG_UB, &v));
  CHECK(*static_cast<int*>(v) == 2147483647);
  CHECK_FALSE(get_attribute(AttrObject::datatype, 0x4c000123, none, MPI_TAG_UB, &v));
  AttributeSet dup;
  REQUIRE(copy_attributes(AttrObject::comm, MPI_COMM_WORLD, none, dup) == MPI_SUCCESS);
  REQUIRE(get_attribute(AttrObject::comm, 0x44000123, dup, MPI_TAG_UB, &v));
  CHECK(*static_cast<int*>(v) == 2147483647);
  CHECK(delete_attributes(AttrObject::comm, 0x44000123, dup) == MPI_SUCCESS);
  CHECK(dup.entries.empty());
}

TEST_CASE("a freed keyval stays usable until its last attribute is deleted") {
  const int before = live_keyvals();
  const int k = make(AttrObject::comm);
  CHECK(live_keyvals() == before + 1);
  AttributeSet a, b;
  int x = 1, y = 2;
  REQUIRE(set_attribute(AttrObject::comm, 11, a, k, &x) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 12, b, k, &y) == MPI_SUCCESS);
  free_keyval(k);
  REQUIRE(find_keyval(k) != nullptr);
  CHECK(find_keyval(k)->freed);
  void* v = nullptr;
  REQUIRE(get_attribute(AttrObject::comm, 11, a, k, &v));
  CHECK(v == &x);
  REQUIRE(delete_attribute(AttrObject::comm, 11, a, k) == MPI_SUCCESS);
  CHECK(find_keyval(k) != nullptr);  // b still uses it
  REQUIRE(delete_attributes(AttrObject::comm, 12, b) == MPI_SUCCESS);
  CHECK(find_keyval(k) == nullptr);
  CHECK(live_keyvals() == before);
}

TEST_CASE("an unused keyval is released at once and its int never comes back") {
  const int k = make(AttrObject::datatype);
  free_keyval(k);
  CHECK(find_keyval(k) == nullptr);
  const int k2 = make(AttrObject::datatype);
  CHECK(k2 != k);
  CHECK(find_keyval(k) == nullptr);
  free_keyval(k2);
}
