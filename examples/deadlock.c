/* A deliberate deadlock, to see what a deadlock looks like. Ranks 0 and 1
 * each wait to receive from the other before sending, so neither ever sends;
 * the other ranks wait in MPI_Barrier for ranks 0 and 1, which never come.
 * Under MPICH or Open MPI this program hangs until you press Ctrl-C. Under
 * ringmpi's mpiexec, after about a second, it prints a report like
 *
 *   deadlock: every rank still running is blocked in MPI and no message is in flight:
 *     rank 0 waits for rank 1 in MPI_Recv(source 1, tag 7, MPI_COMM_WORLD, 1 x MPI_INT) (idle ...)
 *     rank 1 waits for rank 0 in MPI_Recv(source 0, tag 7, MPI_COMM_WORLD, 1 x MPI_INT) (idle ...)
 *     rank 2 waits in MPI_Barrier(MPI_COMM_WORLD) (idle ...)
 *     wait-for cycle: rank 0 -> rank 1 -> rank 0
 *
 * and ends the job with exit status 123. The fix: one of the two sends
 * first (see ring.c), or both use MPI_Sendrecv. Needs at least 2 ranks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, mine, theirs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    printf("deadlock: run me with at least 2 ranks\n");
    MPI_Finalize();
    return 0;
  }
  mine = rank;
  if (rank < 2) {
    const int other = 1 - rank;
    MPI_Recv(&theirs, 1, MPI_INT, other, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* waits forever */
    MPI_Send(&mine, 1, MPI_INT, other, 7, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
