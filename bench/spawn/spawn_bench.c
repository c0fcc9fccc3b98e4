/* MPI_Comm_spawn latency: from the call until the first message of every
 * child has arrived (the children are in MPI_Init, return from it, send one
 * int to parent rank 0, disconnect and finalize), for 1 and 4 children.
 * Standard MPI C: the same source runs under MPICH and Open MPI
 * (compare.py). Usage: mpiexec -n 1 ./spawn_bench [reps]  (default 20). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Send(&r, 1, MPI_INT, 0, 0, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int reps = argc > 1 ? atoi(argv[1]) : 20;
  double* t = malloc(sizeof(double) * (size_t)(reps > 0 ? reps : 1));
  for (int n = 1; n <= 4; n *= 4) {
    for (int k = 0; k < reps; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      MPI_Comm c;
      MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE);
      if (rank == 0)
        for (int i = 0; i < n; ++i) {
          int v;
          MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, c, MPI_STATUS_IGNORE);
        }
      t[k] = MPI_Wtime() - t0;
      MPI_Comm_disconnect(&c);
    }
    qsort(t, (size_t)reps, sizeof(double), cmp);
    if (rank == 0)
      printf("spawn %d: median %.2f ms, best %.2f ms (%d reps)\n", n, t[reps / 2] * 1e3, t[0] * 1e3, reps);
  }
  free(t);
  MPI_Finalize();
  return 0;
}
