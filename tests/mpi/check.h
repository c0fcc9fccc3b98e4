/* Tiny assertion helpers for MPI-level tests: a failed check names the rank,
 * the file and line and the expression, then aborts the job with code 3. */
#ifndef RINGMPI_TEST_CHECK_H
#define RINGMPI_TEST_CHECK_H
#include <mpi.h>
#include <stdio.h>

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      int check_rank_ = -1;                                                                 \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                          \
      fprintf(stderr, "CHECK failed on rank %d at %s:%d: %s\n", check_rank_, __FILE__,      \
              __LINE__, #cond);                                                             \
      fflush(stderr);                                                                       \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                         \
    }                                                                                       \
  } while (0)

#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)
#endif
