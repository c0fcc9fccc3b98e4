/* Generalized active target (post/start/complete/wait, MPI_Win_test): each
 * rank exposes its window to its left neighbour and accesses its right
 * neighbour's, several epochs in a row; rank 0 also exposes to everybody
 * at once and polls with MPI_Win_test. */
#include <stdlib.h>

#include "check.h"

#define EPOCHS 20

static MPI_Group group_of(MPI_Group world, int n, const int* ranks) {
  MPI_Group g;
  CHECK_MPI(MPI_Group_incl(world, n, ranks, &g));
  return g;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate((size + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  MPI_Group world, wg;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Win_get_group(win, &wg));
  int cmp;
  CHECK_MPI(MPI_Group_compare(world, wg, &cmp));
  CHECK(cmp == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&wg));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Group gl = group_of(world, 1, &left), gr = group_of(world, 1, &right);
  for (int e = 0; e < EPOCHS; ++e) {
    CHECK_MPI(MPI_Win_post(gl, 0, win));
    CHECK_MPI(MPI_Win_start(gr, 0, win));
    const int v = rank * 1000 + e;
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Win_wait(win));
    CHECK(mem[0] == left * 1000 + e);
  }
  /* Everybody puts its rank into slot 1+rank of rank 0. */
  if (rank == 0) {
    for (int i = 1; i <= size; ++i) mem[i] = -1;
    int* all = (int*)malloc(size * sizeof(int));
    for (int i = 0; i < size; ++i) all[i] = i;
    MPI_Group ga = group_of(world, size, all);
    free(all);
    CHECK_MPI(MPI_Win_post(ga, 0, win));
    const int zero = 0;
    MPI_Group g0 = group_of(world, 1, &zero);
    CHECK_MPI(MPI_Win_start(g0, 0, win));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Win_test(win, &flag));
    for (int i = 0; i < size; ++i) CHECK(mem[1 + i] == i);
    CHECK_MPI(MPI_Group_free(&ga));
    CHECK_MPI(MPI_Group_free(&g0));
  } else {
    const int zero = 0;
    MPI_Group g0 = group_of(world, 1, &zero);
    CHECK_MPI(MPI_Win_start(g0, 0, win));
    CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_complete(win));
    CHECK_MPI(MPI_Group_free(&g0));
  }
  CHECK_MPI(MPI_Group_free(&gl));
  CHECK_MPI(MPI_Group_free(&gr));
  CHECK_MPI(MPI_Group_free(&world));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
