// MPI_Type_get_value_index (MPI-4.1 §6.9.4): the predefined pair type of
// MPI_MINLOC / MPI_MAXLOC for a (value, index) couple of types.
#include "api/call.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

struct Pair {
  MPI_Datatype value, index, pair;
};
// §6.9.4's table: the C pairs with an int index, the Fortran ones with an
// index of the value's own type.
const Pair kPairs[] = {
    {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
    {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
    {MPI_LONG, MPI_INT, MPI_LONG_INT},
    {MPI_INT, MPI_INT, MPI_2INT},
    {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
    {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
    {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    {MPI_REAL, MPI_REAL, MPI_2REAL},
    {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
};

}  // namespace

extern "C" {

int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype* pair_type) {
  Call call("MPI_Type_get_value_index");
  const dtype::Datatype* t;
  if (int e = call.datatype(value_type, "value_type", &t)) return e;
  if (int e = call.datatype(index_type, "index_type", &t)) return e;
  if (int e = call.not_null(pair_type, "pair_type")) return e;
  // A couple with no predefined pair type: MPI_DATATYPE_NULL (as MPICH
  // 4.2); the caller can build one with MPI_Type_create_struct.
  *pair_type = MPI_DATATYPE_NULL;
  for (const Pair& p : kPairs)
    if (p.value == value_type && p.index == index_type) *pair_type = p.pair;
  return MPI_SUCCESS;
}

}  // extern "C"
