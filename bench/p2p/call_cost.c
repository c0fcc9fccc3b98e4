/* Instructions per blocking point-to-point call, for callgrind (the same
 * file builds against ringmpi, MPICH and Open MPI). Rank 0 sends `window`
 * messages of `size` bytes with MPI_Send, then both ranks meet in a barrier
 * and rank 1 takes them with MPI_Recv: every receive finds its message
 * already there, so the count is the call's own work, with no polling
 * loop whose length depends on timing. Repeated `rounds` times.
 *
 *   call_cost [size] [window] [rounds] [any]   (defaults 8 32 200; "any":
 *                                              MPI_ANY_SOURCE, MPI_ANY_TAG)
 *
 * Run under callgrind and divide MPI_Send's inclusive count (rank 0) and
 * MPI_Recv's (rank 1) by window * rounds:
 *   mpiexec -n 2 valgrind --tool=callgrind --callgrind-out-file=cg.%p call_cost
 *   callgrind_annotate --inclusive=yes cg.<pid> | grep -E 'MPI_(Send|Recv)'
 * With "pingpong" as the fifth argument it runs a plain ping-pong instead
 * (whose counts include the receive's polling). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int size = argc > 1 ? atoi(argv[1]) : 8;
  const int window = argc > 2 ? atoi(argv[2]) : 32;
  const int rounds = argc > 3 ? atoi(argv[3]) : 200;
  const int any = argc > 4 && strcmp(argv[4], "any") == 0;
  const int pingpong = argc > 5 && strcmp(argv[5], "pingpong") == 0;
  char* buf = calloc((size_t)size + 1, 1);
  if (pingpong) {
    for (int i = 0; i < rounds * window; ++i) {
      if (rank == 0) {
        MPI_Send(buf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, size, MPI_BYTE, any ? MPI_ANY_SOURCE : 1, any ? MPI_ANY_TAG : 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, size, MPI_BYTE, any ? MPI_ANY_SOURCE : 0, any ? MPI_ANY_TAG : 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(buf, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
    }
  } else {
    for (int r = 0; r < rounds; ++r) {
      if (rank == 0)
        for (int k = 0; k < window; ++k) MPI_Send(buf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 1)
        for (int k = 0; k < window; ++k)
          MPI_Recv(buf, size, MPI_BYTE, any ? MPI_ANY_SOURCE : 0, any ? MPI_ANY_TAG : 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
