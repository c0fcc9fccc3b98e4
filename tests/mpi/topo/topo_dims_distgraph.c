/* MPI_Dims_create's balanced answers (the ones MPICH gives and external
 * suites expect), its speed over many nnodes, and MPI_Dist_graph_create where
 * ranks contribute no edges at all (NULL arrays, valid for n = 0) or own no
 * edge. */
#include <stdlib.h>

#include "check.h"

static void dims_is(int nnodes, int ndims, const int* given, const int* want) {
  int d[12];
  for (int i = 0; i < ndims; ++i) d[i] = given ? given[i] : 0;
  CHECK_MPI(MPI_Dims_create(nnodes, ndims, d));
  for (int i = 0; i < ndims; ++i)
    if (d[i] != want[i]) {
      fprintf(stderr, "Dims_create(%d, %d): dims[%d]=%d, expected %d\n", nnodes, ndims, i, d[i], want[i]);
      CHECK(d[i] == want[i]);
    }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Smallest spread, then the largest smallest dimension. */
  dims_is(5040, 3, NULL, (int[]){21, 16, 15});
  dims_is(5040, 4, NULL, (int[]){10, 9, 8, 7});
  dims_is(360, 3, NULL, (int[]){10, 6, 6});
  dims_is(9240, 3, NULL, (int[]){22, 21, 20});
  dims_is(1000000000, 3, NULL, (int[]){1000, 1000, 1000});
  dims_is(12, 2, NULL, (int[]){4, 3});
  dims_is(7, 3, NULL, (int[]){7, 1, 1});
  dims_is(1, 2, NULL, (int[]){1, 1});
  dims_is(5040, 10, NULL, (int[]){7, 5, 3, 3, 2, 2, 2, 2, 1, 1});
  dims_is(2147483647, 2, NULL, (int[]){2147483647, 1});
  /* Fixed entries stay; the free ones share nnodes / product(fixed). */
  dims_is(5040, 3, (int[]){0, 7, 0}, (int[]){30, 7, 24});
  dims_is(64, 4, (int[]){0, 0, 0, 4}, (int[]){4, 2, 2, 4});

  /* Many calls: a search over all tuples took minutes here. */
  for (int n = 1; n <= 3000; ++n)
    for (int k = 1; k <= 4; ++k) {
      int d[4] = {0, 0, 0, 0};
      CHECK_MPI(MPI_Dims_create(n, k, d));
      long long p = 1;
      for (int i = 0; i < k; ++i) {
        p *= d[i];
        CHECK(i == 0 || d[i] <= d[i - 1]);
      }
      CHECK(p == n);
    }

  /* Dist_graph_create: rank 0 names every edge of a directed ring over all
   * ranks but the last (isolated when size > 1); the others pass n = 0 and
   * NULL arrays. Weight of s -> d is 100 * s + d. */
  const int ring = size > 1 ? size - 1 : 1;
  int* src = NULL;
  int* deg = NULL;
  int* dst = NULL;
  int* w = NULL;
  int n = 0;
  if (rank == 0) {
    n = ring;
    src = malloc(sizeof(int) * (size_t)ring);
    deg = malloc(sizeof(int) * (size_t)ring);
    dst = malloc(sizeof(int) * (size_t)ring);
    w = malloc(sizeof(int) * (size_t)ring);
    for (int i = 0; i < ring; ++i) {
      src[i] = i;
      deg[i] = 1;
      dst[i] = (i + 1) % ring;
      w[i] = 100 * i + dst[i];
    }
  }
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, src, deg, dst, rank == 0 ? w : MPI_WEIGHTS_EMPTY,
                                  MPI_INFO_NULL, 0, &g));
  int indeg = -1, outdeg = -1, weighted = -1;
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
  CHECK(weighted);
  if (rank < ring) {
    CHECK(indeg == 1 && outdeg == 1);
    int s, sw, d, dw;
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw));
    CHECK(s == (rank + ring - 1) % ring && sw == 100 * s + rank);
    CHECK(d == (rank + 1) % ring && dw == 100 * rank + d);
  } else {
    CHECK(indeg == 0 && outdeg == 0);
    CHECK_MPI(MPI_Dist_graph_neighbors(g, 0, NULL, NULL, 0, NULL, NULL));
  }
  MPI_Comm_free(&g);
  free(src), free(deg), free(dst), free(w);

  /* Nobody names an edge: every rank has an empty neighbourhood. */
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
  CHECK(indeg == 0 && outdeg == 0 && !weighted);
  MPI_Comm_free(&g);

  MPI_Finalize();
  return 0;
}
