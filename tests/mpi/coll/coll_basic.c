/* Every collective against values computed locally: counts of zero, roots
 * other than 0, MPI_IN_PLACE where the standard allows it, a derived
 * datatype (a column of a matrix, as in the MPI_Scatter example of §5.6),
 * and a non-commutative user operation whose result depends on rank order. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "matmul.h"

static void mine_matrix(int rank, int m[4]) {
  m[0] = 1; m[1] = rank + 1; m[2] = 0; m[3] = 1; /* upper triangular: products stay small */
  if (rank % 2) { m[0] = 1; m[1] = 0; m[2] = rank; m[3] = 1; }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int root = size - 1;

  /* Bcast, several sizes, root != 0. */
  for (int n = 0; n <= 100000; n = n ? n * 10 : 1) {
    int *b = malloc(sizeof(int) * (n + 1));
    for (int i = 0; i < n; ++i) b[i] = rank == root ? i * 3 + 1 : -1;
    CHECK_MPI(MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(b[i] == i * 3 + 1);
    free(b);
  }

  /* Gather / Gatherv / Scatter / Scatterv. */
  int *all = malloc(sizeof(int) * size * 3);
  int mine3[3] = {rank, rank * 10, rank * 100};
  CHECK_MPI(MPI_Gather(mine3, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD));
  if (rank == root)
    for (int i = 0; i < size; ++i) CHECK(all[3 * i] == i && all[3 * i + 1] == 10 * i && all[3 * i + 2] == 100 * i);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  int total = 0;
  for (int i = 0; i < size; ++i) { counts[i] = i % 3; displs[i] = total; total += counts[i]; }
  int *v = malloc(sizeof(int) * (total + 1));
  int vm[2] = {rank + 7, rank + 8};
  CHECK_MPI(MPI_Gatherv(vm, counts[rank], MPI_INT, v, counts, displs, MPI_INT, 0, MPI_COMM_WORLD));
  if (rank == 0)
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < counts[i]; ++k) CHECK(v[displs[i] + k] == i + 7 + k);
  int got3[3] = {-1, -1, -1};
  if (rank == root)
    for (int i = 0; i < size; ++i) { all[3 * i] = i; all[3 * i + 1] = -i; all[3 * i + 2] = i * i; }
  CHECK_MPI(MPI_Scatter(all, 3, MPI_INT, got3, 3, MPI_INT, root, MPI_COMM_WORLD));
  CHECK(got3[0] == rank && got3[1] == -rank && got3[2] == rank * rank);
  if (rank == 0)
    for (int i = 0; i < total; ++i) v[i] = 1000 + i;
  int gv[2] = {-1, -1};
  CHECK_MPI(MPI_Scatterv(v, counts, displs, MPI_INT, gv, counts[rank], MPI_INT, 0, MPI_COMM_WORLD));
  for (int k = 0; k < counts[rank]; ++k) CHECK(gv[k] == 1000 + displs[rank] + k);
  /* In place at the root. */
  if (rank == root) {
    for (int i = 0; i < size; ++i) all[3 * i] = all[3 * i + 1] = all[3 * i + 2] = i + 50;
    CHECK_MPI(MPI_Scatter(all, 3, MPI_INT, MPI_IN_PLACE, 3, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(all[3 * root] == root + 50);
  } else {
    CHECK_MPI(MPI_Scatter(NULL, 3, MPI_INT, got3, 3, MPI_INT, root, MPI_COMM_WORLD));
    CHECK(got3[0] == rank + 50 && got3[2] == rank + 50);
  }

  /* Scatter columns of a size x 4 matrix at the root into rows (derived type). */
  {
    int *mat = malloc(sizeof(int) * size * 4);
    for (int i = 0; i < size * 4; ++i) mat[i] = i;
    MPI_Datatype col, colr;
    CHECK_MPI(MPI_Type_vector(4, 1, size, MPI_INT, &col));
    CHECK_MPI(MPI_Type_create_resized(col, 0, sizeof(int), &colr));
    CHECK_MPI(MPI_Type_commit(&colr));
    int row[4];
    /* mat is 4 rows x size columns; column j goes to rank j. */
    CHECK_MPI(MPI_Scatter(mat, 1, colr, row, 4, MPI_INT, 0, MPI_COMM_WORLD));
    for (int k = 0; k < 4; ++k) CHECK(row[k] == k * size + rank);
    CHECK_MPI(MPI_Type_free(&colr));
    CHECK_MPI(MPI_Type_free(&col));
    free(mat);
  }

  /* Allgather(v), in place too. */
  CHECK_MPI(MPI_Allgather(mine3, 3, MPI_INT, all, 3, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) CHECK(all[3 * i + 2] == 100 * i);
  for (int i = 0; i < 3 * size; ++i) all[i] = -1;
  all[3 * rank] = rank; all[3 * rank + 1] = 2; all[3 * rank + 2] = 3;
  CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 3, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) CHECK(all[3 * i] == i && all[3 * i + 2] == 3);
  CHECK_MPI(MPI_Allgatherv(vm, counts[rank], MPI_INT, v, counts, displs, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < counts[i]; ++k) CHECK(v[displs[i] + k] == i + 7 + k);

  /* Alltoall(v), in place too. */
  int *s = malloc(sizeof(int) * size * 2), *r = malloc(sizeof(int) * size * 2);
  for (int i = 0; i < size; ++i) { s[2 * i] = rank * 1000 + i; s[2 * i + 1] = -(rank * 1000 + i); }
  CHECK_MPI(MPI_Alltoall(s, 2, MPI_INT, r, 2, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) CHECK(r[2 * i] == i * 1000 + rank && r[2 * i + 1] == -(i * 1000 + rank));
  CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s, 2, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) CHECK(s[2 * i] == i * 1000 + rank);
  {
    int *sc = malloc(sizeof(int) * size), *sd = malloc(sizeof(int) * size);
    int *rc = malloc(sizeof(int) * size), *rd = malloc(sizeof(int) * size);
    int *sb = malloc(sizeof(int) * size * size + 1), *rb = malloc(sizeof(int) * size * size + 1);
    int so = 0, ro = 0;
    for (int i = 0; i < size; ++i) {
      sc[i] = (rank + i) % 3; sd[i] = so; so += sc[i];
      rc[i] = (i + rank) % 3; rd[i] = ro; ro += rc[i];
    }
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < sc[i]; ++k) sb[sd[i] + k] = rank * 100 + i * 10 + k;
    CHECK_MPI(MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < rc[i]; ++k) CHECK(rb[rd[i] + k] == i * 100 + rank * 10 + k);
    free(sc); free(sd); free(rc); free(rd); free(sb); free(rb);
  }

  /* Reductions. */
  long long x = rank + 1, sum = -1, prod = -1;
  CHECK_MPI(MPI_Reduce(&x, &sum, 1, MPI_LONG_LONG, MPI_SUM, root, MPI_COMM_WORLD));
  if (rank == root) CHECK(sum == (long long)size * (size + 1) / 2);
  CHECK_MPI(MPI_Allreduce(&x, &prod, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD));
  long long f = 1;
  for (int i = 1; i <= size; ++i) f *= i;
  CHECK(prod == f);
  double d[3] = {rank, -rank, rank * 0.5};
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, d, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
  CHECK(d[0] == size - 1 && d[1] == 0 && d[2] == (size - 1) * 0.5);
  struct { double v; int i; } in = {(double)((rank * 7) % size), rank}, out;
  CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
  CHECK(out.v == 0 && out.i == 0);
  int scanv = -1, exv = -7, one = rank + 1;
  CHECK_MPI(MPI_Scan(&one, &scanv, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(scanv == (rank + 1) * (rank + 2) / 2);
  CHECK_MPI(MPI_Exscan(&one, &exv, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank > 0) CHECK(exv == rank * (rank + 1) / 2);
  int *rsin = malloc(sizeof(int) * size * 2), rsout[2] = {-1, -1};
  for (int i = 0; i < 2 * size; ++i) rsin[i] = i + rank;
  CHECK_MPI(MPI_Reduce_scatter_block(rsin, rsout, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(rsout[0] == size * (2 * rank) + size * (size - 1) / 2);
  CHECK(rsout[1] == size * (2 * rank + 1) + size * (size - 1) / 2);
  int rcnt[64];
  for (int i = 0; i < size; ++i) rcnt[i] = i % 2 + 1;
  int rsall = 0, myoff = 0;
  for (int i = 0; i < size; ++i) { if (i < rank) myoff += rcnt[i]; rsall += rcnt[i]; }
  int *rsin2 = malloc(sizeof(int) * rsall), rsout2[2] = {-1, -1};
  for (int i = 0; i < rsall; ++i) rsin2[i] = i;
  CHECK_MPI(MPI_Reduce_scatter(rsin2, rsout2, rcnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < rcnt[rank]; ++k) CHECK(rsout2[k] == size * (myoff + k));

  /* A non-commutative user op: the product must be x0*x1*...*x(n-1). */
  MPI_Op mm;
  CHECK_MPI(MPI_Op_create(matmul, 0, &mm));
  MPI_Datatype m4;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &m4));
  CHECK_MPI(MPI_Type_commit(&m4));
  int m[4], res[4], expect[4] = {1, 0, 0, 1};
  mine_matrix(rank, m);
  for (int i = 0; i < size; ++i) {
    int xi[4], one_len = 1;
    mine_matrix(i, xi);
    /* expect = expect * xi  -> matmul(in=expect, inout=xi) */
    matmul(expect, xi, &one_len, &m4);
    memcpy(expect, xi, sizeof xi);
  }
  CHECK_MPI(MPI_Reduce(m, res, 1, m4, mm, 0, MPI_COMM_WORLD));
  if (rank == 0) CHECK(memcmp(res, expect, sizeof res) == 0);
  CHECK_MPI(MPI_Allreduce(m, res, 1, m4, mm, MPI_COMM_WORLD));
  CHECK(memcmp(res, expect, sizeof res) == 0);
  CHECK_MPI(MPI_Op_free(&mm));
  CHECK_MPI(MPI_Type_free(&m4));

  /* Alltoallv mixing blocks below and above the 4096 bytes that go out
   * before any receive (small) with ones that go pairwise (large): the block
   * from i to j has 2000 ints when i + j is odd, 3 otherwise. */
  {
    int *sc2 = malloc(sizeof(int) * size), *sd2 = malloc(sizeof(int) * size);
    int *rc2 = malloc(sizeof(int) * size), *rd2 = malloc(sizeof(int) * size);
    int stot = 0, rtot = 0;
    for (int j = 0; j < size; ++j) {
      sc2[j] = (rank + j) % 2 ? 2000 : 3;
      sd2[j] = stot;
      stot += sc2[j];
      rc2[j] = (j + rank) % 2 ? 2000 : 3;
      rd2[j] = rtot;
      rtot += rc2[j];
    }
    int *sb2 = malloc(sizeof(int) * (size_t)stot), *rb2 = malloc(sizeof(int) * (size_t)rtot);
    for (int j = 0; j < size; ++j)
      for (int k = 0; k < sc2[j]; ++k) sb2[sd2[j] + k] = rank * 100000 + j * 10000 + k;
    CHECK_MPI(MPI_Alltoallv(sb2, sc2, sd2, MPI_INT, rb2, rc2, rd2, MPI_INT, MPI_COMM_WORLD));
    int bad = 0;
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < rc2[i]; ++k) bad += rb2[rd2[i] + k] != i * 100000 + rank * 10000 + k;
    CHECK(bad == 0);
    /* Allgather of blocks above the limit (gather and broadcast path). */
    int *big = malloc(sizeof(int) * 1500 * (size_t)size), part[1500];
    for (int k = 0; k < 1500; ++k) part[k] = rank * 7 + k;
    CHECK_MPI(MPI_Allgather(part, 1500, MPI_INT, big, 1500, MPI_INT, MPI_COMM_WORLD));
    bad = 0;
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < 1500; ++k) bad += big[i * 1500 + k] != i * 7 + k;
    CHECK(bad == 0);
    free(big); free(sb2); free(rb2); free(sc2); free(sd2); free(rc2); free(rd2);
  }

  /* Allreduce on both sides of the exchange-based algorithm's size limit
   * (4096 bytes): 8 doubles and 2000 doubles, each rank's values distinct. */
  for (int len = 8; len <= 2000; len += 1992) {
    double *xs = malloc(sizeof(double) * (size_t)len), *sum = malloc(sizeof(double) * (size_t)len);
    for (int k = 0; k < len; ++k) xs[k] = rank * 1000.0 + k;
    CHECK_MPI(MPI_Allreduce(xs, sum, len, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < len; ++k) CHECK(sum[k] == 1000.0 * size * (size - 1) / 2 + (double)k * size);
    free(xs);
    free(sum);
  }

  /* Reductions by blocks (32 KiB and more: rank i folds block i) with the
   * non-commutative product of 4096 matrices, in place too, and an
   * allgather of 36 KB blocks (each rank sends its block to all). */
  {
    const int nm = 4096;
    MPI_Op mm2;
    MPI_Datatype m42;
    CHECK_MPI(MPI_Op_create(matmul, 0, &mm2));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &m42));
    CHECK_MPI(MPI_Type_commit(&m42));
    int *ms = malloc(sizeof(int) * 4 * (size_t)nm), *mr = malloc(sizeof(int) * 4 * (size_t)nm);
    int *want = malloc(sizeof(int) * 4 * (size_t)nm);
    for (int k = 0; k < nm; ++k) {
      int e[4] = {1, 0, 0, 1}, one_len = 1;
      for (int i = 0; i < size; ++i) {
        int xi[4];
        mine_matrix(i + k % 3, xi);
        matmul(e, xi, &one_len, &m42);
        memcpy(e, xi, sizeof e);
      }
      memcpy(want + 4 * k, e, sizeof e);
      mine_matrix(rank + k % 3, ms + 4 * k);
    }
    CHECK_MPI(MPI_Allreduce(ms, mr, nm, m42, mm2, MPI_COMM_WORLD));
    CHECK(memcmp(mr, want, sizeof(int) * 4 * (size_t)nm) == 0);
    memcpy(mr, ms, sizeof(int) * 4 * (size_t)nm);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, mr, nm, m42, mm2, MPI_COMM_WORLD));
    CHECK(memcmp(mr, want, sizeof(int) * 4 * (size_t)nm) == 0);
    /* Reduce by blocks to the last rank, in place at the root too. */
    for (int i = 0; i < 4 * nm; ++i) mr[i] = -1;
    CHECK_MPI(MPI_Reduce(ms, mr, nm, m42, mm2, size - 1, MPI_COMM_WORLD));
    if (rank == size - 1) CHECK(memcmp(mr, want, sizeof(int) * 4 * (size_t)nm) == 0);
    memcpy(mr, ms, sizeof(int) * 4 * (size_t)nm);
    CHECK_MPI(MPI_Reduce(rank == 0 ? MPI_IN_PLACE : mr, rank == 0 ? mr : NULL, nm, m42, mm2, 0, MPI_COMM_WORLD));
    if (rank == 0) CHECK(memcmp(mr, want, sizeof(int) * 4 * (size_t)nm) == 0);
    const int per = nm / size;
    CHECK_MPI(MPI_Reduce_scatter_block(ms, mr, per, m42, mm2, MPI_COMM_WORLD));
    CHECK(memcmp(mr, want + 4 * per * rank, sizeof(int) * 4 * (size_t)per) == 0);
    free(ms); free(mr); free(want);
    CHECK_MPI(MPI_Op_free(&mm2));
    CHECK_MPI(MPI_Type_free(&m42));
    const int blk = 9000;
    int *mine9 = malloc(sizeof(int) * blk), *all9 = malloc(sizeof(int) * blk * (size_t)size);
    for (int k = 0; k < blk; ++k) mine9[k] = rank * 100000 + k;
    CHECK_MPI(MPI_Allgather(mine9, blk, MPI_INT, all9, blk, MPI_INT, MPI_COMM_WORLD));
    int bad9 = 0;
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < blk; ++k) bad9 += all9[i * blk + k] != i * 100000 + k;
    CHECK(bad9 == 0);
    /* Gather, scatter and all-to-all of 8000-byte blocks (posted at once). */
    const int b2 = 2000;
    int *gs = malloc(sizeof(int) * b2 * (size_t)size), *gr = malloc(sizeof(int) * b2 * (size_t)size);
    for (int k = 0; k < b2; ++k) gs[k] = rank * 100000 + k;
    CHECK_MPI(MPI_Gather(gs, b2, MPI_INT, gr, b2, MPI_INT, size / 2, MPI_COMM_WORLD));
    bad9 = 0;
    if (rank == size / 2)
      for (int i = 0; i < size; ++i)
        for (int k = 0; k < b2; ++k) bad9 += gr[i * b2 + k] != i * 100000 + k;
    CHECK(bad9 == 0);
    for (int i = 0; i < size * b2; ++i) gs[i] = i * 3 + 1;
    CHECK_MPI(MPI_Scatter(gs, b2, MPI_INT, gr, b2, MPI_INT, size - 1, MPI_COMM_WORLD));
    for (int k = 0; k < b2; ++k) bad9 += gr[k] != (rank * b2 + k) * 3 + 1;
    CHECK(bad9 == 0);
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < b2; ++k) gs[i * b2 + k] = rank * 1000000 + i * 10000 + k % 10000;
    CHECK_MPI(MPI_Alltoall(gs, b2, MPI_INT, gr, b2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < b2; ++k) bad9 += gr[i * b2 + k] != i * 1000000 + rank * 10000 + k % 10000;
    CHECK(bad9 == 0);
    CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gs, b2, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; ++i)
      for (int k = 0; k < b2; ++k) bad9 += gs[i * b2 + k] != i * 1000000 + rank * 10000 + k % 10000;
    CHECK(bad9 == 0);
    free(gs); free(gr);
    free(mine9); free(all9);
  }

  free(all); free(counts); free(displs); free(v); free(s); free(r); free(rsin); free(rsin2);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
