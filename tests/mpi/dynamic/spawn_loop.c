/* A loop of spawn + disconnect, as master/worker programs and
 * mpi4py.futures run it: more processes over the job's life than it has
 * process slots (the test runs with --universe-size 2: max(2, np) + 32
 * slots), so it passes only if the slots of ended children are reused
 * (launcher/slot_reuse.hpp). Every cycle exercises the rings of a reused
 * slot both ways (a message from the parents' root to each child and the
 * answer); every 5th a merged communicator's collectives (the collective
 * segments of the reused slots); every 7th a port opened by a child in a
 * reused slot, connected to by the parents. Children alternate between 1
 * and 2, the root among the parents; every parent checks the error codes. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kCycles = 120 };

static void child(MPI_Comm parent, int cycle) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int v = -1;
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
  CHECK(v == cycle * 100 + rank);
  v = cycle * 1000 + rank;
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, parent));
  if (cycle % 5 == 0) {
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(parent, 1, &merged));
    int mrank, msize, sum = 0;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    for (int i = 0; i < 3; ++i) {
      CHECK_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
      CHECK(sum == msize * (msize - 1) / 2);
    }
    CHECK_MPI(MPI_Comm_free(&merged));
  }
  if (cycle % 7 == 0 && rank == 0) {
    char port[MPI_MAX_PORT_NAME];
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 3, parent));
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
    int x = 0;
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 0, 4, c, MPI_STATUS_IGNORE));
    CHECK(x == cycle);
    CHECK_MPI(MPI_Comm_disconnect(&c));
    CHECK_MPI(MPI_Close_port(port));
  }
  CHECK_MPI(MPI_Comm_disconnect(&parent));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    CHECK(argc == 2);
    child(parent, atoi(argv[1]));
    MPI_Finalize();
    return 0;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int cycle = 0; cycle < kCycles; ++cycle) {
    char arg[16];
    snprintf(arg, sizeof arg, "%d", cycle);
    char* args[] = {arg, NULL};
    const int n = 1 + cycle % 2, root = cycle % size;
    int codes[2] = {-1, -1};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn(argv[0], args, n, MPI_INFO_NULL, root, MPI_COMM_WORLD, &inter, codes));
    /* Every rank gets the root's codes (MPI-4.1 §11.8.2), not only the root. */
    CHECK(codes[0] == MPI_SUCCESS && (n == 1 ? codes[1] == -1 : codes[1] == MPI_SUCCESS));
    if (rank == 0) {
      for (int i = 0; i < n; ++i) {
        int v = cycle * 100 + i;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, i, 1, inter));
      }
      for (int i = 0; i < n; ++i) {
        int v = -1;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i, 2, inter, MPI_STATUS_IGNORE));
        CHECK(v == cycle * 1000 + i);
      }
    }
    if (cycle % 5 == 0) {
      MPI_Comm merged;
      CHECK_MPI(MPI_Intercomm_merge(inter, 0, &merged));
      int mrank, msize, sum = 0;
      MPI_Comm_rank(merged, &mrank);
      MPI_Comm_size(merged, &msize);
      CHECK(msize == size + n);
      for (int i = 0; i < 3; ++i) {
        CHECK_MPI(MPI_Allreduce(&mrank, &sum, 1, MPI_INT, MPI_SUM, merged));
        CHECK(sum == msize * (msize - 1) / 2);
      }
      CHECK_MPI(MPI_Comm_free(&merged));
    }
    if (cycle % 7 == 0) {
      char port[MPI_MAX_PORT_NAME] = "";
      if (rank == 0) CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 3, inter, MPI_STATUS_IGNORE));
      MPI_Comm c;
      CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c));
      if (rank == 0) CHECK_MPI(MPI_Send(&cycle, 1, MPI_INT, 0, 4, c));
      CHECK_MPI(MPI_Comm_disconnect(&c));
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
  }
  if (rank == 0) printf("spawn_loop: %d cycles ok\n", kCycles);
  MPI_Finalize();
  return 0;
}
