/* For tests that force an internal path with a RINGMPI_* variable: before
 * MPI_Finalize, checks job-wide that the path was taken (a test that forces a
 * mode and passes on the default path proves nothing). Include after
 * check.h; define FORCED_PATH to the counter's name (MPIX_Query_counter,
 * include/mpi.h) and, optionally, FORCED_PATH_NOT to one that must stay 0
 * (and FORCED_PATH_ALSO / FORCED_PATH_NOT_ALSO: a second pair).
 * Every MPI_Finalize of the program then runs the check first (it is
 * collective: every rank calls MPI_Finalize). */
#ifndef RINGMPI_TEST_FORCED_PATH_H
#define RINGMPI_TEST_FORCED_PATH_H
#include <mpi.h>
#include <stdio.h>

#include "counter.h"

static void forced_path_check(int size, const char *forced, const char *not_taken) {
  const long long taken = counter_total(forced);
  if (size > 1 && taken == 0) {
    fprintf(stderr, "forced path %s was never taken\n", forced);
    CHECK(taken > 0);
  }
  if (not_taken) {
    const long long other = counter_total(not_taken);
    if (other != 0) fprintf(stderr, "path %s was taken %lld times although %s was forced\n", not_taken, other, forced);
    CHECK(other == 0);
  }
}

static int forced_path_finalize(void) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef FORCED_PATH_NOT
  forced_path_check(size, FORCED_PATH, FORCED_PATH_NOT);
#else
  forced_path_check(size, FORCED_PATH, NULL);
#endif
#ifdef FORCED_PATH_ALSO
#ifdef FORCED_PATH_NOT_ALSO
  forced_path_check(size, FORCED_PATH_ALSO, FORCED_PATH_NOT_ALSO);
#else
  forced_path_check(size, FORCED_PATH_ALSO, NULL);
#endif
#endif
  return MPI_Finalize();
}
#define MPI_Finalize forced_path_finalize
#endif
