/* MPI_Comm_create_group called at the same time by disjoint groups of one
 * parent, with the same tag, round after round with other groupings (blocks,
 * strides, unequal sizes) and no barrier in between: a late message of one
 * round must never be taken by the next (found by an external suite: "rank 0
 * of the group passed a different group", "an internal message ... has 576
 * bytes, more than the 544 expected"). Each new communicator is checked. */
#include <stdlib.h>

#include "check.h"

/* The group (colour) of `r` in grouping k, and the number of groups. */
static int colour(int k, int r) {
  switch (k % 4) {
    case 0: return r / 2;                       /* pairs */
    case 1: return r % 2;                       /* evens, odds */
    case 2: return r == 0 ? 0 : (r < 4 ? 1 : 2); /* sizes 1, 3, rest */
    default: return r % 3;                      /* thirds */
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int *members = malloc(sizeof(int) * (size_t)size);
  for (int k = 0; k < 24; ++k) {
    const int mine = colour(k, rank);
    int n = 0, myrank = -1;
    for (int r = 0; r < size; ++r)
      if (colour(k, r) == mine) {
        if (r == rank) myrank = n;
        members[n++] = r;
      }
    MPI_Group g;
    MPI_Group_incl(world, n, members, &g);
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 5, &c));
    int csize, crank;
    MPI_Comm_size(c, &csize);
    MPI_Comm_rank(c, &crank);
    CHECK(csize == n && crank == myrank);
    if (k % 3 == 0) { /* use it: the sum of the members' world ranks */
      int sum = 0, want = 0;
      for (int i = 0; i < n; ++i) want += members[i];
      CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
      CHECK(sum == want);
    }
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
  }
  free(members);
  MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
