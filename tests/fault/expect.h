/* EXPECT(call, class): the call's error code must be of that class, or the
 * job aborts (code 5) naming the rank, line and call. For the bad-input
 * programs' "returns" mode (MPI_ERRORS_RETURN); needs a global `rank`. */
#ifndef RINGMPI_FAULT_EXPECT_H
#define RINGMPI_FAULT_EXPECT_H
#include <mpi.h>
#include <stdio.h>

#define EXPECT(call, cls)                                                                  \
  do {                                                                                     \
    int e_ = (call);                                                                       \
    int c_ = -1;                                                                           \
    MPI_Error_class(e_, &c_);                                                              \
    if (c_ != (cls)) {                                                                     \
      fprintf(stderr, "rank %d line %d: %s gave class %d, expected %s\n", rank, __LINE__, \
              #call, c_, #cls);                                                            \
      MPI_Abort(MPI_COMM_WORLD, 5);                                                        \
    }                                                                                      \
  } while (0)
#endif
