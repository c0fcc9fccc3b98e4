/* DO(MPI_X, MPI_IX, args...): the blocking call, or, when the test's own
 * `nb` is non-zero, the nonblocking one completed at once by MPI_Wait; the
 * same checks then run through both forms. Include after check.h. */
#ifndef RINGMPI_TEST_EITHER_FORM_H
#define RINGMPI_TEST_EITHER_FORM_H
#include <mpi.h>

#define DO(blocking, nonblocking, ...)                         \
  (nb ? ({                                                     \
    MPI_Request r_;                                            \
    int e_ = nonblocking(__VA_ARGS__, &r_);                    \
    e_ == MPI_SUCCESS ? MPI_Wait(&r_, MPI_STATUS_IGNORE) : e_; \
  })                                                           \
      : blocking(__VA_ARGS__))
#endif
