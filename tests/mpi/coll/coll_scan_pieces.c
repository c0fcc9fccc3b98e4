/* MPI_Scan and MPI_Exscan of vectors larger than a slot region, plain and
 * MPI_IN_PLACE: with more ranks than cores they take the chain by single
 * copy in pieces (coll/seg_reduction.cpp, scan_pieces), each rank folding
 * its predecessor's partial result piece by piece while that one still
 * publishes the next. Three ops: an integer sum (operands that commute:
 * the inclusive scan reads the partial straight into its result), a float
 * sum whose exact bits depend on the order (checked against the left fold
 * x0 + x1 + ... computed here), and an associative, non-commutative user op
 * on a 12-byte type that does not divide the piece (upper triangular 2x2
 * matrices, unsigned: the product M0 M1 ... Mi in rank order). The counts
 * cross several pieces (MPI_Scan; MPI_Exscan hands its partial on whole)
 * and end in a partial one. Where the chain ran (more ranks than cores,
 * single copy), the test checks that every call took it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "counter.h"

#define NSUM 70001 /* ints: 280 KB, above any slot region: 4 pieces, the last shorter */
#define NTRI 30001 /* 12-byte matrices: 360 KB, 4 pieces of 7501 elements, the last shorter */

typedef struct {
  unsigned a, b, d; /* [a b; 0 d] */
} tri;

/* inout = in * inout (in comes first in rank order). */
static void trimul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const tri* x = in;
  tri* y = inout;
  for (int i = 0; i < *len; ++i) {
    const tri p = x[i], q = y[i];
    y[i].a = p.a * q.a;
    y[i].b = p.a * q.b + p.b * q.d;
    y[i].d = p.d * q.d;
  }
}

static tri tri_of(int rank, int i) {
  tri t = {(unsigned)(rank * 3 + i % 7 + 1), (unsigned)(rank + i), (unsigned)(i % 5 + rank + 2)};
  return t;
}
static float float_of(int rank, int i) { return 1.0f / (float)(rank * 3 + i % 13 + 1) + (float)(rank % 3) * 1e4f; }

/* MPI_Scan (exclusive 0) or MPI_Exscan of in into out, MPI_IN_PLACE where
 * inp (out then starts as a copy of in; else as 0xff bytes). */
static void scan_to(int exclusive, int inp, const void* in, void* out, size_t bytes, int count, MPI_Datatype t,
                    MPI_Op op) {
  if (inp)
    memcpy(out, in, bytes);
  else
    memset(out, 0xff, bytes);
  const void* send = inp ? MPI_IN_PLACE : in;
  if (exclusive)
    CHECK_MPI(MPI_Exscan(send, out, count, t, op, MPI_COMM_WORLD));
  else
    CHECK_MPI(MPI_Scan(send, out, count, t, op, MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Datatype tt;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_UNSIGNED, &tt));
  CHECK_MPI(MPI_Type_commit(&tt));
  MPI_Op mul;
  CHECK_MPI(MPI_Op_create(trimul, 0, &mul));
  int *x = malloc(sizeof(int) * NSUM), *y = malloc(sizeof(int) * NSUM);
  float *f = malloc(sizeof(float) * NSUM), *g = malloc(sizeof(float) * NSUM), *fwant = malloc(sizeof(float) * NSUM);
  tri *m = malloc(sizeof(tri) * NTRI), *p = malloc(sizeof(tri) * NTRI), *want = malloc(sizeof(tri) * NTRI);
  const char* fallback = getenv("RINGMPI_FORCE_COPY_FALLBACK");
  const int chain = n > sysconf(_SC_NPROCESSORS_ONLN) && !(fallback && strcmp(fallback, "1") == 0);
  const long long taken0 = counter("coll_scan_segment_address");
  int calls = 0;
  for (int exclusive = 0; exclusive < 2; ++exclusive) {
    /* What rank me gets: contributions 0 .. last, left to right. */
    const int last = exclusive ? me - 1 : me;
    for (int i = 0; i < NSUM; ++i) {
      float acc = float_of(0, i);
      for (int q = 1; q <= last; ++q) acc = acc + float_of(q, i);
      fwant[i] = acc;
    }
    for (int i = 0; i < NTRI; ++i) {
      tri acc = tri_of(0, i);
      for (int q = 1; q <= last; ++q) {
        tri e = tri_of(q, i);
        int one = 1;
        trimul(&acc, &e, &one, NULL);
        acc = e;
      }
      want[i] = acc;
    }
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int gets = last >= 0;
      for (int i = 0; i < NSUM; ++i) x[i] = (me + 1) * 1000 + i;
      scan_to(exclusive, in_place, x, y, sizeof(int) * NSUM, NSUM, MPI_INT, MPI_SUM);
      if (gets)
        for (int i = 0; i < NSUM; ++i) CHECK(y[i] == 1000 * (last + 1) * (last + 2) / 2 + (last + 1) * i);
      for (int i = 0; i < NSUM; ++i) f[i] = float_of(me, i);
      scan_to(exclusive, in_place, f, g, sizeof(float) * NSUM, NSUM, MPI_FLOAT, MPI_SUM);
      if (gets) CHECK(memcmp(g, fwant, sizeof(float) * NSUM) == 0);
      for (int i = 0; i < NTRI; ++i) m[i] = tri_of(me, i);
      scan_to(exclusive, in_place, m, p, sizeof(tri) * NTRI, NTRI, tt, mul);
      if (gets) CHECK(memcmp(p, want, sizeof(tri) * NTRI) == 0);
      calls += 3;
    }
  }
  if (chain) {
    const long long taken = counter("coll_scan_segment_address") - taken0;
    if (taken != calls) fprintf(stderr, "rank %d: %lld of %d scans by the chain in pieces\n", me, taken, calls);
    CHECK(taken == calls);
  }
  CHECK_MPI(MPI_Op_free(&mul));
  CHECK_MPI(MPI_Type_free(&tt));
  free(x);
  free(y);
  free(f);
  free(g);
  free(fwant);
  free(m);
  free(p);
  free(want);
  MPI_Finalize();
  return 0;
}
