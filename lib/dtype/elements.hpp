// Basic elements of a datatype's type signature (MPI_Get_elements,
// MPI_Status_set_elements). Element boundaries are not in the layout (its
// blocks merge neighbouring elements), so these follow the constructor tree
// kept in Datatype::env.
#pragma once

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

// Basic elements in the first `bytes` stream bytes of (buf, any count, t);
// -1 when the bytes end inside a basic element.
MPI_Count elements_in(const Datatype& t, MPI_Count bytes);
// Stream bytes of the first n basic elements of (buf, any count, t); -1 when
// t has no basic elements but n > 0.
MPI_Count bytes_of_elements(const Datatype& t, MPI_Count n);

}  // namespace ringmpi::dtype
