/* MPI_Reduce of large vectors between two ranks with a core each (the root
 * reads the other vector by single copy, coll/seg_reduction.cpp pair_reduce),
 * every root, and MPI_Allreduce (each rank folds half, reading the other's
 * half of x and then its folded half, pair_allreduce; an odd count, so the
 * halves differ), plain and MPI_IN_PLACE: integer and floating sums (whose two
 * operands commute bit for bit, so the root may fold either way round),
 * MPI_MAX of floats with NaN operands and a non-commutative user op (both
 * folded in rank order, x0 op x1). Run at np = 1 and 2: the expected values
 * are left folds, which for more ranks MPI does not promise (an op is only
 * assumed associative, and minus_twice is not). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define N 20001 /* 80 KB of ints: above the 32 KiB single-copy threshold; odd: unequal halves */

/* (a, b) -> a - 2b: not commutative, and x0 op x1 differs from x1 op x0. */
static void minus_twice(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i) b[i] = a[i] - 2 * b[i];
}

/* MPI_Reduce to root, or MPI_Allreduce where root < 0. */
static void reduce_to(const void* send, void* recv, MPI_Datatype t, MPI_Op op, int root) {
  if (root < 0)
    CHECK_MPI(MPI_Allreduce(send, recv, N, t, op, MPI_COMM_WORLD));
  else
    CHECK_MPI(MPI_Reduce(send, recv, N, t, op, root, MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int *x = malloc(sizeof(int) * N), *y = malloc(sizeof(int) * N);
  float *f = malloc(sizeof(float) * N), *g = malloc(sizeof(float) * N);
  MPI_Op minus;
  CHECK_MPI(MPI_Op_create(minus_twice, 0, &minus));
  for (int root = -1; root < n; ++root) { /* -1: MPI_Allreduce */
    const int gets = root < 0 || me == root; /* holds the result */
    for (int in_place = 0; in_place < 2; ++in_place) {
      /* Integer sum. */
      for (int i = 0; i < N; ++i) x[i] = (me + 1) * 1000 + i;
      if (in_place && gets) memcpy(y, x, sizeof(int) * N);
      reduce_to(in_place && gets ? MPI_IN_PLACE : x, y, MPI_INT, MPI_SUM, root);
      if (gets)
        for (int i = 0; i < N; ++i) CHECK(y[i] == 1000 * n * (n + 1) / 2 + n * i);
      /* Float sum and max with NaN, against the rank-order fold. */
      for (int i = 0; i < N; ++i) f[i] = (i % 7 == 0 && me == i % n) ? NAN : (float)(me * 0.1 + i * 1e-3);
      if (in_place && gets) memcpy(g, f, sizeof(float) * N);
      reduce_to(in_place && gets ? MPI_IN_PLACE : f, g, MPI_FLOAT, MPI_MAX, root);
      if (gets)
        for (int i = 0; i < N; ++i) {
          float want = 0;
          for (int q = 0; q < n; ++q) {
            const float v = (i % 7 == 0 && q == i % n) ? NAN : (float)(q * 0.1 + i * 1e-3);
            want = q == 0 ? v : (want > v ? want : v); /* the kernel's a > b ? a : b, in rank order */
          }
          CHECK(memcmp(&g[i], &want, sizeof want) == 0 || (isnan(g[i]) && isnan(want)));
        }
      for (int i = 0; i < N; ++i) f[i] = (float)(me + 1) * 0.3f + (float)i;
      if (in_place && gets) memcpy(g, f, sizeof(float) * N);
      reduce_to(in_place && gets ? MPI_IN_PLACE : f, g, MPI_FLOAT, MPI_SUM, root);
      if (gets)
        for (int i = 0; i < N; ++i) {
          float want = 0;
          for (int q = 0; q < n; ++q) want = q == 0 ? (float)(q + 1) * 0.3f + (float)i : want + ((float)(q + 1) * 0.3f + (float)i);
          CHECK(g[i] == want);
        }
      /* Non-commutative user op: ((x0 op x1) op x2) ... */
      for (int i = 0; i < N; ++i) x[i] = me * 3 + i % 5;
      if (in_place && gets) memcpy(y, x, sizeof(int) * N);
      reduce_to(in_place && gets ? MPI_IN_PLACE : x, y, MPI_INT, minus, root);
      if (gets)
        for (int i = 0; i < N; ++i) {
          int want = i % 5; /* x0 */
          for (int q = 1; q < n; ++q) want = want - 2 * (q * 3 + i % 5);
          CHECK(y[i] == want);
        }
    }
  }
  CHECK_MPI(MPI_Op_free(&minus));
  free(x);
  free(y);
  free(f);
  free(g);
  MPI_Finalize();
  return 0;
}
