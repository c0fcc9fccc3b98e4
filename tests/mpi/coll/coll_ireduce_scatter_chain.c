/* MPI_Ireduce_scatter(_block) of vectors large enough to fold by blocks
 * (issue 36): with more ranks than cores and 16 ranks or more the schedule
 * folds along a chain of ranks and scatters from rank 0 instead. Checked
 * with a non-commutative operation (composition of affine maps x -> m x + c
 * modulo 2^32), whose result shows any change of order, and with MPI_SUM;
 * uneven and even counts, in place and not, several calls outstanding. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct {
  unsigned m, c;
} affine;

/* inout = in o inout: (in o inout)(x) = in(inout(x)) */
static void compose(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const affine* a = in;
  affine* b = inout;
  for (int i = 0; i < *len; ++i) {
    const affine r = {a[i].m * b[i].m, a[i].m * b[i].c + a[i].c};
    b[i] = r;
  }
}

static int rank, size;

static affine elem(int r, int call, int i) {
  const affine e = {2u * (unsigned)(r * 7 + i + call) + 1u, (unsigned)(r * 1000 + i * 3 + call)};
  return e;
}

static void check_affine(int call, int uneven, int in_place, MPI_Datatype pair, MPI_Op op) {
  int* counts = malloc(size * sizeof(int));
  int total = 0, first = 0;
  for (int j = 0; j < size; ++j) counts[j] = uneven ? 400 + 37 * j : 600, total += counts[j];
  for (int j = 0; j < rank; ++j) first += counts[j];
  affine* mine = malloc(total * sizeof(affine));
  affine* res = malloc((counts[rank] + 1) * sizeof(affine));
  for (int i = 0; i < total; ++i) mine[i] = elem(rank, call, i);
  for (int i = 0; i <= counts[rank]; ++i) res[i].m = res[i].c = 7;
  MPI_Request q;
  if (uneven)
    CHECK_MPI(MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : mine, in_place ? mine : res, counts, pair, op,
                                  MPI_COMM_WORLD, &q));
  else
    CHECK_MPI(MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : mine, in_place ? mine : res, counts[0], pair, op,
                                        MPI_COMM_WORLD, &q));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  if (in_place) memcpy(res, mine, counts[rank] * sizeof(affine));
  for (int i = 0; i < counts[rank]; ++i) {
    /* x0 o (x1 o (... o x(n-1))) */
    affine acc = elem(size - 1, call, first + i);
    for (int q2 = size - 2; q2 >= 0; --q2) {
      const affine a = elem(q2, call, first + i);
      const affine r = {a.m * acc.m, a.m * acc.c + a.c};
      acc = r;
    }
    CHECK(res[i].m == acc.m && res[i].c == acc.c);
  }
  if (!in_place) CHECK(res[counts[rank]].m == 7);
  free(counts);
  free(mine);
  free(res);
}

/* Several sums outstanding at once, completed in reverse order. */
static void sums_outstanding(void) {
  enum { K = 3, PER = 3000 };
  int* mine[K];
  int* res[K];
  MPI_Request q[K];
  for (int k = 0; k < K; ++k) {
    mine[k] = malloc((size_t)size * PER * sizeof(int));
    res[k] = malloc(PER * sizeof(int));
    for (int i = 0; i < size * PER; ++i) mine[k][i] = rank + i * 3 + k;
    CHECK_MPI(MPI_Ireduce_scatter_block(mine[k], res[k], PER, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[k]));
  }
  for (int k = K - 1; k >= 0; --k) CHECK_MPI(MPI_Wait(&q[k], MPI_STATUS_IGNORE));
  for (int k = 0; k < K; ++k) {
    for (int i = 0; i < PER; ++i) {
      const int g = rank * PER + i;
      CHECK(res[k][i] == size * (size - 1) / 2 + size * (g * 3 + k));
    }
    free(mine[k]);
    free(res[k]);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(compose, 0, &op));
  int call = 0;
  for (int uneven = 0; uneven < 2; ++uneven)
    for (int in_place = 0; in_place < 2; ++in_place) check_affine(call++, uneven, in_place, pair, op);
  sums_outstanding();
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Type_free(&pair));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
