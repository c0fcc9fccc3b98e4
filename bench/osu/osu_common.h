/* MPI side of the OSU-style benchmarks: start-up with option parsing, and the
 * failure path. Standard MPI only (the same source builds against ringmpi,
 * MPICH and Open MPI).
 *
 * Output: lines starting with '#' are comments (the first names the program,
 * the second the columns); every other line is one measurement, whitespace
 * separated, printed by rank 0. compare.py parses exactly this. */
#ifndef RINGMPI_OSU_COMMON_H
#define RINGMPI_OSU_COMMON_H

#include <mpi.h>

#include "osu_opts.h"

typedef struct {
  int rank;
  int size;
  osu_opts o;
} osu_env;

/* MPI_Init plus options; returns 0, or an exit status after MPI_Finalize
 * when the options are wrong (every rank parses the same argv). */
static inline int osu_start(int *argc, char ***argv, osu_env *e, osu_opts defaults, int min_ranks,
                     const char *name, const char *columns) {
  /* OSU_THREAD_LEVEL=single|funneled|serialized|multiple: MPI_Init_thread at
   * that level (to compare the thread levels' cost); unset: MPI_Init. */
  const char *level = getenv("OSU_THREAD_LEVEL");
  if (level) {
    int required = strcmp(level, "multiple") == 0     ? MPI_THREAD_MULTIPLE
                   : strcmp(level, "serialized") == 0 ? MPI_THREAD_SERIALIZED
                   : strcmp(level, "funneled") == 0   ? MPI_THREAD_FUNNELED
                                                      : MPI_THREAD_SINGLE;
    int provided = -1;
    MPI_Init_thread(argc, argv, required, &provided);
    if (provided < required) fprintf(stderr, "%s: asked for thread level %d, got %d\n", name, required, provided);
  } else {
    MPI_Init(argc, argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &e->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &e->size);
  e->o = defaults;
  char err[256];
  int bad = osu_parse(*argc, *argv, &e->o, err, sizeof err);
  if (!bad && e->size < min_ranks) {
    snprintf(err, sizeof err, "needs at least %d ranks, got %d", min_ranks, e->size);
    bad = -1;
  }
  if (bad) {
    if (e->rank == 0) fprintf(stderr, "%s: %s\n", name, err);
    MPI_Finalize();
    return 2;
  }
  if (e->rank == 0) {
    printf("# osu-%s np=%d\n# %s\n", name, e->size, columns);
    fflush(stdout);
  }
  return 0;
}

/* Seconds one timed batch may take at -s 1: on a slow or busy machine a size
 * gets fewer iterations rather than the run taking minutes. */
#define OSU_BATCH_SECONDS 0.02

/* Warm-up iterations of a size: enough to time one, few enough to stay cheap
 * when one takes long. */
static inline long osu_warmups(long nominal) {
  long n = nominal / 10;
  return n < 1 ? 1 : n > 20 ? 20 : n;
}

/* Ranks 0 and 1 only. Rank 0 turns the warm-up's time per iteration into
 * the length of a batch, at most `nominal`, and tells rank 1. */
static inline long osu_calibrate(const osu_env *e, long nominal, long least, double per_iter) {
  long n = nominal;
  if (e->rank == 0) {
    double budget = OSU_BATCH_SECONDS * e->o.scale;
    if (per_iter > 0 && budget / per_iter < n) n = (long)(budget / per_iter);
    if (n < least) n = least < nominal ? least : nominal;
    MPI_Send(&n, 1, MPI_LONG, 1, 9, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&n, 1, MPI_LONG, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return n;
}

static inline void osu_die(const char *name, int rank, const char *what, long size, long at) {
  fprintf(stderr, "%s: rank %d: %s (message size %ld, first wrong byte %ld)\n", name, rank, what, size, at);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static inline void osu_need(void *p, const char *name, int rank, long bytes) {
  if (!p) {
    fprintf(stderr, "%s: rank %d: cannot allocate %ld bytes\n", name, rank, bytes);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

#endif
