/* Ring: a token goes once around all ranks. Rank 0 starts it; every other
 * rank receives it from its left neighbour, adds its own rank and passes it
 * to its right neighbour; rank 0 finally receives the sum 0+1+...+(size-1).
 * The first point-to-point program: MPI_Send and MPI_Recv with explicit
 * source, destination and tag. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size, tag = 7;
  int token = 0;
  if (rank == 0) {
    /* Send first, then wait for the token to come back: if every rank received
     * first, nobody would ever send (see deadlock.c). */
    MPI_Send(&token, 1, MPI_INT, right, tag, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const int want = size * (size - 1) / 2;
    printf("ring: the token came back with %d (want %d) after visiting %d ranks\n", token, want, size);
    if (token != want) MPI_Abort(MPI_COMM_WORLD, 1);
  } else {
    MPI_Recv(&token, 1, MPI_INT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    token += rank;
    MPI_Send(&token, 1, MPI_INT, right, tag, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
