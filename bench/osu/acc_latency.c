/* One-sided accumulate latency, as osu_acc_latency measures it with its
 * default synchronisation: rank 0 locks rank 1's window (MPI_Win_allocate)
 * once, then each iteration is one MPI_Accumulate of SIZE bytes of doubles
 * with MPI_SUM followed by MPI_Win_flush. Beside it, the same loop with
 * MPI_Put: issue 36 asks a large accumulate to run within 1.2x of a put of
 * the same size. Sizes 8 B (one double) to 1 MiB by default; sizes below 8
 * are raised to 8. Output: size_bytes acc_best_us put_best_us acc_mean_us. */
#include "osu_common.h"

static const char *NAME = "acc_latency";

/* `iters` ops of `n` doubles + flush each, on rank 0; seconds per op. */
static double loop(MPI_Win win, double *buf, int n, long iters, int acc) {
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    if (acc)
      MPI_Accumulate(buf, n, MPI_DOUBLE, 1, 0, n, MPI_DOUBLE, MPI_SUM, win);
    else
      MPI_Put(buf, n, MPI_DOUBLE, 1, 0, n, MPI_DOUBLE, win);
    MPI_Win_flush(1, win);
  }
  return (MPI_Wtime() - t0) / (double)iters;
}

int main(int argc, char **argv) {
  osu_opts d = {.min_size = 8, .max_size = 1L << 20, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  osu_env e;
  int rc = osu_start(&argc, &argv, &e, d, 2, NAME, "size_bytes acc_best_us put_best_us acc_mean_us");
  if (rc) return rc;
  const osu_opts *o = &e.o;
  long most = o->max_size < 8 ? 8 : o->max_size;
  double *mem = NULL;
  MPI_Win win;
  MPI_Win_allocate(most, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  memset(mem, 0, (size_t)most);
  double *buf = osu_alloc(most); /* zeros: the sums stay finite */
  osu_need(buf, NAME, e.rank, most);
  MPI_Barrier(MPI_COMM_WORLD);
  if (e.rank == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
  for (long size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size)) {
    if (size < 8) continue;
    const int n = (int)(size / 8);
    if (e.rank == 0) {
      long iters = osu_iters(o, size, 10000, 256L << 20, 5);
      /* A warm-up sets the batch length: OSU_BATCH_SECONDS at -s 1. */
      const long warm = osu_warmups(iters);
      double per = loop(win, buf, n, warm, 1);
      double budget = OSU_BATCH_SECONDS * o->scale;
      if (per > 0 && budget / per < iters) iters = (long)(budget / per);
      if (iters < 3) iters = 3;
      double best = 1e30, sum = 0, put = 1e30;
      for (int r = 0; r < o->reps; ++r) {
        double t = loop(win, buf, n, iters, 1);
        if (t < best) best = t;
        sum += t;
        t = loop(win, buf, n, iters, 0);
        if (t < put) put = t;
      }
      printf("%ld %.3f %.3f %.3f\n", size, best * 1e6, put * 1e6, sum / o->reps * 1e6);
      fflush(stdout);
    }
  }
  if (e.rank == 0) MPI_Win_unlock(1, win);
  MPI_Win_free(&win);
  free(buf);
  MPI_Finalize();
  return 0;
}
