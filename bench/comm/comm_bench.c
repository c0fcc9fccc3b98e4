/* Latency of communicator creation: MPI_Comm_dup, MPI_Comm_split and
 * MPI_Intercomm_create (standard MPI C: builds against ringmpi, MPICH and
 * Open MPI alike; see compare.py).
 *
 *   comm_bench [iterations]      (default 300)
 *
 * Each operation runs `iterations` times after a warm-up; every rank times
 * the creating call only (the free is local in most implementations and is
 * not what is measured), a barrier separates iterations so the figure is a
 * latency, not a pipelined rate. Prints, on rank 0, one line per operation:
 *   <op> np=<n> avg_us=<mean over iterations of the slowest rank> */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;

/* The largest value over the ranks, at rank 0 (point-to-point only). */
static double max_at_root(double v) {
  if (rank != 0) {
    MPI_Send(&v, 1, MPI_DOUBLE, 0, 99, MPI_COMM_WORLD);
    return v;
  }
  for (int i = 1; i < size; ++i) {
    double x;
    MPI_Recv(&x, 1, MPI_DOUBLE, i, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (x > v) v = x;
  }
  return v;
}

enum op { DUP, SPLIT, INTERCOMM };
static const char *names[] = {"comm_dup", "comm_split", "intercomm_create"};

static double once(enum op op, MPI_Comm half) {
  MPI_Comm c;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  switch (op) {
    case DUP:
      MPI_Comm_dup(MPI_COMM_WORLD, &c);
      break;
    case SPLIT:
      MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &c);
      break;
    case INTERCOMM:
      MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 7, &c);
      break;
  }
  double t = MPI_Wtime() - t0;
  MPI_Comm_free(&c);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iters = argc > 1 ? atoi(argv[1]) : 300;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  for (int op = DUP; op <= INTERCOMM; ++op) {
    if (op == INTERCOMM && size < 2) continue;
    for (int i = 0; i < iters / 10 + 1; ++i) once((enum op)op, half);
    double sum = 0;
    for (int i = 0; i < iters; ++i) sum += once((enum op)op, half);
    double worst = max_at_root(sum / iters);
    if (rank == 0) printf("%s np=%d avg_us=%.2f\n", names[op], size, worst * 1e6);
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
