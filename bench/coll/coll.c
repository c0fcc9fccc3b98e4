/* OSU-style collective latency, blocking and nonblocking, in standard MPI C:
 * the same file builds with ringmpi's meson build, mpicc.mpich and
 * mpicc.openmpi (see compare.py beside it).
 *
 *   coll [-c LIST] [-n MIN] [-m MAX] [-l SIZES] [-s SCALE] [-T SECS] [-r REPS] [-R rotate|0] [-M b2b|osu]
 *        [-t TESTS]
 *
 *   -c LIST   comma-separated collectives (default: all blocking and nonblocking),
 *             or "blocking" / "nonblocking" / "persistent"; names as printed below
 *             (persistent ones, MPI-4.0 MPI_*_init + MPI_Start + MPI_Wait: "pbcast"...;
 *             built only against an MPI-4 library or ringmpi)
 *   -n, -m    smallest and largest size in bytes, powers of two (default 4 .. 1M;
 *             K and M suffixes); barrier and ibarrier run once, as size 0
 *   -l SIZES  comma-separated sizes instead of -n/-m (e.g. 0,4,64K,1M; 0 is allowed
 *             here: IMB's zero-byte rows)
 *   -s SCALE  scale the iteration cap (1000 calls per repetition up to 8 KiB,
 *             fewer above, fewer again above 4 ranks)
 *   -T SECS   aim for repetitions of about this long (default 0.05): the count
 *             is the cap or what fits in SECS by a short probe, whichever is
 *             smaller, so oversubscribed runs of a slow MPI stay bounded
 *   -r REPS   timed repetitions per size; the best is reported (default 3)
 *   -R ROOT   "rotate" (default): call i uses root i % np; "0": root 0 always
 *   -M MODE   how a call is timed (issue 36 measures both ways):
 *             b2b (default): calls back to back, LAT_US the mean time per call
 *               of the slowest rank (with -R rotate: the rotating-root mode);
 *             osu: OSU Micro-Benchmarks' way: root 0 always, each call timed
 *               alone and followed by an untimed MPI_Barrier, LAT_US the mean
 *               over ranks of each rank's mean (osu_bcast's "Avg Latency")
 *   -t TESTS  MPI_Test calls spread over the compute phase of the overlap
 *             measure (default 8; 0: none, the collective progresses only in Wait)
 *
 * Size is the bytes each rank contributes or receives per block: the block of
 * scatter, gather, allgather and alltoall is per rank (alltoall sends np such
 * blocks), bcast sends size bytes, the reductions reduce size/4 floats with
 * MPI_SUM (reduce_scatter_block leaves size bytes on each rank).
 *
 * Blocking and persistent output, one line per size:   NAME SIZE LAT_US
 * (persistent: one request per root made before the timing, each call an
 * MPI_Start and MPI_Wait of the request of its root)
 * Nonblocking output:                   NAME SIZE LAT_US OVERLAP_PCT TOTAL_US COMPUTE_US
 * LAT_US is the mean time per call of a repetition, the maximum over ranks,
 * the best (lowest) repetition. The overlap measure is OSU's (osu_iallreduce):
 * t_pure = latency of start + wait alone; then each call starts the
 * collective, computes for t_pure microseconds (a spin on MPI_Wtime, with
 * TESTS MPI_Test calls evenly spread in it) and waits; t_total is the mean
 * time of that, t_compute the time of the compute phases alone, each the
 * maximum over ranks, and overlap% = 100 * max(0, 1 - (t_total - t_compute) / t_pure).
 * Reporting the best repetition is deliberate: the machines this runs on are
 * shared, and a descheduled repetition measures the neighbour, not the MPI.
 *
 * The floor: before the collectives, ranks 0 and 1 bounce one cache line
 * through a shared mapping of their own (/dev/shm, no MPI in the loop) and
 * rank 0 prints "# floor_ns NS ..." -- the machine's cost of moving a line
 * from one core to the other, ns per one-way transfer, best of up to 20
 * batches of 5000 round trips (fewer once 0.2 s have passed).
 * At np = 2 in b2b mode every blocking row up to 32 bytes (the data fits
 * one line beside its flag word) and barrier gets a comment after it:
 *   NAME SIZE LAT_US # bound_us B transfers K lat/bound R
 * B = 2 x K x floor, K the cache-line transfers the call cannot avoid
 * (docs/design/collectives.md, "Cache-line floor at np = 2"); R <= 1 meets
 * issue 36's "within 2x of the floor times those transfers". Everything
 * after a '#' is a comment for scripts reading this output. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getcpu */
#endif
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor.h"

enum { NAME_LEN = 32 };

typedef struct {
  long min_size, max_size;
  long sizes[64];
  int nsizes;
  double target;
  double scale;
  int reps;
  int rotate;
  int osu; /* -M osu: OSU's timing (root 0, a barrier after each call, mean over ranks) */
  int tests;
  char list[1024];
} opts;

typedef struct {
  int rank, np;
  long size;       /* bytes per block */
  char *sbuf, *rbuf;
  int *counts, *displs;
  MPI_Request *preq; /* persistent mode: the request of each root */
} ctx;

#if MPI_VERSION >= 4 || defined(RINGMPI)
#define HAVE_PERSISTENT 1
#else
#define HAVE_PERSISTENT 0
#endif

static int root_of(const opts *o, const ctx *c, long i) { return o->rotate && !o->osu ? (int)(i % c->np) : 0; }

/* Elements of a reduction of `size` bytes: size / 4 floats, at least one
 * unless the size is 0 (then 0: the zero-byte rows). */
static int floats_of(long size) {
  int nf = (int)(size / (long)sizeof(float));
  return size > 0 && nf < 1 ? 1 : nf;
}

/* Starts (nonblocking) or runs (blocking, req == NULL) collective `name` once. */
static int coll_call(const char *name, const ctx *c, int root, MPI_Request *req) {
  MPI_Comm w = MPI_COMM_WORLD;
  int n = (int)c->size;
  int nf = floats_of(c->size);
  const char *b = name[0] == 'i' && strcmp(name, "ibarrier") != 0 ? name + 1 : name;
  int nb = req != NULL;
  if (!strcmp(name, "barrier") || !strcmp(name, "ibarrier"))
    return nb ? MPI_Ibarrier(w, req) : MPI_Barrier(w);
  if (!strcmp(b, "bcast"))
    return nb ? MPI_Ibcast(c->sbuf, n, MPI_BYTE, root, w, req) : MPI_Bcast(c->sbuf, n, MPI_BYTE, root, w);
  if (!strcmp(b, "scatter"))
    return nb ? MPI_Iscatter(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, req)
              : MPI_Scatter(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w);
  if (!strcmp(b, "scatterv"))
    return nb ? MPI_Iscatterv(c->sbuf, c->counts, c->displs, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, req)
              : MPI_Scatterv(c->sbuf, c->counts, c->displs, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w);
  if (!strcmp(b, "gather"))
    return nb ? MPI_Igather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, req)
              : MPI_Gather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w);
  if (!strcmp(b, "gatherv"))
    return nb ? MPI_Igatherv(c->sbuf, n, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, root, w, req)
              : MPI_Gatherv(c->sbuf, n, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, root, w);
  if (!strcmp(b, "allgather"))
    return nb ? MPI_Iallgather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, req)
              : MPI_Allgather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  if (!strcmp(b, "alltoall"))
    return nb ? MPI_Ialltoall(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, req)
              : MPI_Alltoall(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  if (!strcmp(b, "reduce"))
    return nb ? MPI_Ireduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, root, w, req)
              : MPI_Reduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, root, w);
  if (!strcmp(b, "allreduce"))
    return nb ? MPI_Iallreduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, req)
              : MPI_Allreduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(b, "reduce_scatter"))
    return nb ? MPI_Ireduce_scatter_block(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, req)
              : MPI_Reduce_scatter_block(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(b, "scan"))
    return nb ? MPI_Iscan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, req)
              : MPI_Scan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(b, "exscan"))
    return nb ? MPI_Iexscan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, req)
              : MPI_Exscan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  return MPI_ERR_OTHER;
}

#if HAVE_PERSISTENT
/* Makes the persistent request of collective `b` (a blocking name) for `root`. */
static int persistent_init(const char *b, const ctx *c, int root, MPI_Request *req) {
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info in = MPI_INFO_NULL;
  int n = (int)c->size;
  int nf = floats_of(c->size);
  if (!strcmp(b, "barrier")) return MPI_Barrier_init(w, in, req);
  if (!strcmp(b, "bcast")) return MPI_Bcast_init(c->sbuf, n, MPI_BYTE, root, w, in, req);
  if (!strcmp(b, "scatter")) return MPI_Scatter_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, in, req);
  if (!strcmp(b, "scatterv"))
    return MPI_Scatterv_init(c->sbuf, c->counts, c->displs, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, in, req);
  if (!strcmp(b, "gather")) return MPI_Gather_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, root, w, in, req);
  if (!strcmp(b, "gatherv"))
    return MPI_Gatherv_init(c->sbuf, n, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, root, w, in, req);
  if (!strcmp(b, "allgather")) return MPI_Allgather_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, in, req);
  if (!strcmp(b, "alltoall")) return MPI_Alltoall_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, in, req);
  if (!strcmp(b, "reduce")) return MPI_Reduce_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, root, w, in, req);
  if (!strcmp(b, "allreduce")) return MPI_Allreduce_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req);
  if (!strcmp(b, "reduce_scatter"))
    return MPI_Reduce_scatter_block_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req);
  if (!strcmp(b, "scan")) return MPI_Scan_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req);
  if (!strcmp(b, "exscan")) return MPI_Exscan_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req);
  return MPI_ERR_OTHER;
}
#endif

static const char *const BLOCKING[] = {"barrier", "bcast", "scatter", "scatterv", "gather", "gatherv",
                                       "allgather", "alltoall", "reduce", "allreduce", "reduce_scatter",
                                       "scan", "exscan", NULL};
static const char *const NONBLOCKING[] = {"ibarrier", "ibcast", "iscatter", "iscatterv", "igather",
                                          "igatherv", "iallgather", "ialltoall", "ireduce", "iallreduce",
                                          "ireduce_scatter", "iscan", "iexscan", NULL};

#if HAVE_PERSISTENT
static const char *const PERSISTENT[] = {"pbarrier", "pbcast", "pscatter", "pscatterv", "pgather",
                                         "pgatherv", "pallgather", "palltoall", "preduce", "pallreduce",
                                         "preduce_scatter", "pscan", "pexscan", NULL};
#endif

static int known(const char *name) {
  for (int i = 0; BLOCKING[i]; ++i)
    if (!strcmp(name, BLOCKING[i]) || !strcmp(name, NONBLOCKING[i])) return 1;
#if HAVE_PERSISTENT
  for (int i = 0; PERSISTENT[i]; ++i)
    if (!strcmp(name, PERSISTENT[i])) return 1;
#endif
  return 0;
}

/* Iterations per timed repetition: OSU-like (many for small sizes, fewer
 * for large ones), more ranks cost more per call so they get fewer. */
static long iters_for(const opts *o, long size, int np) {
  double base = size <= 8192 ? 1000.0 : 1000.0 * 8192.0 / (double)size;
  base *= 4.0 / (np > 4 ? np : 4);
  long it = (long)(base * o->scale);
  return it < 2 ? 2 : it;
}

static double max_over_ranks(double v) {
  double m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

static double max_over_ranks(double v);
static double time_calls(const char *name, const opts *o, const ctx *c, long iters, int nb);

/* Calls per repetition: the cap, or what fits in o->target seconds by a
 * probe of three calls after two untimed ones; the same on every rank. */
static long iters_fitted(const char *name, const opts *o, const ctx *c, int nb) {
  long cap = iters_for(o, c->size, c->np);
  time_calls(name, o, c, 2, nb);
  double per_call = max_over_ranks(time_calls(name, o, c, 3, nb));
  double fit = per_call > 0 ? o->target / per_call : (double)cap;
  long it = fit < (double)cap ? (long)fit : cap;
  return it < 3 ? 3 : it;
}

/* One call (blocking, or start + wait) with the root of call i. */
static void one_call(const char *name, const opts *o, const ctx *c, long i, int nb) {
  if (name[0] == 'p') { /* persistent: start and wait the request of this call's root */
    MPI_Request *r = &c->preq[root_of(o, c, i)];
    MPI_Start(r);
    MPI_Wait(r, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Request r = MPI_REQUEST_NULL;
  coll_call(name, c, root_of(o, c, i), nb ? &r : NULL);
  if (nb) MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Mean seconds per call over `iters` calls on this rank: back to back (b2b),
 * or OSU's way (-M osu): each call timed alone, an untimed barrier after it. */
static double time_calls(const char *name, const opts *o, const ctx *c, long iters, int nb) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (o->osu) {
    double sum = 0;
    for (long i = 0; i < iters; ++i) {
      double t0 = MPI_Wtime();
      one_call(name, o, c, i, nb);
      sum += MPI_Wtime() - t0;
      MPI_Barrier(MPI_COMM_WORLD);
    }
    return sum / (double)iters;
  }
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) one_call(name, o, c, i, nb);
  return (MPI_Wtime() - t0) / (double)iters;
}

/* A repetition's figure: the slowest rank's (b2b), or the mean over ranks (osu). */
static double combine_ranks(const opts *o, const ctx *c, double v) {
  if (!o->osu) return max_over_ranks(v);
  double sum = 0;
  MPI_Allreduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum / c->np;
}

/* Spins for `secs` of wall time, calling MPI_Test `tests` times evenly spaced. */
static void compute(double secs, int tests, MPI_Request *r) {
  double t0 = MPI_Wtime();
  int done = 0;
  for (int k = 1; k <= tests; ++k) {
    double until = t0 + secs * k / (tests + 1);
    while (MPI_Wtime() < until) {
    }
    if (!done) MPI_Test(r, &done, MPI_STATUS_IGNORE);
  }
  while (MPI_Wtime() < t0 + secs) {
  }
}

static void run_one(const char *name, const opts *o, ctx *c, const coll_floor *fl) {
  int nb = name[0] == 'i';
  int is_barrier = !strcmp(name, "barrier") || !strcmp(name, "ibarrier") || !strcmp(name, "pbarrier");
  for (int si = 0; si < o->nsizes; ++si) {
    c->size = is_barrier ? 0 : o->sizes[si];
    for (int i = 0; i < c->np; ++i) {
      c->counts[i] = (int)c->size;
      c->displs[i] = (int)(c->size * i);
    }
#if HAVE_PERSISTENT
    if (name[0] == 'p')
      for (int root = 0; root < (o->rotate ? c->np : 1); ++root) persistent_init(name + 1, c, root, &c->preq[root]);
#endif
    long iters = iters_fitted(name, o, c, nb);
    time_calls(name, o, c, iters / 10 + 1, nb); /* warm-up */
    double best = 1e30;
    for (int rep = 0; rep < o->reps; ++rep) {
      double t = combine_ranks(o, c, time_calls(name, o, c, iters, nb));
      if (t < best) best = t;
    }
    if (!nb) {
      /* The np = 2 floor bound beside each small row (see the top comment). */
      int k = floor_transfers_np2(name);
      if (c->rank == 0 && c->np == 2 && !o->osu && fl->ns > 0 && k > 0 && c->size <= 32 &&
          (is_barrier || c->size > 0)) {
        double bound = 2.0 * k * fl->ns * 1e-3;
        printf("%s %ld %.3f # bound_us %.3f transfers %d lat/bound %.2f\n", name, c->size, best * 1e6, bound, k,
               best * 1e6 / bound);
      } else if (c->rank == 0) {
        printf("%s %ld %.3f\n", name, c->size, best * 1e6);
      }
    } else {
      /* Overlap: compute for t_pure while the collective is outstanding. */
      double best_total = 0, best_compute = 0, best_left = 1e30;
      for (int rep = 0; rep < o->reps; ++rep) {
        double tc = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < iters; ++i) {
          MPI_Request r = MPI_REQUEST_NULL;
          coll_call(name, c, root_of(o, c, i), &r);
          double c0 = MPI_Wtime();
          compute(best, o->tests, &r);
          tc += MPI_Wtime() - c0;
          MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        double total = max_over_ranks((MPI_Wtime() - t0) / (double)iters);
        double comp = max_over_ranks(tc / (double)iters);
        /* Keep the repetition with the lowest communication cost left over. */
        if (total - comp < best_left) best_left = total - comp, best_total = total, best_compute = comp;
      }
      double ov = 1.0 - (best_total - best_compute) / best;
      if (ov < 0) ov = 0;
      if (c->rank == 0)
        printf("%s %ld %.3f %.1f %.3f %.3f\n", name, c->size, best * 1e6, 100.0 * ov, best_total * 1e6,
               best_compute * 1e6);
    }
    fflush(stdout);
    if (name[0] == 'p')
      for (int root = 0; root < (o->rotate ? c->np : 1); ++root) MPI_Request_free(&c->preq[root]);
    if (is_barrier) break;
  }
}

static long parse_bytes(const char *s) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (end == s || v < 0) return -1;
  if (*end == 'k' || *end == 'K') v <<= 10, ++end;
  else if (*end == 'm' || *end == 'M') v <<= 20, ++end;
  return *end == '\0' ? v : -1;
}

static int parse(int argc, char **argv, opts *o, char *err, size_t errlen) {
  o->min_size = 4;
  o->max_size = 1L << 20;
  o->scale = 1.0;
  o->reps = 3;
  o->rotate = 1;
  o->osu = 0;
  o->tests = 8;
  o->target = 0.05;
  o->nsizes = 0;
  char sizes[512] = "";
  snprintf(o->list, sizeof o->list, "blocking,nonblocking");
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strlen(a) != 2 || a[0] != '-' || !strchr("cnmlsTrRMt", a[1])) {
      snprintf(err, errlen, "unknown option '%s' (options: -c LIST -n MIN -m MAX -l SIZES -s SCALE -T SECS -r REPS -R rotate|0 -M b2b|osu -t TESTS)", a);
      return -1;
    }
    if (!v) {
      snprintf(err, errlen, "option %s needs a value", a);
      return -1;
    }
    switch (a[1]) {
      case 'c': snprintf(o->list, sizeof o->list, "%s", v); break;
      case 'n': o->min_size = parse_bytes(v); break;
      case 'm': o->max_size = parse_bytes(v); break;
      case 'l': snprintf(sizes, sizeof sizes, "%s", v); break;
      case 's': o->scale = atof(v); break;
      case 'T': o->target = atof(v); break;
      case 'r': o->reps = atoi(v); break;
      case 'R': o->rotate = strcmp(v, "0") != 0; if (o->rotate && strcmp(v, "rotate")) { snprintf(err, errlen, "-R takes 'rotate' or '0', not '%s'", v); return -1; } break;
      case 'M':
        if (strcmp(v, "b2b") && strcmp(v, "osu")) {
          snprintf(err, errlen, "-M takes 'b2b' or 'osu', not '%s'", v);
          return -1;
        }
        o->osu = !strcmp(v, "osu");
        break;
      case 't': o->tests = atoi(v); break;
    }
  }
  if (o->min_size < 1 || o->max_size < o->min_size || o->max_size > (1L << 26)) {
    snprintf(err, errlen, "sizes must satisfy 1 <= -n <= -m <= 64M");
    return -1;
  }
  if (o->scale <= 0 || o->target <= 0 || o->reps < 1 || o->tests < 0) {
    snprintf(err, errlen, "-s and -T must be > 0, -r >= 1, -t >= 0");
    return -1;
  }
  if (sizes[0]) {
    o->max_size = 0;
    for (char *t = strtok(sizes, ","); t; t = strtok(NULL, ",")) {
      long v = parse_bytes(t);
      if (v < 0 || v > (1L << 26) || o->nsizes == 64) {
        snprintf(err, errlen, "bad size '%s' in -l (0 .. 64M, at most 64 of them)", t);
        return -1;
      }
      o->sizes[o->nsizes++] = v;
      if (v > o->max_size) o->max_size = v;
    }
  } else {
    for (long v = o->min_size; v <= o->max_size && o->nsizes < 64; v *= 2) o->sizes[o->nsizes++] = v;
  }
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", o->list);
  for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
    if (strcmp(t, "blocking") && strcmp(t, "nonblocking") && (strcmp(t, "persistent") || !HAVE_PERSISTENT) &&
        !known(t)) {
      snprintf(err, errlen, "unknown collective '%s'", t);
      return -1;
    }
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ctx c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.np);
  opts o;
  char err[256];
  if (parse(argc, argv, &o, err, sizeof err) != 0) {
    if (c.rank == 0) fprintf(stderr, "coll: %s\n", err);
    MPI_Finalize();
    return 2;
  }
  /* Largest need: alltoall and gather send or receive np blocks. */
  size_t bytes = (size_t)o.max_size * (size_t)c.np + 64;
  c.sbuf = malloc(bytes);
  c.rbuf = malloc(bytes);
  c.counts = malloc(sizeof(int) * (size_t)c.np);
  c.displs = malloc(sizeof(int) * (size_t)c.np);
  c.preq = malloc(sizeof(MPI_Request) * (size_t)c.np);
  if (!c.sbuf || !c.rbuf || !c.counts || !c.displs || !c.preq) {
    fprintf(stderr, "coll: out of memory (%zu bytes per buffer)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < bytes / sizeof(float); ++i) ((float *)c.sbuf)[i] = 1.0f;
  memset(c.rbuf, 0, bytes);
  if (c.rank == 0) {
    printf("# coll np=%d %d sizes up to %ld scale %g target %gs reps %d root %s tests %d mode %s\n", c.np,
           o.nsizes, o.max_size, o.scale, o.target, o.reps, o.rotate && !o.osu ? "rotating" : "0", o.tests,
           o.osu ? "osu (each call timed alone, barrier between, mean over ranks)"
                 : "b2b (back to back, slowest rank)");
    printf("# blocking: name size lat_us; nonblocking: name size lat_us overlap_pct total_us compute_us\n");
  }
  const coll_floor fl = floor_measure(c.rank, c.np);
  if (c.rank == 0) {
    if (fl.ns > 0)
      printf("# floor_ns %.1f one cache line bounced between two cores through shared memory, no MPI: ns per "
             "one-way transfer, best of up to %d batches of %d round trips; ranks 0 and 1 on cpus %d and %d\n",
             fl.ns, FLOOR_BATCHES, FLOOR_ROUND_TRIPS, fl.cpu[0], fl.cpu[1]);
    else
      printf("# floor_ns -1 (not measured: needs 2 ranks, Linux and /dev/shm)\n");
    fflush(stdout);
  }
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", o.list);
  char *save = NULL;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (!strcmp(t, "blocking") || !strcmp(t, "nonblocking")) {
      const char *const *set = t[0] == 'b' ? BLOCKING : NONBLOCKING;
      for (int i = 0; set[i]; ++i) run_one(set[i], &o, &c, &fl);
#if HAVE_PERSISTENT
    } else if (!strcmp(t, "persistent")) {
      for (int i = 0; PERSISTENT[i]; ++i) run_one(PERSISTENT[i], &o, &c, &fl);
#endif
    } else {
      run_one(t, &o, &c, &fl);
    }
  }
  free(c.sbuf);
  free(c.rbuf);
  free(c.counts);
  free(c.displs);
  free(c.preq);
  MPI_Finalize();
  return 0;
}
