/* Persistent collectives (MPI-4.0 §6.12) against the blocking calls, in one
 * run: standard MPI-4 C, so the same file builds against ringmpi, MPICH 4
 * and any MPI-4 library (persistent_compare.py builds it with mpicc.mpich).
 *
 *   persistent [-c LIST] [-l SIZES] [-r ROUNDS] [-T SECONDS]
 *
 * -c: comma-separated collectives (default: barrier,bcast,reduce,allreduce,
 *     allgather,alltoall,gather,scatter,scan,exscan; also gatherv, scatterv,
 *     allgatherv, alltoallv, alltoallw, reduce_scatter, reduce_scatter_block with equal
 *     blocks, and neighbor_allgather, neighbor_alltoall, neighbor_alltoallv
 *     on a periodic ring of all ranks); -l: sizes in bytes,
 *     K/M allowed (default 4,64,1K,16K,64K,1M); -r: rounds (default 25);
 *     -T: seconds each timed loop aims at (default 0.002: many short loops
 *     whose best is what a rank that holds its core sees, on a busy machine).
 * Per collective and size, root 0: the persistent request is made once
 * (MPI_*_init), then each round times a loop of blocking calls and a loop
 * of MPI_Start + MPI_Wait of that request, one after the other, so both see
 * the same load of a busy machine; each keeps its best round (the slowest
 * rank's mean per call). Output, one line per point:
 *   NAME SIZE BLOCKING_US PERSISTENT_US RATIO
 * (RATIO = persistent / blocking; size is bytes per block, or per vector of
 * floats for the reductions; barrier prints size 0). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int rank, np;
  long size;
  char *sbuf, *rbuf;
  int *counts, *displs; /* the v forms: equal blocks (size bytes, or floats for reduce_scatter) */
  MPI_Comm ring;        /* the neighbourhood forms: a periodic ring of all ranks */
  MPI_Datatype *types;  /* alltoallw: MPI_BYTE for every block (displs in bytes: the same) */
} ctx;

static int floats(long size) { return size / (long)sizeof(float) > 0 ? (int)(size / (long)sizeof(float)) : 1; }

/* The blocking call of `name` (req NULL), or its persistent request's _init. */
static int call(const char *name, const ctx *c, MPI_Request *req) {
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Info in = MPI_INFO_NULL;
  int n = (int)c->size, nf = floats(c->size);
  if (!strcmp(name, "barrier")) return req ? MPI_Barrier_init(w, in, req) : MPI_Barrier(w);
  if (!strcmp(name, "bcast"))
    return req ? MPI_Bcast_init(c->sbuf, n, MPI_BYTE, 0, w, in, req) : MPI_Bcast(c->sbuf, n, MPI_BYTE, 0, w);
  if (!strcmp(name, "reduce"))
    return req ? MPI_Reduce_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, 0, w, in, req)
               : MPI_Reduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, 0, w);
  if (!strcmp(name, "allreduce"))
    return req ? MPI_Allreduce_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req)
               : MPI_Allreduce(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(name, "allgather"))
    return req ? MPI_Allgather_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, in, req)
               : MPI_Allgather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  if (!strcmp(name, "alltoall"))
    return req ? MPI_Alltoall_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w, in, req)
               : MPI_Alltoall(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, w);
  if (!strcmp(name, "gather"))
    return req ? MPI_Gather_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w, in, req)
               : MPI_Gather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w);
  if (!strcmp(name, "scatter"))
    return req ? MPI_Scatter_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w, in, req)
               : MPI_Scatter(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w);
  if (!strcmp(name, "scan"))
    return req ? MPI_Scan_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req)
               : MPI_Scan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(name, "exscan"))
    return req ? MPI_Exscan_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req)
               : MPI_Exscan(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  /* The v forms and reduce-scatter, with equal blocks (counts and displs set by v_counts). */
  const int *cn = c->counts, *d = c->displs;
  if (!strcmp(name, "gatherv"))
    return req ? MPI_Gatherv_init(c->sbuf, n, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, 0, w, in, req)
               : MPI_Gatherv(c->sbuf, n, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, 0, w);
  if (!strcmp(name, "scatterv"))
    return req ? MPI_Scatterv_init(c->sbuf, cn, d, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w, in, req)
               : MPI_Scatterv(c->sbuf, cn, d, MPI_BYTE, c->rbuf, n, MPI_BYTE, 0, w);
  if (!strcmp(name, "allgatherv"))
    return req ? MPI_Allgatherv_init(c->sbuf, n, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, w, in, req)
               : MPI_Allgatherv(c->sbuf, n, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, w);
  if (!strcmp(name, "alltoallv"))
    return req ? MPI_Alltoallv_init(c->sbuf, cn, d, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, w, in, req)
               : MPI_Alltoallv(c->sbuf, cn, d, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, w);
  if (!strcmp(name, "alltoallw"))
    return req ? MPI_Alltoallw_init(c->sbuf, cn, d, c->types, c->rbuf, cn, d, c->types, w, in, req)
               : MPI_Alltoallw(c->sbuf, cn, d, c->types, c->rbuf, cn, d, c->types, w);
  if (!strcmp(name, "reduce_scatter"))
    return req ? MPI_Reduce_scatter_init(c->sbuf, c->rbuf, cn, MPI_FLOAT, MPI_SUM, w, in, req)
               : MPI_Reduce_scatter(c->sbuf, c->rbuf, cn, MPI_FLOAT, MPI_SUM, w);
  if (!strcmp(name, "reduce_scatter_block"))
    return req ? MPI_Reduce_scatter_block_init(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w, in, req)
               : MPI_Reduce_scatter_block(c->sbuf, c->rbuf, nf, MPI_FLOAT, MPI_SUM, w);
  /* Neighbourhood forms on the ring (two neighbours; size bytes per block). */
  MPI_Comm g = c->ring;
  if (!strcmp(name, "neighbor_allgather"))
    return req ? MPI_Neighbor_allgather_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, g, in, req)
               : MPI_Neighbor_allgather(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, g);
  if (!strcmp(name, "neighbor_alltoall"))
    return req ? MPI_Neighbor_alltoall_init(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, g, in, req)
               : MPI_Neighbor_alltoall(c->sbuf, n, MPI_BYTE, c->rbuf, n, MPI_BYTE, g);
  if (!strcmp(name, "neighbor_alltoallv"))
    return req ? MPI_Neighbor_alltoallv_init(c->sbuf, cn, d, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, g, in, req)
               : MPI_Neighbor_alltoallv(c->sbuf, cn, d, MPI_BYTE, c->rbuf, cn, d, MPI_BYTE, g);
  return MPI_ERR_OTHER;
}

/* The v forms' counts and displacements for this name and size. */
static void v_counts(const char *name, ctx *c) {
  const int block = !strcmp(name, "reduce_scatter") ? floats(c->size) : (int)c->size;
  for (int j = 0; j < (c->np < 2 ? 2 : c->np); ++j) { /* a ring has two neighbours */
    c->counts[j] = block;
    c->displs[j] = j * block;
  }
}

/* Mean seconds per call over `iters` calls, the slowest rank's. */
static double timed(const char *name, const ctx *c, MPI_Request *req, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    if (req) {
      MPI_Start(req);
      MPI_Wait(req, MPI_STATUS_IGNORE);
    } else {
      call(name, c, NULL);
    }
  }
  double t = (MPI_Wtime() - t0) / (double)iters, worst = 0;
  MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

static long parse_size(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10;
  if (*end == 'M' || *end == 'm') v <<= 20;
  return v;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  ctx c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.np);
  const char *list = "barrier,bcast,reduce,allreduce,allgather,alltoall,gather,scatter,scan,exscan";
  const char *sizes = "4,64,1K,16K,64K,1M";
  int rounds = 25;
  double target = 0.002;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-c")) list = argv[i + 1];
    else if (!strcmp(argv[i], "-l")) sizes = argv[i + 1];
    else if (!strcmp(argv[i], "-r")) rounds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-T")) target = atof(argv[i + 1]);
  }
  long max = 0;
  char *sl = strdup(sizes);
  for (char *t = strtok(sl, ","); t; t = strtok(NULL, ",")) max = parse_size(t) > max ? parse_size(t) : max;
  free(sl);
  c.sbuf = calloc((size_t)(c.np < 2 ? 2 : c.np), (size_t)(max > 4 ? max : 4));
  c.rbuf = calloc((size_t)(c.np < 2 ? 2 : c.np), (size_t)(max > 4 ? max : 4));
  c.counts = calloc((size_t)c.np < 2 ? 2 : (size_t)c.np, sizeof(int));
  c.displs = calloc((size_t)c.np < 2 ? 2 : (size_t)c.np, sizeof(int));
  c.types = malloc(((size_t)c.np < 2 ? 2 : (size_t)c.np) * sizeof(MPI_Datatype));
  for (int j = 0; j < (c.np < 2 ? 2 : c.np); ++j) c.types[j] = MPI_BYTE;
  {
    int dims[1] = {c.np}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c.ring);
  }
  char *names = strdup(list);
  for (char *name = strtok(names, ","); name; name = strtok(NULL, ",")) {
    char *sz = strdup(sizes), *save = NULL;
    for (char *t = strtok_r(sz, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      c.size = strcmp(name, "barrier") ? parse_size(t) : 0;
      v_counts(name, &c);
      MPI_Request req;
      if (call(name, &c, &req) != MPI_SUCCESS) {
        if (c.rank == 0) fprintf(stderr, "persistent: unknown collective '%s'\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
      /* Iterations: what fits `target` seconds, by a probe of each form. */
      timed(name, &c, NULL, 3);
      timed(name, &c, &req, 3);
      double probe = timed(name, &c, NULL, 10) + timed(name, &c, &req, 10);
      long iters = probe > 0 ? (long)(2 * target / probe) : 1000;
      if (iters < 5) iters = 5;
      if (iters > 20000) iters = 20000;
      double best_b = 1e30, best_p = 1e30;
      for (int r = 0; r < rounds; ++r) {
        double b = timed(name, &c, NULL, iters), p = timed(name, &c, &req, iters);
        if (b < best_b) best_b = b;
        if (p < best_p) best_p = p;
      }
      if (c.rank == 0) printf("%s %ld %.3f %.3f %.2f\n", name, c.size, best_b * 1e6, best_p * 1e6, best_p / best_b);
      fflush(stdout);
      MPI_Request_free(&req);
      if (!strcmp(name, "barrier")) break;
    }
    free(sz);
  }
  free(names);
  free(c.sbuf);
  free(c.rbuf);
  free(c.counts);
  free(c.displs);
  free(c.types);
  MPI_Comm_free(&c.ring);
  MPI_Finalize();
  return 0;
}
