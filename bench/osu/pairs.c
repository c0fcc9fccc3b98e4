/* Many pairs at once: ranks 2k and 2k+1 ping-pong -i round trips (2000 by
 * default) of -n bytes (8 by default), all pairs at the same time; meant for
 * more ranks than cores (np=8 on 2 cores), where how a rank waits decides
 * everything. Rank 0 reports the job time, from the barrier before the
 * first round trip to the barrier after the last one, and the slowest pair's
 * own time. With an odd rank count the last rank only joins the barriers. */
#include "osu_common.h"

static const char *NAME = "pairs";

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 8, .max_size = 1L << 30, .scale = 1.0, .reps = 1, .window = 1, .iters = 2000};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "np round_trips size_bytes job_s slowest_pair_s us_per_round_trip");
  if (rc) return rc;
  const long size = e.o.min_size;
  const long iters = e.o.iters;
  unsigned char *buf = osu_alloc(size);
  osu_need(buf, NAME, e.rank, size);
  const int peer = e.rank ^ 1;
  const int active = peer < e.size;
  const int pinger = (e.rank & 1) == 0;

  /* A few checked round trips first, so that lazy connection set-up in any
   * implementation is not timed. */
  for (int i = 0; active && i < 10; ++i) {
    if (pinger) {
      osu_fill(buf, size, e.rank);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      long bad = osu_verify(buf, size, peer);
      if (bad >= 0) osu_die(NAME, e.rank, "reply carries wrong data", size, bad);
    } else {
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      long bad = osu_verify(buf, size, peer);
      if (bad >= 0) osu_die(NAME, e.rank, "ping carries wrong data", size, bad);
      osu_fill(buf, size, e.rank);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long i = 0; active && i < iters; ++i) {
    if (pinger) {
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
  }
  const double mine = MPI_Wtime() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double job = MPI_Wtime() - t0;

  /* Each other pinger reports its pair's time to rank 0 (no reductions:
   * ringmpi has only the barrier among the collectives so far). */
  const int pairs = e.size / 2;
  if (e.rank == 0) {
    double slowest = mine;
    for (int p = 1; p < pairs; ++p) {
      double t;
      MPI_Recv(&t, 1, MPI_DOUBLE, 2 * p, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (t > slowest) slowest = t;
    }
    printf("%d %ld %ld %.4f %.4f %.3f\n", e.size, iters, size, job, slowest, slowest * 1e6 / iters);
    fflush(stdout);
  } else if (pinger && active) {
    MPI_Send(&mine, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
