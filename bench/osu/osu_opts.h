/* Options, message sizes and iteration counts shared by the OSU-style
 * benchmarks and the memcpy helper. Plain C99 with no MPI in it, so that
 * memcpy_bw.c sizes its work exactly like bw.c does.
 *
 * Every program takes the same options:
 *   -n BYTES  smallest message size (K/M/G suffixes allowed)
 *   -m BYTES  largest message size (sizes are 0 or powers of two in between)
 *   -s F      scale iteration counts and the time cap of a batch by F (0.1: a smoke run)
 *   -r N      timed batches per size (default 3); the best batch is reported, and the mean
 *   -w N      window: messages in flight per ack (bw, bibw, msgrate)
 *   -i N      round trips per pair (pairs)
 * Reporting the best of several batches is deliberate: the machines these run
 * on are shared, and a descheduled batch measures the neighbour, not the MPI. */
#ifndef RINGMPI_OSU_OPTS_H
#define RINGMPI_OSU_OPTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Receive buffers of one window stay distinct (pending receives must not
 * overlap), so large messages get fewer slots: at most this many bytes. */
#define OSU_WINDOW_BYTES (16L << 20)

typedef struct {
  long min_size;
  long max_size;
  double scale;
  int reps;
  int window;
  long iters;
} osu_opts;

static inline long osu_parse_bytes(const char *s) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (end == s || v < 0) return -1;
  if (*end == 'k' || *end == 'K') v <<= 10, ++end;
  else if (*end == 'm' || *end == 'M') v <<= 20, ++end;
  else if (*end == 'g' || *end == 'G') v <<= 30, ++end;
  return *end == '\0' ? v : -1;
}

/* Returns 0 on success; on a bad option fills err and returns -1. */
static inline int osu_parse(int argc, char **argv, osu_opts *o, char *err, size_t errlen) {
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strlen(a) != 2 || a[0] != '-' || !strchr("nmsrwi", a[1])) {
      snprintf(err, errlen, "unknown option '%s' (options: -n MIN -m MAX -s SCALE -r REPS -w WINDOW -i ITERS)", a);
      return -1;
    }
    if (!v) {
      snprintf(err, errlen, "option %s needs a value", a);
      return -1;
    }
    ++i;
    switch (a[1]) {
      case 'n': o->min_size = osu_parse_bytes(v); break;
      case 'm': o->max_size = osu_parse_bytes(v); break;
      case 's': o->scale = atof(v); break;
      case 'r': o->reps = atoi(v); break;
      case 'w': o->window = atoi(v); break;
      case 'i': o->iters = atol(v); break;
    }
  }
  if (o->min_size < 0 || o->max_size < 0 || o->min_size > o->max_size || o->max_size > (1L << 30)) {
    snprintf(err, errlen, "message sizes must satisfy 0 <= MIN <= MAX <= 1G (got %ld..%ld)", o->min_size,
             o->max_size);
    return -1;
  }
  if (!(o->scale > 0) || o->reps < 1 || o->window < 1 || o->iters < 1) {
    snprintf(err, errlen, "SCALE must be > 0 and REPS, WINDOW, ITERS >= 1");
    return -1;
  }
  return 0;
}

/* The sizes visited: MIN (may be 0), then powers of two up to MAX. */
static inline long osu_next_size(long size) { return size == 0 ? 1 : size * 2; }
static inline long osu_first_size(const osu_opts *o) {
  if (o->min_size == 0) return 0;
  long s = 1;
  while (s < o->min_size) s *= 2;
  return s;
}

/* Iterations of one timed batch: `small` for small messages, fewer as the
 * batch would move more than `budget` bytes, never fewer than `least`. */
static inline long osu_iters(const osu_opts *o, long bytes_per_iter, long small, long budget, long least) {
  long n = small;
  if (bytes_per_iter > 0 && budget / bytes_per_iter < n) n = budget / bytes_per_iter;
  if (n < least) n = least;
  n = (long)(n * o->scale);
  return n < 1 ? 1 : n;
}

static inline int osu_window_for(const osu_opts *o, long size) {
  long w = o->window;
  if (size > 0 && w * size > OSU_WINDOW_BYTES) w = OSU_WINDOW_BYTES / size;
  return w < 1 ? 1 : (int)w;
}

/* Bytes of receive slots the largest window of the run needs. */
static inline long osu_slots_bytes(const osu_opts *o) {
  long most = 1;
  for (long size = osu_first_size(o); size <= o->max_size; size = osu_next_size(size))
    if (size * osu_window_for(o, size) > most) most = size * osu_window_for(o, size);
  return most;
}

/* A byte pattern that differs per size and per sender, to catch a transfer
 * that delivers the wrong bytes or nothing at all. */
static inline unsigned char osu_pattern(long size, int sender, long k) {
  return (unsigned char)(k * 7 + size * 13 + sender * 101 + 1);
}

static inline void osu_fill(unsigned char *buf, long size, int sender) {
  for (long k = 0; k < size; ++k) buf[k] = osu_pattern(size, sender, k);
}

/* Index of the first wrong byte, or -1. */
static inline long osu_verify(const unsigned char *buf, long size, int sender) {
  for (long k = 0; k < size; ++k)
    if (buf[k] != osu_pattern(size, sender, k)) return k;
  return -1;
}

static inline void *osu_alloc(long bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, bytes > 0 ? (size_t)bytes : 1) != 0) return NULL;
  memset(p, 0, bytes > 0 ? (size_t)bytes : 1); /* fault the pages in before timing */
  return p;
}

#endif
