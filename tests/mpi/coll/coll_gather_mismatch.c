/* A gather whose members send more (or less) than the root receives from
 * them: erroneous (MPI-3.1 §5.5, the type signatures must match), so no
 * implementation must detect it, but it must neither hang nor write past
 * the root's receive buffer. Members with large blocks wait for the root's
 * table and push into it only where the root asks (coll/seg_common.hpp,
 * Pushes): a root that expects small blocks never asks. MPI_Igather's root
 * reports MPI_ERR_TRUNCATE for a block longer than its place; the blocking
 * form cannot tell its members apart (slot or address by size) and only
 * returns. Not at two ranks: there the path itself (segment or messages)
 * is chosen by size, and a disagreement is the deadlock mpiexec reports.
 *
 * The root's data is checked too, against what ringmpi's protocol does
 * (the standard promises nothing here): its own block always; a member's
 * first r ints where it sent more and both forms read its data (blocks
 * through the slots; MPI_Igather, which reads a large block by address);
 * the n ints a member sent into a place of r > n left as they were after
 * them, and, in MPI_Igather, delivered (the blocking root asked for a push
 * that the member, whose block is small, never makes: nothing of it
 * arrives). Where a blocking root expects a small block from a member whose
 * block is large, it reads the member's slot region, which the member did
 * not write: that place is not checked. */
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
    CHECK(cls == (nonblocking && n > r ? MPI_ERR_TRUNCATE : MPI_SUCCESS));
    for (int i = 0; i < GUARD; ++i) CHECK(recv[(size_t)r * size + i] == -1);
    for (int i = 0; i < r; ++i) CHECK(recv[i] == 0); /* the root's own block */
    const int large_into_small = n > r && (size_t)n * sizeof(int) > 64 * 1024;
    for (int j = 1; j < size; ++j) {
      const int *place = recv + (size_t)j * (size_t)r;
      if (n >= r) {
        if (nonblocking || !large_into_small)
          for (int i = 0; i < r; ++i) CHECK(place[i] == j);
      } else {
        for (int i = 0; i < n; ++i) CHECK(place[i] == (nonblocking ? j : -1));
        for (int i = n; i < r; ++i) CHECK(place[i] == -1);
      }
    }
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
