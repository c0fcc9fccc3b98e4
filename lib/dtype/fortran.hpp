// Fortran-sized and parameterized datatypes (MPI-3.1 §17.1.9):
// MPI_Type_match_size and MPI_Type_create_f90_{integer,real,complex}.
//
// The kinds are gfortran's: INTEGER(1/2/4/8) with decimal ranges 2, 4, 9,
// 18; REAL(4/8/16) with precision 6, 15, 33 and range 37, 307, 4931
// (REAL(16) only where MPI_REAL16 exists). gfortran's x87 REAL(10) has no MPI
// datatype, so (p, r) that SELECTED_REAL_KIND would map to it get REAL(16).
#pragma once

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

// The predefined MPI_INTEGERn / MPI_REALn / MPI_COMPLEXn of `size` bytes, or
// MPI_DATATYPE_NULL (typeclass is one of MPI_TYPECLASS_*).
MPI_Datatype match_size(int typeclass, int size);

// SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r) as the predefined type of
// that kind (MPI_INTEGERn, MPI_REALn), or MPI_DATATYPE_NULL when no kind has
// them; MPI_UNDEFINED for p or r asks nothing of it.
MPI_Datatype selected_int_type(int r);
MPI_Datatype selected_real_type(int p, int r);
// The complex type whose parts are `real` (MPI_REAL4 -> MPI_COMPLEX8 ...).
MPI_Datatype complex_of(MPI_Datatype real);

// The parameterized type of (combiner, p, r) over the predefined `basic`:
// created on first use, then the same handle (the standard's advice). It
// is predefined (MPI_Type_free refuses it) but unnamed; its envelope is
// combiner with the integers {r} (F90_INTEGER) or {p, r}. MPI_DATATYPE_NULL
// when the handle table is full.
MPI_Datatype f90_type(int combiner, int p, int r, MPI_Datatype basic);

}  // namespace ringmpi::dtype
