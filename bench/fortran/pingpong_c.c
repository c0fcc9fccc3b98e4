/* The C side of pingpong.F90: the same loops, sizes and output
 * (mpiexec -n 1: MPI_Send to MPI_PROC_NULL; -n 2: the ping-pongs). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BIG_ITERS = 50, BIG = 4 * 1024 * 1024 };

static void pingpong(int rank, double *buf, int n, int iters) {
  const int peer = 1 - rank;
  for (int i = 0; i < iters; ++i) {
    if (rank == 0) {
      MPI_Send(buf, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, n, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks == 1) {
    /* PINGPONG_NULL_ITERS: the calls of a batch (as pingpong.F90). */
    const char *env = getenv("PINGPONG_NULL_ITERS");
    const int null_iters = env ? atoi(env) : 1000000;
    double x = 1, best = 1e300;
    for (int r = 0; r < 7; ++r) {
      double t = MPI_Wtime();
      for (int i = 0; i < null_iters; ++i) MPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
      t = (MPI_Wtime() - t) / null_iters;
      if (t < best) best = t;
    }
    printf("C:       MPI_Send to MPI_PROC_NULL %8.2f ns\n", best * 1e9);
    MPI_Finalize();
    return 0;
  }
  /* PINGPONG_ITERS: the round trips of an 8-byte batch. */
  const char *iters_env = getenv("PINGPONG_ITERS");
  const int small_iters = iters_env ? atoi(iters_env) : 50000;
  double small = 1, *large = calloc(BIG / 8, sizeof(double));
  double best_small = 1e300, best_big = 1e300;
  for (int r = 0; r < 7; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    pingpong(rank, &small, 1, small_iters);
    t = (MPI_Wtime() - t) / (2.0 * small_iters);
    if (t < best_small) best_small = t;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    pingpong(rank, large, BIG / 8, BIG_ITERS);
    t = (MPI_Wtime() - t) / (2.0 * BIG_ITERS);
    if (t < best_big) best_big = t;
  }
  if (rank == 0) printf("C:       8 B one-way %8.1f ns; 4 MiB %8.2f GB/s\n", best_small * 1e9, BIG / best_big / 1e9);
  free(large);
  MPI_Finalize();
  return 0;
}
