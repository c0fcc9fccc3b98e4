/* MPI_Reduce and MPI_Allreduce of vectors larger than a slot region, every
 * root, plain and MPI_IN_PLACE: an integer sum and an associative but
 * non-commutative user op (2x2 matrix products, unsigned, on a contiguous
 * type), whose result is the rank-order product M0 M1 ... M(n-1) however it
 * is bracketed. With more ranks than cores the vectors go through the slots
 * in chunks (coll/seg_reduction.cpp, by_even_blocks): then the test also
 * checks that no block was read by single copy and that each call folded
 * several chunks by blocks. Run with RINGMPI_FORCE_COPY_FALLBACK=1 too, where
 * the chunks are the only segment path for these sizes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "counter.h"

#define NSUM 70001 /* ints: 280 KB, above any slot region */
#define NMAT 9001  /* 2x2 matrices: 144 KB */

typedef struct {
  unsigned a, b, c, d;
} mat;

/* inout = in * inout (in comes first in rank order). */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const mat* x = in;
  mat* y = inout;
  for (int i = 0; i < *len; ++i) {
    const mat p = x[i], q = y[i];
    y[i].a = p.a * q.a + p.b * q.c;
    y[i].b = p.a * q.b + p.b * q.d;
    y[i].c = p.c * q.a + p.d * q.c;
    y[i].d = p.c * q.b + p.d * q.d;
  }
}

static mat element(int rank, int i) {
  mat m = {(unsigned)(rank + i), 1u, (unsigned)(rank * 7 + 3), (unsigned)(i % 11 + 2)};
  return m;
}

/* MPI_Allreduce (root -1) or MPI_Reduce of in into out, with MPI_IN_PLACE
 * where inp (out then starts as a copy of in; else as 0xff bytes). */
static void reduce_to(int root, int inp, const void* in, void* out, size_t bytes, int count, MPI_Datatype t, MPI_Op op) {
  if (inp)
    memcpy(out, in, bytes);
  else
    memset(out, 0xff, bytes);
  const void* send = inp ? MPI_IN_PLACE : in;
  if (root < 0)
    CHECK_MPI(MPI_Allreduce(send, out, count, t, op, MPI_COMM_WORLD));
  else
    CHECK_MPI(MPI_Reduce(send, out, count, t, op, root, MPI_COMM_WORLD));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Datatype mt;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_UNSIGNED, &mt));
  CHECK_MPI(MPI_Type_commit(&mt));
  MPI_Op mul;
  CHECK_MPI(MPI_Op_create(matmul, 0, &mul));
  int *x = malloc(sizeof(int) * NSUM), *y = malloc(sizeof(int) * NSUM);
  mat *m = malloc(sizeof(mat) * NMAT), *p = malloc(sizeof(mat) * NMAT), *want = malloc(sizeof(mat) * NMAT);
  for (int i = 0; i < NMAT; ++i) {
    want[i] = element(0, i);
    for (int q = 1; q < n; ++q) {
      mat e = element(q, i);
      int one = 1;
      matmul(&want[i], &e, &one, NULL);
      want[i] = e;
    }
  }
  const long long copies0 = counter("seg_single_copy"), blocks0 = counter("seg_by_blocks");
  int calls = 0;
  for (int root = -1; root < n; ++root) { /* -1: MPI_Allreduce */
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int gets = root < 0 || me == root, inp = in_place && gets;
      for (int i = 0; i < NSUM; ++i) x[i] = (me + 1) * 1000 + i;
      reduce_to(root, inp, x, y, sizeof(int) * NSUM, NSUM, MPI_INT, MPI_SUM);
      if (gets)
        for (int i = 0; i < NSUM; ++i) CHECK(y[i] == 1000 * n * (n + 1) / 2 + n * i);
      for (int i = 0; i < NMAT; ++i) m[i] = element(me, i);
      reduce_to(root, inp, m, p, sizeof(mat) * NMAT, NMAT, mt, mul);
      if (gets) CHECK(memcmp(p, want, sizeof(mat) * NMAT) == 0);
      calls += 2;
    }
  }
  if (n > sysconf(_SC_NPROCESSORS_ONLN)) {
    const long long copies = counter("seg_single_copy") - copies0, blocks = counter("seg_by_blocks") - blocks0;
    if (copies != 0 || blocks < 2LL * calls)
      fprintf(stderr, "rank %d: %lld single copies, %lld by-blocks folds in %d calls\n", me, copies, blocks, calls);
    CHECK(copies == 0 && blocks >= 2LL * calls);
  }
  CHECK_MPI(MPI_Op_free(&mul));
  CHECK_MPI(MPI_Type_free(&mt));
  free(x);
  free(y);
  free(m);
  free(p);
  free(want);
  MPI_Finalize();
  return 0;
}
