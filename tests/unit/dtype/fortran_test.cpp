// The kind selection behind MPI_Type_match_size and MPI_Type_create_f90_*
// (gfortran's kinds), and the cache of parameterized types.
#include <doctest/doctest.h>

#include "dtype/fortran.hpp"

using namespace ringmpi::dtype;

TEST_CASE("match_size returns the Fortran-sized predefined types") {
  CHECK(match_size(MPI_TYPECLASS_INTEGER, 1) == MPI_INTEGER1);
  CHECK(match_size(MPI_TYPECLASS_INTEGER, 2) == MPI_INTEGER2);
  CHECK(match_size(MPI_TYPECLASS_INTEGER, 4) == MPI_INTEGER4);
  CHECK(match_size(MPI_TYPECLASS_INTEGER, 8) == MPI_INTEGER8);
  CHECK(match_size(MPI_TYPECLASS_INTEGER, 16) == MPI_DATATYPE_NULL);
  CHECK(match_size(MPI_TYPECLASS_REAL, 4) == MPI_REAL4);
  CHECK(match_size(MPI_TYPECLASS_REAL, 8) == MPI_REAL8);
  CHECK(match_size(MPI_TYPECLASS_REAL, 16) == MPI_REAL16);  // MPI_DATATYPE_NULL without binary128
  CHECK(match_size(MPI_TYPECLASS_REAL, 10) == MPI_DATATYPE_NULL);
  CHECK(match_size(MPI_TYPECLASS_COMPLEX, 8) == MPI_COMPLEX8);
  CHECK(match_size(MPI_TYPECLASS_COMPLEX, 16) == MPI_COMPLEX16);
  CHECK(match_size(MPI_TYPECLASS_COMPLEX, 4) == MPI_DATATYPE_NULL);
  CHECK(match_size(0, 4) == MPI_DATATYPE_NULL);
}

TEST_CASE("SELECTED_INT_KIND / SELECTED_REAL_KIND as gfortran answers them") {
  CHECK(selected_int_type(1) == MPI_INTEGER1);
  CHECK(selected_int_type(2) == MPI_INTEGER1);
  CHECK(selected_int_type(3) == MPI_INTEGER2);
  CHECK(selected_int_type(5) == MPI_INTEGER4);
  CHECK(selected_int_type(9) == MPI_INTEGER4);
  CHECK(selected_int_type(10) == MPI_INTEGER8);
  CHECK(selected_int_type(18) == MPI_INTEGER8);
  CHECK(selected_int_type(19) == MPI_DATATYPE_NULL);
  CHECK(selected_real_type(6, MPI_UNDEFINED) == MPI_REAL4);
  CHECK(selected_real_type(MPI_UNDEFINED, 37) == MPI_REAL4);
  CHECK(selected_real_type(7, MPI_UNDEFINED) == MPI_REAL8);
  CHECK(selected_real_type(6, 38) == MPI_REAL8);
  CHECK(selected_real_type(15, 307) == MPI_REAL8);
  CHECK(selected_real_type(16, MPI_UNDEFINED) == MPI_REAL16);  // NULL without binary128
  CHECK(selected_real_type(34, MPI_UNDEFINED) == MPI_DATATYPE_NULL);
  CHECK(selected_real_type(MPI_UNDEFINED, 5000) == MPI_DATATYPE_NULL);
  CHECK(complex_of(MPI_REAL4) == MPI_COMPLEX8);
  CHECK(complex_of(MPI_REAL8) == MPI_COMPLEX16);
}

TEST_CASE("f90_type: one predefined, unnamed handle per (combiner, p, r)") {
  const MPI_Datatype a = f90_type(MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, MPI_REAL4);
  const MPI_Datatype b = f90_type(MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, MPI_REAL4);
  const MPI_Datatype c = f90_type(MPI_COMBINER_F90_REAL, 6, 37, MPI_REAL4);
  REQUIRE(a != MPI_DATATYPE_NULL);
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a != MPI_REAL4);
  const Datatype& t = *lookup(a);
  CHECK(t.predefined);
  CHECK(t.handle == a);
  CHECK(t.name.empty());
  CHECK(t.basic == MPI_REAL4);
  CHECK(t.size == 4);
  CHECK(t.env.combiner == MPI_COMBINER_F90_REAL);
  CHECK(t.env.ints == std::vector<int>{6, MPI_UNDEFINED});
  const Datatype& i = *lookup(f90_type(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 4, MPI_INTEGER2));
  CHECK(i.env.ints == std::vector<int>{4});
  CHECK(i.size == 2);
}
