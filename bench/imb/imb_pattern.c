/* IMB-pattern loops: the measurement loops of the Intel MPI Benchmarks
 * (IMB-MPI1) that issue 36 quotes, written again here in standard MPI C.
 * This is NOT IMB (which is not installed here and has its own licence and
 * many more options); it times the same calls the same way so that the
 * issue's IMB rows can be reproduced with ringmpi, MPICH and Open MPI from
 * one source (bench/compare.py builds it against all three).
 *
 *   imb_pattern [-b LIST] [-l SIZES] [-T SECS] [-r REPS]
 *
 *   -b LIST   comma-separated benchmarks (default: all):
 *             PingPong Allgather Allgatherv Alltoall Alltoallv Reduce
 *             Reduce_scatter Reduce_scatter_block Reduce_local
 *   -l SIZES  comma-separated message sizes in bytes, K/M allowed (default:
 *             IMB's -msglog 0:20, i.e. 0 and every power of two 1 B .. 1 MiB)
 *   -T SECS   aimed length of one timed repetition (default 0.02)
 *   -r REPS   timed repetitions per size, the best kept (default 3)
 *
 * The patterns, as IMB-MPI1 defines them:
 *   PingPong        ranks 0 and 1, MPI_Send then MPI_Recv of SIZE bytes;
 *                   t is half a round trip (other ranks idle in the barriers)
 *   Allgather(v)    every rank contributes SIZE bytes (MPI_BYTE)
 *   Alltoall(v)     every rank sends SIZE bytes to each rank
 *   Reduce          SIZE/4 floats, MPI_SUM, root 0 (IMB's default: no root shift)
 *   Reduce_scatter  SIZE/4 floats in all, MPI_SUM, split over the ranks as
 *                   evenly as possible (recvcounts), MPI_Reduce_scatter
 *   Reduce_scatter_block  SIZE/4/np floats per rank
 *   Reduce_local    MPI_Reduce_local of SIZE/4 floats, MPI_SUM, on every rank
 * The reductions skip sizes that are not a multiple of 4 (IMB runs them at
 * multiples of the float size). Calls run back to back after a barrier; a
 * rank's time is its mean per call; like IMB the output gives the minimum,
 * maximum and mean of that over ranks, in microseconds:
 *   NAME SIZE T_MIN_US T_MAX_US T_AVG_US
 * and the repetition kept is the one with the lowest mean (the machines this
 * runs on are shared: a descheduled repetition measures the neighbour). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ALL[] = {"PingPong", "Allgather", "Allgatherv", "Alltoall", "Alltoallv",
                                  "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Reduce_local", NULL};

typedef struct {
  int rank, np;
  long size;
  char *sbuf, *rbuf;
  int *counts, *displs, *scounts;
} ctx;

static int is_reduction(const char *b) { return !strncmp(b, "Reduce", 6); }

/* One call of benchmark `b` at c->size (PingPong: one round trip). */
static void call(const char *b, const ctx *c) {
  MPI_Comm w = MPI_COMM_WORLD;
  const int n = (int)c->size, nf = (int)(c->size / 4);
  if (!strcmp(b, "PingPong")) {
    if (c->rank == 0) {
      MPI_Send(c->sbuf, n, MPI_BYTE, 1, 7, w);
      MPI_Recv(c->rbuf, n, MPI_BYTE, 1, 7, w, MPI_STATUS_IGNORE);
    } else if (c->rank == 1) {
      MPI_Recv(c->rbuf, n, MPI_BYTE, 0, 7, w, MPI_STATUS_IGNORE);
      MPI_Send(c->sbuf, n, MPI_BYTE, 0, 7, w);
    }
  } else if (!strcmp(b, "Allgather")) {
    MPI_Allgather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  } else if (!strcmp(b, "Allgatherv")) {
    MPI_Allgatherv(c->sbuf, n, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, w);
  } else if (!strcmp(b, "Alltoall")) {
    MPI_Alltoall(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  } else if (!strcmp(b, "Alltoallv")) {
    MPI_Alltoallv(c->sbuf, c->counts, c->displs, MPI_BYTE, c->rbuf, c->counts, c->displs, MPI_BYTE, w);
  } else if (!strcmp(b, "Reduce")) {
    MPI_Reduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, 0, w);
  } else if (!strcmp(b, "Reduce_scatter")) {
    MPI_Reduce_scatter(c->sbuf, c->rbuf, c->scounts, MPI_FLOAT, MPI_SUM, w);
  } else if (!strcmp(b, "Reduce_scatter_block")) {
    MPI_Reduce_scatter_block(c->sbuf, c->rbuf, nf / c->np, MPI_FLOAT, MPI_SUM, w);
  } else if (!strcmp(b, "Reduce_local")) {
    MPI_Reduce_local(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM);
  }
}

/* Mean seconds per call over `iters` calls on this rank, after a barrier. */
static double time_calls(const char *b, const ctx *c, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) call(b, c);
  return (MPI_Wtime() - t0) / (double)iters;
}

static double max_over_ranks(double v) {
  double m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

static void run(const char *b, const ctx *c0, const long *sizes, int nsizes, double target, int reps) {
  ctx c = *c0;
  for (int si = 0; si < nsizes; ++si) {
    c.size = sizes[si];
    if (is_reduction(b) && c.size % 4 != 0) continue;
    const int nf = (int)(c.size / 4);
    for (int i = 0; i < c.np; ++i) {
      c.counts[i] = (int)c.size;
      c.displs[i] = (int)(c.size * i);
      c.scounts[i] = nf / c.np + (i < nf % c.np); /* IMB's even split of Reduce_scatter */
    }
    /* Calls per repetition: what fits in `target` by a probe, the same on
     * every rank, between 3 and 100000. */
    time_calls(b, &c, 2);
    double per = max_over_ranks(time_calls(b, &c, 3));
    long iters = per > 0 ? (long)(target / per) : 100000;
    if (iters > 100000) iters = 100000;
    if (iters < 3) iters = 3;
    time_calls(b, &c, iters / 10 + 1); /* warm-up */
    double best[3] = {0, 0, 1e30};
    for (int r = 0; r < reps; ++r) {
      double t = time_calls(b, &c, iters), lo = 0, hi = 0, sum = 0;
      if (!strcmp(b, "PingPong")) t = c.rank < 2 ? t / 2 : 0; /* one way: half a round trip */
      MPI_Allreduce(&t, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      MPI_Allreduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      if (!strcmp(b, "PingPong")) {
        lo = hi, sum = hi * c.np; /* only the pair's time counts */
      } else {
        MPI_Allreduce(&t, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
      }
      if (sum / c.np < best[2]) best[0] = lo, best[1] = hi, best[2] = sum / c.np;
    }
    if (c.rank == 0) {
      printf("%s %ld %.3f %.3f %.3f\n", b, c.size, best[0] * 1e6, best[1] * 1e6, best[2] * 1e6);
      fflush(stdout);
    }
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

static int known(const char *b) {
  for (int i = 0; ALL[i]; ++i)
    if (!strcmp(b, ALL[i])) return 1;
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ctx c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.np);
  char list[1024] = "", err[256] = "";
  long sizes[64];
  int nsizes = 0, reps = 3;
  double target = 0.02;
  for (int i = 1; i < argc && !err[0]; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v || strlen(a) != 2 || a[0] != '-' || !strchr("blTr", a[1])) {
      snprintf(err, sizeof err, "bad option '%s' (options: -b LIST -l SIZES -T SECS -r REPS, each with a value)", a);
    } else if (a[1] == 'b') {
      snprintf(list, sizeof list, "%s", v);
    } else if (a[1] == 'T') {
      target = atof(v);
    } else if (a[1] == 'r') {
      reps = atoi(v);
    } else {
      char copy[512];
      snprintf(copy, sizeof copy, "%s", v);
      for (char *t = strtok(copy, ","); t && !err[0]; t = strtok(NULL, ",")) {
        long s = parse_bytes(t);
        if (s < 0 || s > (64L << 20) || nsizes == 64) snprintf(err, sizeof err, "bad size '%s' in -l (0 .. 64M, at most 64)", t);
        else sizes[nsizes++] = s;
      }
    }
  }
  if (!err[0] && (target <= 0 || reps < 1)) snprintf(err, sizeof err, "-T must be > 0 and -r >= 1");
  if (!err[0] && !nsizes) {
    sizes[nsizes++] = 0;
    for (long s = 1; s <= (1L << 20); s *= 2) sizes[nsizes++] = s;
  }
  if (!list[0]) {
    for (int i = 0; ALL[i]; ++i) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", ALL[i]);
  }
  char copy[1024];
  snprintf(copy, sizeof copy, "%s", list);
  for (char *t = strtok(copy, ","); t && !err[0]; t = strtok(NULL, ","))
    if (!known(t)) snprintf(err, sizeof err, "unknown benchmark '%s'", t);
  if (!err[0] && c.np < 2 && strstr(list, "PingPong")) snprintf(err, sizeof err, "PingPong needs 2 ranks or more");
  if (err[0]) {
    if (c.rank == 0) fprintf(stderr, "imb_pattern: %s\n", err);
    MPI_Finalize();
    return 2;
  }
  long most = 0;
  for (int i = 0; i < nsizes; ++i)
    if (sizes[i] > most) most = sizes[i];
  size_t bytes = (size_t)most * (size_t)c.np + 64; /* allgather and alltoall: np blocks */
  c.sbuf = malloc(bytes);
  c.rbuf = malloc(bytes);
  c.counts = malloc(sizeof(int) * 3 * (size_t)c.np);
  if (!c.sbuf || !c.rbuf || !c.counts) {
    fprintf(stderr, "imb_pattern: out of memory (%zu bytes per buffer)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  c.displs = c.counts + c.np;
  c.scounts = c.counts + 2 * c.np;
  for (size_t i = 0; i < bytes / sizeof(float); ++i) ((float *)c.sbuf)[i] = 1.0f;
  memset(c.rbuf, 0, bytes);
  if (c.rank == 0) {
    printf("# imb-pattern np=%d (IMB-MPI1's loops, not IMB) target %gs reps %d\n", c.np, target, reps);
    printf("# name size t_min_us t_max_us t_avg_us\n");
  }
  char *save = NULL;
  snprintf(copy, sizeof copy, "%s", list);
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) run(t, &c, sizes, nsizes, target, reps);
  free(c.sbuf);
  free(c.rbuf);
  free(c.counts);
  MPI_Finalize();
  return 0;
}
