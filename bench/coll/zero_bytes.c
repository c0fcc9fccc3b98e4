/* Zero-byte collectives (issue 36, as IMB's 0-byte rows): the time per call
 * of each collective with count 0, back to back, the slowest rank's mean,
 * the best of REPS repetitions. Standard MPI C (builds against any MPI).
 *
 *   mpiexec -n 2 zero_bytes [ITERS [REPS [COUNT]]]      one line per call: NAME US
 *
 * COUNT (default 0): ints per block instead, e.g. 1 for the 4-byte calls
 * whose cost is mostly the entry path (bench/coll/entry_cost.c counts it). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL, RSB, SCAN, EXSCAN, IALLREDUCE, NCALLS };
static const char* const names[NCALLS] = {"bcast",  "reduce",   "allreduce",           "gather",
                                          "scatter", "allgather", "alltoall",           "reduce_scatter_block",
                                          "scan",   "exscan",   "iallreduce+wait"};

static int n = 0;  /* COUNT */

static void call(int which, int i, int np) {
  static int s[4096], r[4096]; /* COUNT x ranks at most */
  MPI_Request q;
  const int root = i % np;
  switch (which) {
    case BCAST: MPI_Bcast(r, n, MPI_INT, root, MPI_COMM_WORLD); break;
    case REDUCE: MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case GATHER: MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD); break;
    case SCATTER: MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD); break;
    case ALLGATHER: MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD); break;
    case RSB: MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case SCAN: MPI_Scan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case EXSCAN: MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
    case IALLREDUCE:
      MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      break;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const int iters = argc > 1 ? atoi(argv[1]) : 20000, reps = argc > 2 ? atoi(argv[2]) : 3;
  n = argc > 3 ? atoi(argv[3]) : 0;
  if (n < 0 || (long)n * np > 4096) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int w = 0; w < NCALLS; ++w) {
    double best = 1e30;
    for (int k = 0; k < reps; ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      for (int i = 0; i < iters; ++i) call(w, i, np);
      double us = (MPI_Wtime() - t0) * 1e6 / iters, worst;
      MPI_Allreduce(&us, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (worst < best) best = worst;
    }
    if (rank == 0) printf("%s %.4f\n", names[w], best);
  }
  MPI_Finalize();
  return 0;
}
