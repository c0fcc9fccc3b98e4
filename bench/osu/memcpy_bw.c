/* Single-core memcpy bandwidth for the sizes and window slots bw.c uses:
 * the ceiling of a transfer that copies each byte once. Takes the same
 * options as the MPI programs (-n -m -s -r -w); prints
 * "size best_MBps mean_MBps window" like bw. No MPI. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "osu_opts.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  osu_opts o = {.min_size = 1, .max_size = 4L << 20, .scale = 1.0, .reps = 3, .window = 64, .iters = 1};
  char err[256];
  if (osu_parse(argc, argv, &o, err, sizeof err)) {
    fprintf(stderr, "memcpy_bw: %s\n", err);
    return 2;
  }
  unsigned char *src = osu_alloc(o.max_size);
  unsigned char *slots = osu_alloc(osu_slots_bytes(&o));
  if (!src || !slots) {
    fprintf(stderr, "memcpy_bw: cannot allocate %ld bytes\n", o.max_size + osu_slots_bytes(&o));
    return 1;
  }
  printf("# osu-memcpy np=1\n# size_bytes best_MBps mean_MBps window\n");
  unsigned long sink = 0;
  for (long size = osu_first_size(&o); size <= o.max_size; size = osu_next_size(size)) {
    const int w = osu_window_for(&o, size);
    const long iters = osu_iters(&o, size * w, 100, 64L << 20, 2);
    osu_fill(src, size, 0);
    double best = 1e300, mean = 0;
    for (int r = -1; r < o.reps; ++r) { /* r = -1 warms up */
      double t0 = now();
      for (long i = 0; i < iters; ++i)
        for (int k = 0; k < w; ++k) memcpy(slots + (long)k * size, src, (size_t)size);
      double t = now() - t0;
      if (r < 0) continue;
      if (t < best) best = t;
      mean += t / o.reps;
    }
    if (size > 0) sink += slots[size - 1];
    double bytes = (double)size * w * iters;
    printf("%ld %.1f %.1f %d\n", size, bytes / best / 1e6, bytes / mean / 1e6, w);
    fflush(stdout);
  }
  free(src);
  free(slots);
  return sink == 0xdeadbeef; /* keeps the copies observable */
}
