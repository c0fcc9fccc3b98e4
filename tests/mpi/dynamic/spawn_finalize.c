/* MPI_Finalize of parents and children in either order, with and without
 * MPI_Comm_disconnect first:
 * - spawn A: the children send one message and call MPI_Finalize at once
 *   (no disconnect); the parents go on with collectives of their own and
 *   free the intercommunicator later;
 * - spawn B: the parents send each child a message and call MPI_Finalize
 *   right after (no disconnect, the intercommunicator never freed); the
 *   children receive it and then run collectives among themselves before
 *   they finalize. The job ends when every process has exited. */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (parent != MPI_COMM_NULL) {
    CHECK(argc == 2);
    if (!strcmp(argv[1], "A")) {
      CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 1, parent));
    } else {
      int v = -1, psize;
      MPI_Comm_remote_size(parent, &psize);  /* the parents' last rank sends */
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, psize - 1, 2, parent, MPI_STATUS_IGNORE));
      CHECK(v == 500 + rank);
      for (int i = 0; i < 20; ++i) {
        int sum = 0;
        CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == size * (size - 1) / 2);
      }
    }
    MPI_Finalize();
    return 0;
  }
  char* a[] = {"A", NULL};
  char* b[] = {"B", NULL};
  MPI_Comm ca, cb;
  CHECK_MPI(MPI_Comm_spawn(argv[0], a, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ca, MPI_ERRCODES_IGNORE));
  if (rank == 0)
    for (int i = 0; i < 2; ++i) {
      int v;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, ca, &st));
      CHECK(v == st.MPI_SOURCE);
    }
  for (int i = 0; i < 20; ++i) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Comm_free(&ca));
  CHECK_MPI(MPI_Comm_spawn(argv[0], b, 3, MPI_INFO_NULL, size - 1, MPI_COMM_WORLD, &cb, MPI_ERRCODES_IGNORE));
  if (rank == size - 1)
    for (int i = 0; i < 3; ++i) {
      int v = 500 + i;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, i, 2, cb));
    }
  if (rank == 0) printf("spawn_finalize: ok\n");
  MPI_Finalize();
  return 0;
}
