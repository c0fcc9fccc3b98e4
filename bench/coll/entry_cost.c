/* The entry cost of one collective (issue 36): CALL run ITERS times back to
 * back at COUNT ints per block (0: zero bytes, 1: 4 B), the root rotating
 * (i % np). Built to be counted with callgrind at two ITERS values, the
 * difference giving instructions per call without MPI_Init/MPI_Finalize:
 *
 *   mpiexec -n 2 valgrind --tool=callgrind --callgrind-out-file=cg.%p \
 *       ./entry_cost bcast 0 2000
 *
 * CALL: barrier bcast reduce allreduce gather gatherv scatter scatterv
 * allgather allgatherv alltoall alltoallv alltoallw reduce_scatter
 * reduce_scatter_block scan exscan ibcast iallreduce (the I forms with a
 * MPI_Wait). Standard MPI C (builds against any MPI). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXNP = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  if (argc < 4 || np > MAXNP) {
    if (rank == 0) fprintf(stderr, "usage: entry_cost CALL COUNT ITERS (np <= %d)\n", MAXNP);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* what = argv[1];
  const int n = atoi(argv[2]), iters = atoi(argv[3]);
  static int s[MAXNP * 4], r[MAXNP * 4];
  int counts[MAXNP], displs[MAXNP];
  MPI_Datatype types[MAXNP];
  for (int i = 0; i < np; ++i) {
    counts[i] = n;
    displs[i] = i * n;
    types[i] = MPI_INT;
  }
  int wdispls[MAXNP];
  for (int i = 0; i < np; ++i) wdispls[i] = i * n * (int)sizeof(int);
  int which = -1;
  static const char* const names[] = {"barrier",   "bcast",     "reduce",     "allreduce",      "gather",
                                      "gatherv",   "scatter",   "scatterv",   "allgather",      "allgatherv",
                                      "alltoall",  "alltoallv", "alltoallw",  "reduce_scatter", "reduce_scatter_block",
                                      "scan",      "exscan",    "ibcast",     "iallreduce"};
  for (int k = 0; k < (int)(sizeof names / sizeof *names); ++k)
    if (strcmp(what, names[k]) == 0) which = k;
  if (which < 0) {
    if (rank == 0) fprintf(stderr, "entry_cost: unknown call %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Request q;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iters; ++i) {
    const int root = i % np;
    switch (which) {
      case 0: MPI_Barrier(MPI_COMM_WORLD); break;
      case 1: MPI_Bcast(r, n, MPI_INT, root, MPI_COMM_WORLD); break;
      case 2: MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD); break;
      case 3: MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
      case 4: MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD); break;
      case 5: MPI_Gatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, root, MPI_COMM_WORLD); break;
      case 6: MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD); break;
      case 7: MPI_Scatterv(s, counts, displs, MPI_INT, r, n, MPI_INT, root, MPI_COMM_WORLD); break;
      case 8: MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD); break;
      case 9: MPI_Allgatherv(s, n, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD); break;
      case 10: MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD); break;
      case 11: MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD); break;
      case 12: MPI_Alltoallw(s, counts, wdispls, types, r, counts, wdispls, types, MPI_COMM_WORLD); break;
      case 13: MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
      case 14: MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
      case 15: MPI_Scan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
      case 16: MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
      case 17:
        MPI_Ibcast(r, n, MPI_INT, root, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        break;
      case 18:
        MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        break;
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
