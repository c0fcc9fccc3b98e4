/* Reading the library's path counters (MPIX_Query_counter, include/mpi.h)
 * from MPI-level tests, so that a test can check that the path it aims at
 * ran. Include after check.h. */
#ifndef RINGMPI_TEST_COUNTER_H
#define RINGMPI_TEST_COUNTER_H
#include <mpi.h>

/* This rank's count. */
static inline long long counter(const char *name) {
  MPI_Count v = -1;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return (long long)v;
}

/* The sum over MPI_COMM_WORLD (collective). */
static inline long long counter_total(const char *name) {
  long long local = counter(name), total = 0;
  CHECK_MPI(MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
  return total;
}
#endif
