/* A program that runs only nonblocking collectives on MPI_COMM_WORLD (no
 * blocking collective before them) gets the shared-segment forms: the
 * segment of MPI_COMM_WORLD is attached in MPI_Init, because the start of a
 * nonblocking collective is local and cannot run the attach round itself.
 * Results are checked too; the path check reads the path counters
 * (MPIX_Query_counter) before the first blocking collective. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *all = malloc(sizeof(int) * (size_t)size);
  for (int round = 0; round < 50; ++round) {
    int mine = rank + round, sum = -1, root_value = rank == round % size ? round : -1;
    MPI_Request r[4];
    CHECK_MPI(MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Ibcast(&root_value, 1, MPI_INT, round % size, MPI_COMM_WORLD, &r[1]));
    CHECK_MPI(MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r[2]));
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r[3]));
    CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    CHECK(sum == size * (size - 1) / 2 + size * round);
    CHECK(root_value == round);
    for (int i = 0; i < size; ++i) CHECK(all[i] == i + round);
  }
  /* Read before any blocking collective could attach the segment. */
  MPI_Count counts[4] = {-1, -1, -1, -1};
  CHECK_MPI(MPIX_Query_counter("seg_allreduce", &counts[0]));
  CHECK_MPI(MPIX_Query_counter("seg_bcast", &counts[1]));
  CHECK_MPI(MPIX_Query_counter("seg_allgather", &counts[2]));
  CHECK_MPI(MPIX_Query_counter("seg_barrier", &counts[3]));
  if (size > 1)
    for (int i = 0; i < 4; ++i) {
      if (counts[i] < 50) fprintf(stderr, "rank %d: counter %d is %lld, want >= 50\n", rank, i, (long long)counts[i]);
      CHECK(counts[i] >= 50);
    }
  free(all);
  MPI_Finalize();
  return 0;
}
