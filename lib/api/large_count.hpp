// The large-count (_c) bindings of MPI-4.1: how an MPI_Count count reaches
// the int-count code below lib/api (docs/design/large-counts.md).
//
// A count that fits an int is passed on unchanged: the _c call then costs
// the int call plus one comparison. A larger one becomes one element of a
// contiguous type of `count` elements (dtype::make_contiguous_c; the type
// layer and everything below it count bytes in 64 bits), so the message
// really moves and its type signature is the same.
#pragma once

#include <climits>
#include <vector>

#include "api/call.hpp"

namespace ringmpi::api {

// (count, datatype) of a _c call in the form the int code takes.
class Counted {
 public:
  Counted() = default;
  ~Counted();
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  // MPI_SUCCESS, or the dispatched error (a negative count, a bad datatype
  // when one must be built). `limit`: the largest count passed on as it is
  // (less than INT_MAX where the code below multiplies it by the number of
  // ranks, as the uniform displacements of MPI_Gather do).
  int set(Call& call, MPI_Count n, MPI_Datatype type, const char* count_arg, const char* type_arg,
          MPI_Count limit = INT_MAX) {
    if (__builtin_expect(n >= 0 && n <= limit, 1)) {
      count = static_cast<int>(n);
      datatype = type;
      return MPI_SUCCESS;
    }
    return widen(call, n, type, count_arg, type_arg);
  }
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;

 private:
  int widen(Call& call, MPI_Count n, MPI_Datatype type, const char* count_arg, const char* type_arg);
  MPI_Datatype temp_ = MPI_DATATYPE_NULL;  // released at the end of the call
};

// The count of a reduction that does not run in chunks (nonblocking,
// persistent) in *n: beyond INT_MAX it is one element of a contiguous type,
// which the predefined ops' kernels walk in 64-bit pieces. A user op cannot
// (its function must see the caller's datatype): the callers send those to
// the pieces path first (coll.cpp's reduce_pieces, forms::reduces_in_pieces),
// so here it is only a guard, MPI_ERR_UNSUPPORTED_OPERATION (`form` names
// the kind of call in the message: "nonblocking", "persistent").
int large_reduction(Call& call, MPI_Count count, MPI_Datatype datatype, MPI_Op op, const char* count_arg,
                    const char* form, Counted* n);

// A handle for t, committed, released when the holder dies (a pending
// operation keeps the type itself alive).
class TempType {
 public:
  TempType() = default;
  ~TempType();
  TempType(const TempType&) = delete;
  TempType& operator=(const TempType&) = delete;
  // MPI_DATATYPE_NULL when the table is full.
  MPI_Datatype adopt(dtype::TypePtr t);

 private:
  std::vector<MPI_Datatype> handles_;
};

}  // namespace ringmpi::api
