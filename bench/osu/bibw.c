/* Bidirectional bandwidth between ranks 0 and 1: both post a window of
 * receives and a window of sends at once; the sum of both directions is
 * reported in MB/s (10^6 bytes/s). Same windows as bw. */
#include "osu_window.h"

static const char *NAME = "bibw";

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 1, .max_size = 4L << 20, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "size_bytes best_MBps mean_MBps window");
  if (rc) return rc;
  osu_bufs b = osu_bufs_alloc(&e, NAME);
  for (long size = osu_first_size(&e.o); size <= e.o.max_size; size = osu_next_size(size)) {
    const int w = osu_window_for(&e.o, size);
    long iters = osu_iters(&e.o, 2 * size * w, 100, 64L << 20, 2);
    double best, mean;
    osu_window_run(&e, &b, size, w, &iters, 1, NAME, &best, &mean);
    if (e.rank == 0) {
      double bytes = 2.0 * size * w * iters;
      printf("%ld %.1f %.1f %d\n", size, bytes / best / 1e6, bytes / mean / 1e6, w);
      fflush(stdout);
    }
  }
  osu_bufs_free(&b);
  MPI_Finalize();
  return 0;
}
