// User-added error classes, codes and strings, and MPI_LASTUSEDCODE.
#include <doctest/doctest.h>

#include "core/attributes.hpp"
#include "core/errors.hpp"
#include "mpi.h"

using namespace ringmpi::core;

TEST_CASE("added classes and codes extend the registry and MPI_LASTUSEDCODE") {
  const int last = last_used_code();
  CHECK(last >= MPI_ERR_LASTCODE);
  const int cls = add_error_class();
  CHECK(cls == last + 1);
  CHECK(is_error_class(cls));
  CHECK(is_user_code(cls));
  CHECK(error_class_of(cls) == cls);
  const int code = add_error_code(cls);
  CHECK(code == cls + 1);
  CHECK(error_class_of(code) == cls);
  CHECK_FALSE(is_error_class(code));
  CHECK(is_user_code(code));
  const int code2 = add_error_code(MPI_ERR_RANK);
  CHECK(error_class_of(code2) == MPI_ERR_RANK);
  CHECK(last_used_code() == code2);

  CHECK(error_string(code).empty());  // MPI-3.1 §8.5: "" until a string is added
  set_error_string(code, "disk on fire");
  CHECK(error_string(code) == "disk on fire");
  set_error_string(code, "replaced");
  CHECK(error_string(code) == "replaced");

  void* v = nullptr;
  AttributeSet none;
  REQUIRE(get_attribute(AttrObject::comm, MPI_COMM_WORLD, none, MPI_LASTUSEDCODE, &v));
  CHECK(*static_cast<int*>(v) == code2);
  const int more = add_error_class();
  CHECK(*static_cast<int*>(v) == more);  // the same int, updated in place
}

TEST_CASE("predefined classes are classes; unused values are not") {
  CHECK(is_error_class(MPI_SUCCESS));
  CHECK(is_error_class(MPI_ERR_KEYVAL));
  CHECK(is_error_class(MPI_ERR_RMA_FLAVOR));
  CHECK(is_error_class(MPI_T_ERR_INVALID));  // the last class of MPI-3.1's tool interface
  CHECK(is_error_class(MPI_ERR_SESSION));    // MPI-4.0 ...
  CHECK(is_error_class(MPI_T_ERR_NOT_SUPPORTED));  // ... the last predefined class, = MPI_ERR_LASTCODE
  CHECK_FALSE(is_error_class(last_used_code() + 1));
  CHECK_FALSE(is_error_class(-3));
  CHECK_FALSE(is_user_code(MPI_ERR_LASTCODE));
  CHECK_FALSE(is_user_code(last_used_code() + 1));
  CHECK(error_class_of(last_used_code() + 1) == -1);
}
