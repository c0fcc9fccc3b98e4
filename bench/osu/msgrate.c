/* Message rate from rank 0 to rank 1 for small messages: windows of -w
 * nonblocking sends, each closed by a zero-byte ack; reported in millions of
 * messages per second. Sizes 1 B to 8 KiB by default. */
#include "osu_window.h"

static const char *NAME = "msgrate";

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 1, .max_size = 8L << 10, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "size_bytes best_Mmsgps mean_Mmsgps window");
  if (rc) return rc;
  osu_bufs b = osu_bufs_alloc(&e, NAME);
  for (long size = osu_first_size(&e.o); size <= e.o.max_size; size = osu_next_size(size)) {
    const int w = osu_window_for(&e.o, size);
    long iters = osu_iters(&e.o, size * w, 200, 64L << 20, 2);
    double best, mean;
    osu_window_run(&e, &b, size, w, &iters, 0, NAME, &best, &mean);
    if (e.rank == 0) {
      double msgs = (double)w * iters;
      printf("%ld %.3f %.3f %d\n", size, msgs / best / 1e6, msgs / mean / 1e6, w);
      fflush(stdout);
    }
  }
  osu_bufs_free(&b);
  MPI_Finalize();
  return 0;
}
