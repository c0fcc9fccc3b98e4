/* Streaming bandwidth from rank 0 to rank 1: windows of -w nonblocking
 * sends (64 by default; fewer above 256 KiB so a window's receive slots stay
 * within 16 MiB), each closed by a zero-byte ack. MB/s is 10^6 bytes/s. */
#include "osu_window.h"

static const char *NAME = "bw";

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 1, .max_size = 4L << 20, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "size_bytes best_MBps mean_MBps window");
  if (rc) return rc;
  osu_bufs b = osu_bufs_alloc(&e, NAME);
  for (long size = osu_first_size(&e.o); size <= e.o.max_size; size = osu_next_size(size)) {
    const int w = osu_window_for(&e.o, size);
    long iters = osu_iters(&e.o, size * w, 100, 64L << 20, 2);
    double best, mean;
    osu_window_run(&e, &b, size, w, &iters, 0, NAME, &best, &mean);
    if (e.rank == 0) {
      double bytes = (double)size * w * iters;
      printf("%ld %.1f %.1f %d\n", size, bytes / best / 1e6, bytes / mean / 1e6, w);
      fflush(stdout);
    }
  }
  osu_bufs_free(&b);
  MPI_Finalize();
  return 0;
}
