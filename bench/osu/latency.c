/* Ping-pong latency between ranks 0 and 1 (other ranks only join the
 * barriers). Reports the one-way time, half a round trip, in microseconds:
 * the best of -r batches and their mean. Sizes 0 B to 4 MiB by default. */
#include "osu_common.h"

static const char *NAME = "latency";

/* `n` round trips between ranks 0 and 1. */
static void ping_pong(int rank, unsigned char *buf, long size, long n) {
  const int peer = 1 - rank;
  for (long i = 0; i < n; ++i) {
    if (rank == 0) {
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 0, .max_size = 4L << 20, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "size_bytes best_us mean_us");
  if (rc) return rc;
  const osu_opts *o = &e.o;
  unsigned char *buf = osu_alloc(o->max_size);
  osu_need(buf, NAME, e.rank, o->max_size);
  const int peer = 1 - e.rank;
  const int active = e.rank < 2;

  for (long size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
    long iters = osu_iters(o, 2 * size, 1000, 32L << 20, 4);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!active) continue;
    /* One round trip of checked data each way, then a timed warm-up that
     * sets the batch length (osu_calibrate). */
    if (e.rank == 0) {
      osu_fill(buf, size, 0);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      long bad = osu_verify(buf, size, 1);
      if (bad >= 0) osu_die(NAME, e.rank, "reply carries wrong data", size, bad);
    } else {
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      long bad = osu_verify(buf, size, 0);
      if (bad >= 0) osu_die(NAME, e.rank, "ping carries wrong data", size, bad);
      osu_fill(buf, size, 1);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
    const long warm = osu_warmups(iters);
    double tw = MPI_Wtime();
    ping_pong(e.rank, buf, size, warm);
    iters = osu_calibrate(&e, iters, 2, (MPI_Wtime() - tw) / warm);
    double best = 1e300, sum = 0;
    for (int r = 0; r < o->reps; ++r) {
      double t0 = MPI_Wtime();
      ping_pong(e.rank, buf, size, iters);
      double us = (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
      if (us < best) best = us;
      sum += us;
    }
    if (e.rank == 0) {
      printf("%ld %.3f %.3f\n", size, best, sum / o->reps);
      fflush(stdout);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
