/* Every blocking collective at sizes that take each path of the shared-segment
 * engine (through a slot half: 4 B and 6000 B; straight from the writer's
 * buffer: 160 KB), with a contiguous and a strided derived datatype, every
 * root, MPI_IN_PLACE, a communicator split in two, and a non-commutative user
 * operation (2x2 matrix product, folded whole and by blocks). Results are
 * checked against values computed locally.
 *
 * Built several times (meson.build): EXPECT_SEGMENT checks before
 * MPI_Finalize that every family ran on the segment and none over messages,
 * with EXPECT_SINGLE_COPY also that large data was read straight from
 * buffers (large gather blocks pushed into the root's: seg_pushed) and
 * reductions were folded by blocks; EXPECT_MESSAGES
 * (RINGMPI_COLL_*=2) that none ran on the segment.
 *
 * NUMA_LAYOUT (two-level paths): before MPI_Init each rank describes to hwloc
 * a machine of two NUMA nodes of one PU each (HWLOC_SYNTHETIC) and pins
 * itself to PU 0 or 1, so that it is on node 0 or 1: NUMA_LAYOUT 1 puts the
 * lower half of the ranks on node 0 (groups of consecutive ranks), 2
 * alternates (interleaved groups: non-commutative reductions stay flat).
 * NUMA_LAYOUT 4 describes four NUMA nodes of one PU each and pins rank r
 * to cpu r * 4 / size (modulo the cpus there are): quarters of consecutive
 * ranks on four nodes where the machine has four cpus, halves on two
 * nodes of the four on a two-cpu machine.
 * The results must be the same as on the flat paths, and the two-level
 * paths must have run (seg_two_level); where the ranks cannot be pinned so
 * (one cpu), the variant checks the results, then exits 77 (skipped). */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counter.h"
#include "matmul.h"

static int rank, size;

/* Unit upper/lower triangular matrices: products stay small and order shows. */
static void matrix_of(int r, int k, int m[4]) {
  m[0] = 1; m[1] = (r + k) % 3; m[2] = 0; m[3] = 1;
  if (r % 2) { m[1] = 0; m[2] = (r + 2 * k) % 3; }
}

static int value(int owner, int dest, int i) { return owner * 1000003 + dest * 1009 + i; }

/* Element counts (ints) that land on the slot path, the middle and the
 * single-copy path. */
static const int kCounts[] = {1, 1500, 40000};
enum { kNCounts = 3 };

static void movement(MPI_Comm comm) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  MPI_Datatype stride2; /* every other int */
  for (int ci = 0; ci < kNCounts; ++ci) {
    const int cnt = kCounts[ci];
    int *buf = malloc(sizeof(int) * (size_t)cnt * 2 * n + 8);
    int *out = malloc(sizeof(int) * (size_t)cnt * 2 * n + 8);
    CHECK_MPI(MPI_Type_vector(cnt, 1, 2, MPI_INT, &stride2));
    CHECK_MPI(MPI_Type_commit(&stride2));
    for (int root = 0; root < n; ++root) {
      /* Bcast, contiguous and strided. */
      for (int i = 0; i < cnt; ++i) buf[i] = me == root ? value(root, 0, i) : -1;
      CHECK_MPI(MPI_Bcast(buf, cnt, MPI_INT, root, comm));
      for (int i = 0; i < cnt; ++i) CHECK(buf[i] == value(root, 0, i));
      for (int i = 0; i < 2 * cnt; ++i) buf[i] = me == root ? value(root, 1, i) : -7;
      CHECK_MPI(MPI_Bcast(buf, 1, stride2, root, comm));
      for (int i = 0; i < 2 * cnt; ++i) CHECK(buf[i] == (i % 2 == 0 || me == root ? value(root, 1, i) : -7));

      /* Scatter, and in place at the root. */
      if (me == root)
        for (int d = 0; d < n; ++d)
          for (int i = 0; i < cnt; ++i) buf[d * cnt + i] = value(root, d, i);
      for (int i = 0; i < cnt; ++i) out[i] = -1;
      CHECK_MPI(MPI_Scatter(buf, cnt, MPI_INT, out, cnt, MPI_INT, root, comm));
      for (int i = 0; i < cnt; ++i) CHECK(out[i] == value(root, me, i));
      CHECK_MPI(MPI_Scatter(buf, cnt, MPI_INT, me == root ? MPI_IN_PLACE : out, cnt, MPI_INT, root, comm));
      for (int i = 0; i < cnt; ++i) CHECK((me == root ? buf[root * cnt + i] : out[i]) == value(root, me, i));

      /* Scatterv: rank d gets (d % 3) * cnt / 2 ints, blocks in reverse order. */
      {
        int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
        int at = 0;
        for (int d = n - 1; d >= 0; --d) { counts[d] = (d % 3) * cnt / 2; displs[d] = at; at += counts[d]; }
        if (me == root)
          for (int d = 0; d < n; ++d)
            for (int i = 0; i < counts[d]; ++i) buf[displs[d] + i] = value(root, d, i);
        for (int i = 0; i < counts[me]; ++i) out[i] = -1;
        CHECK_MPI(MPI_Scatterv(buf, counts, displs, MPI_INT, out, counts[me], MPI_INT, root, comm));
        for (int i = 0; i < counts[me]; ++i) CHECK(out[i] == value(root, me, i));
        /* Gatherv back, in place at the root. */
        for (int i = 0; i < counts[me]; ++i) out[i] = value(me, root, i);
        if (me == root) for (int i = 0; i < at; ++i) buf[i] = -3;
        if (me == root)
          for (int i = 0; i < counts[root]; ++i) buf[displs[root] + i] = value(root, root, i);
        CHECK_MPI(MPI_Gatherv(me == root ? MPI_IN_PLACE : out, counts[me], MPI_INT, buf, counts, displs, MPI_INT, root,
                              comm));
        if (me == root)
          for (int d = 0; d < n; ++d)
            for (int i = 0; i < counts[d]; ++i) CHECK(buf[displs[d] + i] == value(d, root, i));
        free(counts);
        free(displs);
      }

      /* Gather into a strided receive type. */
      for (int i = 0; i < cnt; ++i) out[i] = value(me, root, i);
      CHECK_MPI(MPI_Gather(out, cnt, MPI_INT, buf, 1, stride2, root, comm));
      if (me == root)
        for (int d = 0; d < n; ++d)
          for (int i = 0; i < cnt; ++i) CHECK(buf[d * (2 * cnt - 1) + 2 * i] == value(d, root, i)); /* extent: 2 cnt - 1 ints */
    }

    /* Allgather (plain and in place) and Allgatherv. */
    for (int i = 0; i < cnt; ++i) out[i] = value(me, 9, i);
    CHECK_MPI(MPI_Allgather(out, cnt, MPI_INT, buf, cnt, MPI_INT, comm));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(buf[d * cnt + i] == value(d, 9, i));
    for (int i = 0; i < n * cnt; ++i) buf[i] = -1;
    for (int i = 0; i < cnt; ++i) buf[me * cnt + i] = value(me, 8, i);
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, cnt, MPI_INT, comm));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(buf[d * cnt + i] == value(d, 8, i));
    {
      int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
      int at = 0;
      for (int d = 0; d < n; ++d) { counts[d] = (d + 1) * cnt / n; displs[d] = at; at += counts[d] + 1; }
      for (int i = 0; i < counts[me]; ++i) out[i] = value(me, 7, i);
      CHECK_MPI(MPI_Allgatherv(out, counts[me], MPI_INT, buf, counts, displs, MPI_INT, comm));
      for (int d = 0; d < n; ++d)
        for (int i = 0; i < counts[d]; ++i) CHECK(buf[displs[d] + i] == value(d, 7, i));
      free(counts);
      free(displs);
    }

    /* Alltoall (plain, strided receive, in place) and Alltoallv. */
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) buf[d * cnt + i] = value(me, d, i);
    CHECK_MPI(MPI_Alltoall(buf, cnt, MPI_INT, out, cnt, MPI_INT, comm));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(out[d * cnt + i] == value(d, me, i));
    CHECK_MPI(MPI_Alltoall(buf, cnt, MPI_INT, out, 1, stride2, comm));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(out[d * (2 * cnt - 1) + 2 * i] == value(d, me, i));
    CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, cnt, MPI_INT, comm));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(buf[d * cnt + i] == value(d, me, i));
    {
      int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n);
      int *rc = malloc(sizeof(int) * n), *rd = malloc(sizeof(int) * n);
      int sat = 0, rat = 0;
      for (int d = 0; d < n; ++d) {
        sc[d] = ((me + d) % 3) * cnt / 2; sd[d] = sat; sat += sc[d];
        rc[d] = ((d + me) % 3) * cnt / 2; rd[d] = rat; rat += rc[d];
      }
      for (int d = 0; d < n; ++d)
        for (int i = 0; i < sc[d]; ++i) buf[sd[d] + i] = value(me, d, i);
      CHECK_MPI(MPI_Alltoallv(buf, sc, sd, MPI_INT, out, rc, rd, MPI_INT, comm));
      for (int d = 0; d < n; ++d)
        for (int i = 0; i < rc[d]; ++i) CHECK(out[rd[d] + i] == value(d, me, i));
      free(sc); free(sd); free(rc); free(rd);
    }
    MPI_Type_free(&stride2);
    free(buf);
    free(out);
  }
}

static void reductions(MPI_Comm comm, MPI_Op matop, MPI_Datatype mat) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  for (int ci = 0; ci < kNCounts; ++ci) {
    const int cnt = kCounts[ci]; /* matrices: 16 bytes each */
    int *x = malloc(sizeof(int) * 4 * (size_t)cnt * n), *y = malloc(sizeof(int) * 4 * (size_t)cnt * n);
    int *want = malloc(sizeof(int) * 4 * (size_t)cnt * (n + 1));
    /* want[r] = m0 * m1 * ... * m(r) per element (inclusive prefixes). */
    int *pre = malloc(sizeof(int) * 4 * (size_t)cnt * n);
    for (int k = 0; k < cnt; ++k) {
      int acc[4];
      matrix_of(0, k, acc);
      memcpy(pre + 4 * k, acc, sizeof acc);
      for (int r = 1; r < n; ++r) {
        int m[4];
        matrix_of(r, k, m);
        mat2_mul(acc, m, acc);
        memcpy(pre + 4 * ((size_t)r * cnt + k), acc, sizeof acc);
      }
    }
    const int *total = pre + 4 * (size_t)(n - 1) * cnt;
    for (int k = 0; k < cnt; ++k) matrix_of(me, k, x + 4 * k);
    for (int root = 0; root < n; root += (n > 3 ? n - 1 : 1)) {
      memset(y, 0, sizeof(int) * 4 * cnt);
      CHECK_MPI(MPI_Reduce(x, y, cnt, mat, matop, root, comm));
      if (me == root) CHECK(memcmp(y, total, sizeof(int) * 4 * cnt) == 0);
      if (me == root) memcpy(y, x, sizeof(int) * 4 * cnt);
      CHECK_MPI(MPI_Reduce(me == root ? MPI_IN_PLACE : x, y, cnt, mat, matop, root, comm));
      if (me == root) CHECK(memcmp(y, total, sizeof(int) * 4 * cnt) == 0);
    }
    memset(y, 0, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Allreduce(x, y, cnt, mat, matop, comm));
    CHECK(memcmp(y, total, sizeof(int) * 4 * cnt) == 0);
    memcpy(y, x, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, y, cnt, mat, matop, comm));
    CHECK(memcmp(y, total, sizeof(int) * 4 * cnt) == 0);
    /* Sum of ints too (a predefined op on a predefined type). */
    {
      int *a = malloc(sizeof(int) * cnt), *b = malloc(sizeof(int) * cnt);
      for (int i = 0; i < cnt; ++i) a[i] = me + i;
      CHECK_MPI(MPI_Allreduce(a, b, cnt, MPI_INT, MPI_SUM, comm));
      for (int i = 0; i < cnt; ++i) CHECK(b[i] == n * (n - 1) / 2 + n * i);
      free(a);
      free(b);
    }
    /* Scans of doubles whose sum depends on the association: every path must
     * fold left to right in rank order, ((x0 + x1) + x2) + ..., bit for bit. */
    {
      double *a = malloc(sizeof(double) * cnt), *b = malloc(sizeof(double) * cnt);
      for (int i = 0; i < cnt; ++i) a[i] = me % 2 ? 1.0 + i % 3 : (me % 4 ? -1e16 : 1e16);
      CHECK_MPI(MPI_Scan(a, b, cnt, MPI_DOUBLE, MPI_SUM, comm));
      for (int i = 0; i < cnt; ++i) {
        double want_i = 0;
        for (int q = 0; q <= me; ++q) want_i = q == 0 ? (1e16) : want_i + (q % 2 ? 1.0 + i % 3 : (q % 4 ? -1e16 : 1e16));
        CHECK(b[i] == want_i);
      }
      CHECK_MPI(MPI_Exscan(a, b, cnt, MPI_DOUBLE, MPI_SUM, comm));
      for (int i = 0; i < cnt && me > 0; ++i) {
        double want_i = 0;
        for (int q = 0; q < me; ++q) want_i = q == 0 ? (1e16) : want_i + (q % 2 ? 1.0 + i % 3 : (q % 4 ? -1e16 : 1e16));
        CHECK(b[i] == want_i);
      }
      free(a);
      free(b);
    }
    /* Scan and Exscan, plain and in place. */
    memset(y, 0, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Scan(x, y, cnt, mat, matop, comm));
    CHECK(memcmp(y, pre + 4 * (size_t)me * cnt, sizeof(int) * 4 * cnt) == 0);
    memcpy(y, x, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Scan(MPI_IN_PLACE, y, cnt, mat, matop, comm));
    CHECK(memcmp(y, pre + 4 * (size_t)me * cnt, sizeof(int) * 4 * cnt) == 0);
    memset(y, 0, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Exscan(x, y, cnt, mat, matop, comm));
    if (me > 0) CHECK(memcmp(y, pre + 4 * (size_t)(me - 1) * cnt, sizeof(int) * 4 * cnt) == 0);
    memcpy(y, x, sizeof(int) * 4 * cnt);
    CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, y, cnt, mat, matop, comm));
    if (me > 0) CHECK(memcmp(y, pre + 4 * (size_t)(me - 1) * cnt, sizeof(int) * 4 * cnt) == 0);
    /* Reduce_scatter with uneven counts, plain and in place; and _block. */
    {
      int *counts = malloc(sizeof(int) * n);
      int sum = 0, off = 0;
      for (int d = 0; d < n; ++d) { counts[d] = (d % 2 + 1) * cnt / 2; sum += counts[d]; }
      for (int d = 0; d < me; ++d) off += counts[d];
      int *xs = malloc(sizeof(int) * 4 * (size_t)(sum + 1)), *ys = malloc(sizeof(int) * 4 * (size_t)(sum + 1));
      /* Elements are the same matrices repeated: element e is matrix_of(rank, e % cnt). */
      for (int e = 0; e < sum; ++e) matrix_of(me, e % cnt, xs + 4 * e);
      CHECK_MPI(MPI_Reduce_scatter(xs, ys, counts, mat, matop, comm));
      for (int e = 0; e < counts[me]; ++e) CHECK(memcmp(ys + 4 * e, total + 4 * ((off + e) % cnt), 16) == 0);
      CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, xs, counts, mat, matop, comm));
      for (int e = 0; e < counts[me]; ++e) CHECK(memcmp(xs + 4 * e, total + 4 * ((off + e) % cnt), 16) == 0);
      for (int e = 0; e < cnt * n; ++e) matrix_of(me, e % cnt, x + 4 * e);
      CHECK_MPI(MPI_Reduce_scatter_block(x, y, cnt, mat, matop, comm));
      for (int e = 0; e < cnt; ++e) CHECK(memcmp(y + 4 * e, total + 4 * ((me * cnt + e) % cnt), 16) == 0);
      free(xs); free(ys); free(counts);
    }
    free(x); free(y); free(want); free(pre);
  }
}

#ifdef NUMA_LAYOUT
/* Returns whether the pinning worked and puts the ranks on two nodes or
 * more (a one-cpu machine cannot have it: NUMA_LAYOUT 4 would put every
 * rank on cpu 0, the others fail to pin to cpu 1). */
static int numa_setup(void) {
  const char *r = getenv("RINGMPI_RANK"), *n = getenv("RINGMPI_SIZE");
  if (!r || !n) return 0;
  const int me = atoi(r), np = atoi(n);
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  const int cpu = NUMA_LAYOUT == 4 ? (int)((me * 4 / np) % (ncpu > 0 ? ncpu : 1))
                  : NUMA_LAYOUT == 2 ? me % 2 : (me < (np + 1) / 2 ? 0 : 1);
  setenv("HWLOC_SYNTHETIC", NUMA_LAYOUT == 4 ? "node:4 core:1 pu:1" : "node:2 core:1 pu:1", 1);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 && ncpu >= 2;
}
#endif

/* Nonblocking collectives on an attached segment: 100 outstanding at once
 * (more than the 64 a slot ring lets a writer run ahead), a blocking one in
 * the middle of them, completed in reverse order. */
static void nonblocking(MPI_Comm comm, MPI_Op matop, MPI_Datatype mat) {
  enum { K = 100 };
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  MPI_Request req[K + 1];
  static int val[K][8], res[K][8];
  for (int k = 0; k < K; ++k) {
    const int root = k % n;
    for (int i = 0; i < 8; ++i) { val[k][i] = me * 100 + k + i; res[k][i] = -1; }
    if (k % 7 == 2) { matrix_of(me, k, val[k]); matrix_of(me, k + 1, val[k] + 4); } /* two small matrices */
    switch (k % 7) {
      case 0: CHECK_MPI(MPI_Ibcast(val[k], 8, MPI_INT, root, comm, &req[k])); break;
      case 1: CHECK_MPI(MPI_Iallreduce(val[k], res[k], 8, MPI_INT, MPI_SUM, comm, &req[k])); break;
      case 2: CHECK_MPI(MPI_Ireduce(val[k], res[k], 2, mat, matop, root, comm, &req[k])); break;
      case 3: CHECK_MPI(MPI_Iscan(val[k], res[k], 8, MPI_INT, MPI_SUM, comm, &req[k])); break;
      case 4: CHECK_MPI(MPI_Iexscan(val[k], res[k], 8, MPI_INT, MPI_MAX, comm, &req[k])); break;
      case 5: CHECK_MPI(MPI_Ibarrier(comm, &req[k])); break;
      case 6: CHECK_MPI(MPI_Ireduce_scatter_block(val[k], res[k], 8 / n, MPI_INT, MPI_SUM, comm, &req[k])); break;
    }
    if (k == K / 2) {
      int x = me, sum = -1;
      CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm));
      CHECK(sum == n * (n - 1) / 2);
    }
  }
  for (int k = K - 1; k >= 0; --k) CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
  for (int k = 0; k < K; ++k) {
    const int root = k % n;
    for (int i = 0; i < 8; ++i) {
      const int base = k + i; /* rank r contributed r * 100 + base */
      switch (k % 7) {
        case 0: CHECK(val[k][i] == root * 100 + base); break;
        case 1: CHECK(res[k][i] == 100 * n * (n - 1) / 2 + n * base); break;
        case 3: CHECK(res[k][i] == 100 * me * (me + 1) / 2 + (me + 1) * base); break;
        case 4: if (me > 0) CHECK(res[k][i] == (me - 1) * 100 + base); break;
        case 6: /* block me of the sum: elements me * (8 / n) ... */
          if (i < 8 / n) CHECK(res[k][i] == 100 * n * (n - 1) / 2 + n * (k + me * (8 / n) + i));
          break;
      }
    }
    if (k % 7 == 2 && me == root) {
      /* m(0) m(1) ... m(n-1) for each of the two matrices, folded by hand. */
      for (int e = 0; e < 2; ++e) {
        int acc[4];
        matrix_of(0, k + e, acc);
        for (int r = 1; r < n; ++r) {
          int m[4];
          matrix_of(r, k + e, m);
          mat2_mul(acc, m, acc);
        }
        CHECK(memcmp(res[k] + 4 * e, acc, sizeof acc) == 0);
      }
    }
  }
}

/* Nonblocking data movement on an attached segment, at every size of
 * kCounts (slot and by address): Iscatter, Iscatterv in place, Igather from
 * a strided send type, Igatherv in place, Iallgather, Iallgatherv in place,
 * Ialltoall into a strided receive type, Ialltoallv in place; all eight
 * outstanding at once, completed in reverse order. */
static void nonblocking_movement(MPI_Comm comm) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const char *fam[] = {"seg_scatter", "seg_gather", "seg_allgather", "seg_alltoall"};
  long long before[4];
  for (int f = 0; f < 4; ++f) before[f] = counter(fam[f]);
  for (int ci = 0; ci < kNCounts; ++ci) {
    const int cnt = kCounts[ci], root = (ci + 1) % n;
    const size_t big = (size_t)(cnt + 2) * 2 * n + 8; /* sdis: (cnt + 2) per peer */
    int *b[8], *o[8];
    for (int j = 0; j < 8; ++j) { b[j] = malloc(sizeof(int) * big); o[j] = malloc(sizeof(int) * big); }
    int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
    int *sym = malloc(sizeof(int) * n), *sdis = malloc(sizeof(int) * n);
    int at = 0, sat = 0;
    for (int d = 0; d < n; ++d) {
      counts[d] = cnt - d % 2; displs[d] = at; at += counts[d] + 1;
      sym[d] = cnt - (me + d) % 2; sdis[d] = sat; sat += sym[d] + 2; /* count(me <-> d), symmetric */
    }
    MPI_Datatype stride2, stride2r;
    CHECK_MPI(MPI_Type_vector(cnt, 1, 2, MPI_INT, &stride2));
    CHECK_MPI(MPI_Type_commit(&stride2));
    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &stride2r)); /* one int, extent two */
    CHECK_MPI(MPI_Type_commit(&stride2r));
    for (int j = 0; j < 8; ++j)
      for (size_t i = 0; i < big; ++i) { b[j][i] = -1; o[j][i] = -1; }
    MPI_Request req[8];
    /* 0: Iscatter. */
    if (me == root)
      for (int d = 0; d < n; ++d)
        for (int i = 0; i < cnt; ++i) b[0][d * cnt + i] = value(root, d, i);
    CHECK_MPI(MPI_Iscatter(b[0], cnt, MPI_INT, o[0], cnt, MPI_INT, root, comm, &req[0]));
    /* 1: Iscatterv, in place at the root. */
    if (me == root)
      for (int d = 0; d < n; ++d)
        for (int i = 0; i < counts[d]; ++i) b[1][displs[d] + i] = value(root, d, i + 1);
    CHECK_MPI(MPI_Iscatterv(b[1], counts, displs, MPI_INT, me == root ? MPI_IN_PLACE : o[1], counts[me], MPI_INT,
                            root, comm, &req[1]));
    /* 2: Igather from every other int. */
    for (int i = 0; i < cnt; ++i) b[2][2 * i] = value(me, root, i + 2);
    CHECK_MPI(MPI_Igather(b[2], 1, stride2, o[2], cnt, MPI_INT, root, comm, &req[2]));
    /* 3: Igatherv, in place at the root. */
    for (int i = 0; i < counts[me]; ++i) (me == root ? o[3] + displs[me] : b[3])[i] = value(me, root, i + 3);
    CHECK_MPI(MPI_Igatherv(me == root ? MPI_IN_PLACE : b[3], counts[me], MPI_INT, o[3], counts, displs, MPI_INT, root,
                           comm, &req[3]));
    /* 4: Iallgather. */
    for (int i = 0; i < cnt; ++i) b[4][i] = value(me, 4, i);
    CHECK_MPI(MPI_Iallgather(b[4], cnt, MPI_INT, o[4], cnt, MPI_INT, comm, &req[4]));
    /* 5: Iallgatherv, in place. */
    for (int i = 0; i < counts[me]; ++i) o[5][displs[me] + i] = value(me, 5, i);
    CHECK_MPI(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, o[5], counts, displs, MPI_INT, comm, &req[5]));
    /* 6: Ialltoall into every other int. */
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) b[6][d * cnt + i] = value(me, d, i + 6);
    CHECK_MPI(MPI_Ialltoall(b[6], cnt, MPI_INT, o[6], cnt, stride2r, comm, &req[6]));
    /* 7: Ialltoallv, in place, counts symmetric in (me, d). */
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < sym[d]; ++i) o[7][sdis[d] + i] = value(me, d, i + 7);
    CHECK_MPI(MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, o[7], sym, sdis, MPI_INT, comm, &req[7]));
    for (int j = 7; j >= 0; --j) CHECK_MPI(MPI_Wait(&req[j], MPI_STATUS_IGNORE));

    for (int i = 0; i < cnt; ++i) CHECK(o[0][i] == value(root, me, i));
    for (int i = 0; i < counts[me]; ++i)
      CHECK((me == root ? b[1][displs[me] + i] : o[1][i]) == value(root, me, i + 1));
    for (int d = 0; d < n && me == root; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(o[2][d * cnt + i] == value(d, root, i + 2));
    for (int d = 0; d < n && me == root; ++d)
      for (int i = 0; i < counts[d]; ++i) CHECK(o[3][displs[d] + i] == value(d, root, i + 3));
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) CHECK(o[4][d * cnt + i] == value(d, 4, i));
    for (int d = 0; d < n; ++d) {
      for (int i = 0; i < counts[d]; ++i) CHECK(o[5][displs[d] + i] == value(d, 5, i));
      CHECK(o[5][displs[d] + counts[d]] == -1); /* the gap between blocks untouched */
    }
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < cnt; ++i) {
        CHECK(o[6][2 * (d * cnt + i)] == value(d, me, i + 6));
        CHECK(o[6][2 * (d * cnt + i) + 1] == -1);
      }
    for (int d = 0; d < n; ++d)
      for (int i = 0; i < sym[d]; ++i) CHECK(o[7][sdis[d] + i] == value(d, me, i + 7));
    CHECK_MPI(MPI_Type_free(&stride2));
    CHECK_MPI(MPI_Type_free(&stride2r));
    for (int j = 0; j < 8; ++j) { free(b[j]); free(o[j]); }
    free(counts); free(displs); free(sym); free(sdis);
  }
#ifdef EXPECT_SEGMENT
  /* Two calls of each family per size, all of them on the segment. */
  for (int f = 0; f < 4; ++f) {
    const long long ran = counter(fam[f]) - before[f];
    if (n > 1 && ran != 2 * kNCounts) fprintf(stderr, "rank %d: %s: %lld nonblocking calls on the segment\n", me, fam[f], ran);
    CHECK(n == 1 || ran == 2 * kNCounts);
  }
#endif
  (void)before;
}

int main(int argc, char **argv) {
#ifdef NUMA_LAYOUT
  const int pinned = numa_setup();
#endif
  MPI_Init(&argc, &argv);

  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op matop;
  MPI_Datatype mat;
  CHECK_MPI(MPI_Op_create(matmul, 0, &matop));
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat));
  CHECK_MPI(MPI_Type_commit(&mat));

  for (int round = 0; round < 2; ++round) {
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    movement(MPI_COMM_WORLD);
    reductions(MPI_COMM_WORLD, matop, mat);
    nonblocking(MPI_COMM_WORLD, matop, mat);
    nonblocking_movement(MPI_COMM_WORLD);
  }
  /* Two halves, ranks reversed: segments owned by other ranks, used at once. */
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
  CHECK_MPI(MPI_Barrier(half));
  movement(half);
  reductions(half, matop, mat);
  CHECK_MPI(MPI_Comm_free(&half));
  /* Many communicators made and freed: segments are handed back and reused. */
  for (int i = 0; i < 40; ++i) {
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    int v = rank == 0 ? i : -1;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, d));
    CHECK(v == i);
    CHECK_MPI(MPI_Comm_free(&d));
  }

  const char *families[] = {"seg_barrier", "seg_bcast", "seg_scatter", "seg_gather", "seg_allgather",
                            "seg_alltoall", "seg_reduce", "seg_allreduce", "seg_reduce_scatter", "seg_scan"};
  long long seg_total = 0;
  for (int f = 0; f < 10; ++f) {
    const long long v = counter(families[f]);
    seg_total += v;
#ifdef EXPECT_MESSAGES
    if (v != 0) fprintf(stderr, "rank %d: %s ran %lld times on the segment\n", rank, families[f], v);
#endif
#ifdef EXPECT_SEGMENT
    if (size > 1 && v == 0) fprintf(stderr, "rank %d: %s never ran on the segment\n", rank, families[f]);
    CHECK(size == 1 || v > 0);
#endif
  }
#ifdef EXPECT_SEGMENT
  if (size > 1 && counter("coll_messages") != 0)
    fprintf(stderr, "rank %d: %lld collectives ran over messages\n", rank, counter("coll_messages"));
  CHECK(size == 1 || counter("coll_messages") == 0);
#endif
#ifdef EXPECT_SINGLE_COPY
  CHECK(size == 1 || (counter("seg_single_copy") > 0 && counter("seg_by_blocks") > 0));
  {
    /* Large gather blocks into contiguous receive blocks: their members push them (seg_movement.cpp). */
    CHECK(size == 1 || counter_total("seg_pushed") > 0);
  }
#endif
#ifdef NUMA_LAYOUT
  {
    const long long all_two = counter_total("seg_two_level");
    int all_pinned = 0;
    CHECK_MPI(MPI_Allreduce(&pinned, &all_pinned, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    if (size >= 3 && all_pinned && all_two == 0) fprintf(stderr, "rank %d: no two-level collective ran\n", rank);
    CHECK(size < 3 || !all_pinned || all_two > 0);
    /* Without the layout the two-level paths had nothing to run on: the
     * results were checked, the point of the variant was not (meson: skip). */
    if (size >= 3 && !all_pinned) {
      if (rank == 0) printf("coll_segment: skipped: the ranks could not be pinned to two NUMA nodes\n");
      MPI_Op_free(&matop);
      MPI_Type_free(&mat);
      MPI_Finalize();
      return 77;
    }
  }
#endif
#ifdef EXPECT_MESSAGES
  CHECK(seg_total == 0);
  CHECK(size == 1 || counter("coll_messages") > 0);
#endif
  (void)seg_total;
  MPI_Op_free(&matop);
  MPI_Type_free(&mat);
  MPI_Finalize();
  return 0;
}
