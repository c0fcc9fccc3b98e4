// Reduction collectives on intracommunicators (MPI-3.1 §5.9-5.11).
//
// Operands are combined in rank order, x0 op x1 op ... op x(n-1), so that
// non-commutative user operations get the result the standard defines; the
// root receives every contribution (from the highest rank down) and folds
// each one in with op(in = x_i, inout = accumulator). Scans run along the
// rank chain. Each returns MPI_SUCCESS or the error of applying the op.
#pragma once

#include "coll/typed.hpp"
#include "mpi.h"

namespace ringmpi::coll {

struct Reduction {
  // A copy of the operation taken when the call starts, and the datatype the
  // call keeps alive: a nonblocking reduction still runs after the user frees
  // either handle (MPI-3.1 §5.9.5: MPI_OP_FREE marks the op for deallocation).
  dtype::Op op;
  MPI_Datatype type_handle;  // what a user function is given
  const dtype::Datatype* type;
  int count;
};

// `mine` is this rank's contribution; `result` matters at the root only.
int reduce(const comm::Comm& c, const Reduction& r, const void* mine, void* result, int root);
int allreduce(const comm::Comm& c, const Reduction& r, const void* mine, void* result);
// r.count is the total; rank i gets counts[i] elements of the result.
int reduce_scatter(const comm::Comm& c, const Reduction& r, const void* mine, void* result, const int* counts);
int scan(const comm::Comm& c, const Reduction& r, const void* mine, void* result, bool exclusive);

}  // namespace ringmpi::coll
