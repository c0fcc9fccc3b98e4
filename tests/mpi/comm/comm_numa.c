/* RMPI_COMM_TYPE_NUMA (ringmpi extension) on a synthetic two-node topology:
 * each rank binds itself to one of its allowed cpus and must land with the
 * ranks on the same synthetic node (OS cpu c is on node c % 2 of
 * "node:2 pu:1"; cpus the topology lacks fold onto its PUs). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv) {
  /* Before the first NUMA split, when ringmpi loads the topology. */
  setenv("HWLOC_SYNTHETIC", "node:2 pu:1", 1);
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  cpu_set_t allowed;
  CHECK(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
  int cpus[CPU_SETSIZE], n = 0;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[n++] = c;
  CHECK(n > 0);
  const int cpu = cpus[rank % n];
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
  const int node = cpu % 2;

  MPI_Comm numa, ref;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, RMPI_COMM_TYPE_NUMA, size - rank, MPI_INFO_NULL, &numa));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, node, size - rank, &ref));
  int res = -1;
  CHECK_MPI(MPI_Comm_compare(numa, ref, &res));
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Barrier(numa));

  /* MPI_UNDEFINED opts out while the others still split. */
  MPI_Comm part;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : RMPI_COMM_TYPE_NUMA, 0, MPI_INFO_NULL,
                                &part));
  if (rank == 0) {
    CHECK(part == MPI_COMM_NULL);
  } else {
    int a, b;
    CHECK_MPI(MPI_Comm_size(part, &a));
    CHECK_MPI(MPI_Comm_size(numa, &b));
    CHECK(a == b - (cpus[0] % 2 == node ? 1 : 0)); /* rank 0 sits on cpus[0] */
    CHECK_MPI(MPI_Comm_free(&part));
  }
  CHECK_MPI(MPI_Comm_free(&ref));
  CHECK_MPI(MPI_Comm_free(&numa));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
