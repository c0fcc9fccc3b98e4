/* A gather whose members send more (or less) than the root receives from
 * them: erroneous (MPI-3.1 §5.5, the type signatures must match), so no
 * implementation must detect it, but it must neither hang nor write past
 * the root's receive buffer. Members with large blocks wait for the root's
 * table and push into it only where the root asks (coll/seg_common.hpp,
 * Pushes): a root that expects small blocks never asks. MPI_Igather's root
 * reports MPI_ERR_TRUNCATE for a block longer than its place; the blocking
 * form cannot tell its members apart (slot or address by size) and only
 * returns. Not at two ranks: there the path itself (segment or messages)
 * is chosen by size, and a disagreement is the deadlock mpiexec reports. */
#include <stdlib.h>

#include "check.h"

enum { GUARD = 64 };

/* Members send `n` ints each, the root receives `r` per member. */
static void once(int n, int r, int nonblocking) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine = rank == 0 ? r : n;
  int *send = malloc(sizeof(int) * (size_t)mine);
  int *recv = malloc(sizeof(int) * ((size_t)r * size + GUARD));
  for (int i = 0; i < mine; ++i) send[i] = rank;
  for (size_t i = 0; i < (size_t)r * size + GUARD; ++i) recv[i] = -1;
  int e;
  if (nonblocking) {
    MPI_Request q;
    e = MPI_Igather(send, mine, MPI_INT, recv, r, MPI_INT, 0, MPI_COMM_WORLD, &q);
    if (e == MPI_SUCCESS) e = MPI_Wait(&q, MPI_STATUS_IGNORE);
  } else {
    e = MPI_Gather(send, mine, MPI_INT, recv, r, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    int cls = MPI_SUCCESS;
    MPI_Error_class(e, &cls);
    if (nonblocking && n > r) CHECK(cls == MPI_ERR_TRUNCATE);
    for (int i = 0; i < GUARD; ++i) CHECK(recv[(size_t)r * size + i] == -1);
  } else {
    CHECK(e == MPI_SUCCESS);
  }
  free(send);
  free(recv);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int nonblocking = 0; nonblocking < 2; ++nonblocking) {
    once(10, 1, nonblocking);      /* through the slots */
    once(100000, 1, nonblocking);  /* large blocks, a root that expects small ones */
    once(1, 100000, nonblocking);  /* small blocks, a root that expects large ones */
  }
  /* The communicator still works. */
  int rank, size, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size * (size - 1) / 2);
  MPI_Finalize();
  return 0;
}
