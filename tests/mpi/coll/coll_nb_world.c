/* A program that runs only nonblocking collectives on MPI_COMM_WORLD (no
 * blocking collective before them) gets the shared-segment forms: the
 * segment of MPI_COMM_WORLD is attached in MPI_Init, because the start of a
 * nonblocking collective is local and cannot run the attach round itself.
 * The same on a duplicate of it, which gets its segment in MPI_Comm_dup's
 * round. Results are checked too; the path check reads the path counters
 * (MPIX_Query_counter) before any blocking collective on the communicator. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

#define ROUNDS 50

static int rank, size;

static void rounds(MPI_Comm comm, int *all) {
  for (int round = 0; round < ROUNDS; ++round) {
    int mine = rank + round, sum = -1, root_value = rank == round % size ? round : -1;
    MPI_Request r[4];
    CHECK_MPI(MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm, &r[0]));
    CHECK_MPI(MPI_Ibcast(&root_value, 1, MPI_INT, round % size, comm, &r[1]));
    CHECK_MPI(MPI_Iallgather(&mine, 1, MPI_INT, all, 1, MPI_INT, comm, &r[2]));
    CHECK_MPI(MPI_Ibarrier(comm, &r[3]));
    CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    CHECK(sum == size * (size - 1) / 2 + size * round);
    CHECK(root_value == round);
    for (int i = 0; i < size; ++i) CHECK(all[i] == i + round);
  }
}

/* Every family used above ran on a segment at least `want` times here. */
static void check_counters(long long want) {
  static const char *names[] = {"seg_allreduce", "seg_bcast", "seg_allgather", "seg_barrier"};
  if (size == 1) return;
  for (int i = 0; i < 4; ++i) {
    MPI_Count v = -1;
    CHECK_MPI(MPIX_Query_counter(names[i], &v));
    if (v < want) fprintf(stderr, "rank %d: %s is %lld, want >= %lld\n", rank, names[i], (long long)v, want);
    CHECK(v >= want);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *all = malloc(sizeof(int) * (size_t)size);
  rounds(MPI_COMM_WORLD, all);
  check_counters(ROUNDS);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  rounds(dup, all);
  check_counters(2 * ROUNDS);
  CHECK_MPI(MPI_Comm_free(&dup));
  free(all);
  MPI_Finalize();
  return 0;
}
