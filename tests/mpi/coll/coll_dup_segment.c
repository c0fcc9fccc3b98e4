/* MPI_Comm_dup whose attribute copy callback fails on rank 1 only: rank 1
 * gets an error and no communicator, the others a duplicate they free. Done
 * 20 times (more than the 8 segments rank 0 owns), then a duplicate on
 * which only nonblocking collectives run must still get a segment: every
 * failed member gave its share of the reserved segment back. */
#include <mpi.h>
#include <stdio.h>
#include "../check.h"

static int rank;
static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c; (void)k; (void)extra;
  *(void **)out = in;
  *flag = 1;
  return rank == 1 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int key;
  CHECK_MPI(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &key));
  for (int i = 0; i < 20; ++i) {
    MPI_Comm d = MPI_COMM_NULL;
    const int e = MPI_Comm_dup(MPI_COMM_WORLD, &d);
    if (rank == 1 && size > 1) CHECK(e != MPI_SUCCESS && d == MPI_COMM_NULL);
    else {
      CHECK(e == MPI_SUCCESS);
      CHECK_MPI(MPI_Comm_free(&d));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
  MPI_Count before = 0, after = 0;
  CHECK_MPI(MPIX_Query_counter("seg_barrier", &before));
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  MPI_Request r;
  CHECK_MPI(MPI_Ibarrier(d, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPIX_Query_counter("seg_barrier", &after));
  if (size > 1) CHECK(after == before + 1);
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK_MPI(MPI_Comm_free_keyval(&key));
  MPI_Finalize();
  return 0;
}
