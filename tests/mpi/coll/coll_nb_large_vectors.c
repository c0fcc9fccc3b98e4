/* MPI_Iscan, MPI_Iexscan, MPI_Ireduce, MPI_Iallreduce and
 * MPI_Ireduce_scatter_block of large vectors
 * (80 KB: by address with a core per rank, coll/seg_nonblocking.cpp
 * publish_vector; in the slot otherwise and in place), completed after other
 * work, plain and in place, every root, with a non-commutative associative
 * op (2x2 integer matrix product) whose result shows any reordering. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define M 5000 /* 2x2 matrices: 80 KB */

static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout; /* b = a * b */
  for (int e = 0; e < *len; ++e, a += 4, b += 4) {
    const int r0 = a[0] * b[0] + a[1] * b[2], r1 = a[0] * b[1] + a[1] * b[3];
    const int r2 = a[2] * b[0] + a[3] * b[2], r3 = a[2] * b[1] + a[3] * b[3];
    b[0] = r0, b[1] = r1, b[2] = r2, b[3] = r3;
  }
}

static void matrix_of(int rank, int e, int* m) {
  m[0] = 1, m[1] = (rank + e) % 3, m[2] = 0, m[3] = 1 + (rank == e % 5); /* upper triangular, small entries */
}

/* out = x0(e) op x1(e) op ... op xtop(e), in rank order: what the reductions must give. */
static void rank_order_product(int e, int top, int* out) {
  int next[4];
  matrix_of(0, e, out);
  for (int q = 1; q <= top; ++q) {
    int one = 1;
    matrix_of(q, e, next);
    matmul(out, next, &one, NULL); /* next = out * next */
    memcpy(out, next, sizeof next);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Datatype mat;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat));
  CHECK_MPI(MPI_Type_commit(&mat));
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(matmul, 0, &op));
  int *x = malloc(sizeof(int) * 4 * M), *y = malloc(sizeof(int) * 4 * M), *want = malloc(sizeof(int) * 4 * M);
  for (int exclusive = 0; exclusive < 2; ++exclusive)
    for (int in_place = 0; in_place < 2; ++in_place) {
      for (int e = 0; e < M; ++e) matrix_of(me, e, x + 4 * e);
      if (in_place) memcpy(y, x, sizeof(int) * 4 * M);
      MPI_Request req;
      const void* send = in_place ? MPI_IN_PLACE : x;
      if (exclusive)
        CHECK_MPI(MPI_Iexscan(send, y, M, mat, op, MPI_COMM_WORLD, &req));
      else
        CHECK_MPI(MPI_Iscan(send, y, M, mat, op, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* other work while it is pending */
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      const int top = exclusive ? me - 1 : me;
      if (top < 0) continue;
      for (int e = 0; e < M; ++e) rank_order_product(e, top, want + 4 * e);
      CHECK(memcmp(y, want, sizeof(int) * 4 * M) == 0);
    }
  /* Reduce at every root and allreduce: x0 op x1 op ... op x(n-1). */
  for (int e = 0; e < M; ++e) rank_order_product(e, n - 1, want + 4 * e);
  for (int root = -1; root < n; ++root)
    for (int in_place = 0; in_place < 2; ++in_place) {
      const int gets = root < 0 || me == root;
      for (int e = 0; e < M; ++e) matrix_of(me, e, x + 4 * e);
      memset(y, 0, sizeof(int) * 4 * M);
      if (in_place && gets) memcpy(y, x, sizeof(int) * 4 * M);
      const void* send = in_place && gets ? MPI_IN_PLACE : x;
      MPI_Request req;
      if (root < 0)
        CHECK_MPI(MPI_Iallreduce(send, y, M, mat, op, MPI_COMM_WORLD, &req));
      else
        CHECK_MPI(MPI_Ireduce(send, y, M, mat, op, root, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      if (gets) CHECK(memcmp(y, want, sizeof(int) * 4 * M) == 0);
    }
  /* Reduce_scatter_block: 2500 matrices each, 80 KB of input at np = 2. */
  {
    const int b = 2500;
    int *xs = malloc(sizeof(int) * 4 * (size_t)b * n), *ys = malloc(sizeof(int) * 4 * (size_t)b * n);
    for (int in_place = 0; in_place < 2; ++in_place) {
      for (int e = 0; e < b * n; ++e) matrix_of(me, e, xs + 4 * e);
      if (in_place) memcpy(ys, xs, sizeof(int) * 4 * (size_t)b * n);
      MPI_Request req;
      CHECK_MPI(MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : xs, ys, b, mat, op, MPI_COMM_WORLD, &req));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      for (int e = 0; e < b; ++e) {
        int acc[4];
        rank_order_product(me * b + e, n - 1, acc); /* this rank's block */
        CHECK(memcmp(ys + 4 * e, acc, sizeof acc) == 0);
      }
    }
    free(xs);
    free(ys);
  }
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Type_free(&mat));
  free(x);
  free(y);
  free(want);
  MPI_Finalize();
  return 0;
}
