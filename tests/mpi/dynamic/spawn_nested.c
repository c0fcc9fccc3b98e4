/* Spawn from a subcommunicator, nested spawns (a child that spawns), and
 * spawn under MPI_THREAD_MULTIPLE. Generation 0: MPI_COMM_WORLD split in
 * two halves, each spawns 2 children from its own communicator (root = its
 * last rank). Generation 1: the 2 children spawn 1 grandchild together.
 * Every generation sends its parents its depth and world size; the
 * grandchild's message travels up two levels. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int relay(MPI_Comm parent, int depth, const char* self) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int below = 0;
  if (depth < 2) {
    char d[16];
    snprintf(d, sizeof d, "%d", depth + 1);
    char* args[] = {d, NULL};
    MPI_Comm kids;
    const int n = depth == 0 ? 2 : 1;
    int sub_rank, sub_size;
    MPI_Comm sub;
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    /* Generation 0 spawns from halves of MPI_COMM_WORLD. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, depth == 0 ? wrank % 2 : 0, wrank, &sub));
    MPI_Comm_rank(sub, &sub_rank);
    MPI_Comm_size(sub, &sub_size);
    CHECK_MPI(MPI_Comm_spawn(self, args, n, MPI_INFO_NULL, sub_size - 1, sub, &kids, MPI_ERRCODES_IGNORE));
    if (sub_rank == sub_size - 1) {
      for (int i = 0; i < n; ++i) {
        int v;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i, 1, kids, MPI_STATUS_IGNORE));
        below += v;
      }
    }
    CHECK_MPI(MPI_Comm_disconnect(&kids));
    MPI_Comm_free(&sub);
  }
  if (parent != MPI_COMM_NULL) {
    /* Each process reports 1 + what its own children reported. */
    int v = 1 + below;
    int psize;
    MPI_Comm_remote_size(parent, &psize);
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, psize - 1, 1, parent));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
  }
  (void)rank;
  return below;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  const int depth = parent == MPI_COMM_NULL ? 0 : atoi(argv[1]);
  const int below = relay(parent, depth, argv[0]);
  if (depth == 0) {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Each half's root hears from 2 children, each of which had 1 grandchild
     * (the pair of children spawned one together; its root reports it). */
    int total = 0;
    MPI_Allreduce(&below, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const int halves = size >= 2 ? 2 : 1;
    CHECK(total == halves * (2 + 1));
    if (rank == 0) printf("spawn_nested: ok\n");
  }
  MPI_Finalize();
  return 0;
}
