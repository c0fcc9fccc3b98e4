/* ringmpi-tune-bench: times one collective family at several sizes, for
 * ringmpi-tune (run under mpiexec with RINGMPI_COLL_<FAMILY> forced, or
 * not: the built-in choice).
 *
 *   ringmpi-tune-bench FAMILY ITERS SIZE...
 *
 * FAMILY is barrier, bcast, scatter, gather, allgather, alltoall, reduce,
 * allreduce, reduce_scatter, scan or exscan (MPI_Exscan: the scan family,
 * RINGMPI_COLL_SCAN); SIZE the bytes the default choice
 * looks at (docs/guide/collective-algorithms.md, "Rules files"). Rank 0
 * prints one line per size: "SIZE USEC ALGORITHM [WAY]" (the slowest rank's
 * mean time per call, and the algorithm that ran the timed calls on rank 0,
 * from the counters coll_<family>_<algorithm>, with the segment's way it
 * took when it ran on the segment: segment_slot, ...) or "SIZE -" when the forced
 * algorithm cannot run that call (the call fails alike on every rank:
 * MPI_ERRORS_RETURN). Ranks meet and
 * report through point-to-point messages only, so that the forced family
 * is never needed for that. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int np, me;

/* A barrier of messages, whatever RINGMPI_COLL_BARRIER says. */
static void meet(void) {
  char z = 0;
  if (me == 0) {
    for (int r = 1; r < np; ++r) MPI_Recv(&z, 0, MPI_BYTE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int r = 1; r < np; ++r) MPI_Send(&z, 0, MPI_BYTE, r, 2, MPI_COMM_WORLD);
  } else {
    MPI_Send(&z, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&z, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static char *a, *b;

/* The algorithms' counters of a family (MPIX_Query_counter coll_<family>_<algo>):
 * the algorithms, then the segment's ways (counted beside `segment`). */
static const char* const kAlgos[] = {"local",          "segment",         "numa_leaders",  "world_counter",
                                     "messages",       "schedule",        "segment_slot",  "segment_address",
                                     "segment_split",  "segment_whole",   "segment_blocks", "segment_chunks",
                                     "segment_chain"};
enum { kAlgoCount = 13, kFirstWay = 6 };
static void counters(const char* family, MPI_Count* out) {
  char name[64];
  for (int i = 0; i < kAlgoCount; ++i) {
    snprintf(name, sizeof name, "coll_%s_%s", strcmp(family, "exscan") ? family : "scan", kAlgos[i]);
    out[i] = 0;
    if (MPIX_Query_counter(name, &out[i]) != MPI_SUCCESS) out[i] = 0;
  }
}

/* One call of the family with `bytes` (the size the choice looks at). */
static int call(const char* f, size_t bytes) {
  const int n = (int)bytes;
  const int ints = n / 4 > 0 ? n / 4 : 1;
  if (!strcmp(f, "barrier")) return MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(f, "bcast")) return MPI_Bcast(a, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (!strcmp(f, "scatter")) return MPI_Scatter(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (!strcmp(f, "gather")) return MPI_Gather(a, n, MPI_BYTE, b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (!strcmp(f, "allgather")) {  /* bytes: the total */
    const int block = n / np > 0 ? n / np : 1;
    return MPI_Allgather(a, block, MPI_BYTE, b, block, MPI_BYTE, MPI_COMM_WORLD);
  }
  if (!strcmp(f, "alltoall")) return MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
  if (!strcmp(f, "reduce")) return MPI_Reduce(a, b, ints, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (!strcmp(f, "allreduce")) return MPI_Allreduce(a, b, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!strcmp(f, "reduce_scatter")) {  /* bytes: the whole vector */
    const int each = ints / np > 0 ? ints / np : 1;
    return MPI_Reduce_scatter_block(a, b, each, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  if (!strcmp(f, "scan")) return MPI_Scan(a, b, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!strcmp(f, "exscan")) return MPI_Exscan(a, b, ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return -1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc < 4) {
    if (me == 0) fprintf(stderr, "usage: ringmpi-tune-bench FAMILY ITERS SIZE...\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const char* family = argv[1];
  const int iters = atoi(argv[2]);
  size_t largest = 4;
  for (int i = 3; i < argc; ++i)
    if ((size_t)atol(argv[i]) > largest) largest = (size_t)atol(argv[i]);
  /* Room for the largest call: alltoall and gather move np blocks. */
  const size_t room = largest * (size_t)np + 64;
  a = calloc(room, 1);
  b = calloc(room, 1);
  if (!a || !b) MPI_Abort(MPI_COMM_WORLD, 2);
  if (call(family, 4) == -1) {
    if (me == 0) fprintf(stderr, "ringmpi-tune-bench: no family '%s'\n", family);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 3; i < argc; ++i) {
    const size_t bytes = (size_t)atol(argv[i]);
    meet();
    int ok = call(family, bytes) == MPI_SUCCESS; /* warm up, and can it run? */
    double t = -1;
    const char* ran = "?";
    const char* way = NULL;
    if (ok) {
      for (int w = 0; w < 2; ++w) call(family, bytes);
      MPI_Count before[kAlgoCount], after[kAlgoCount];
      counters(family, before);
      meet();
      const double t0 = MPI_Wtime();
      for (int k = 0; k < iters; ++k)
        if (call(family, bytes) != MPI_SUCCESS) ok = 0;
      t = (MPI_Wtime() - t0) / iters * 1e6;
      counters(family, after);
      MPI_Count most = 0, most_way = 0;
      for (int i = 0; i < kAlgoCount; ++i) {
        MPI_Count* m = i < kFirstWay ? &most : &most_way;
        if (after[i] - before[i] > *m) {
          *m = after[i] - before[i];
          if (i < kFirstWay) ran = kAlgos[i];
          else way = kAlgos[i];
        }
      }
    }
    if (me == 0) {
      double worst = ok ? t : -1;
      for (int r = 1; r < np; ++r) {
        double theirs;
        MPI_Recv(&theirs, 1, MPI_DOUBLE, r, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (theirs < 0 || worst < 0) worst = -1;
        else if (theirs > worst) worst = theirs;
      }
      if (worst < 0) printf("%zu -\n", bytes);
      else if (way) printf("%zu %.3f %s %s\n", bytes, worst, ran, way);
      else printf("%zu %.3f %s\n", bytes, worst, ran);
      fflush(stdout);
    } else {
      const double mine = ok ? t : -1;
      MPI_Send(&mine, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
    }
  }
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
