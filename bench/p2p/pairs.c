/* Ping-pong in pairs (0,1), (2,3), ...: wall time of `iters` round trips of
 * `bytes`-byte messages in every pair at once, the whole job timed by rank 0.
 * np=8 on 2 cores is the oversubscribed case (4 pairs).
 * Run: mpiexec -n 8 bench_pairs [iters=20000] [bytes=8] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iters = argc > 1 ? atoi(argv[1]) : 20000;
  const int bytes = argc > 2 ? atoi(argv[2]) : 8;
  char *buf = calloc((size_t)bytes + 1, 1);
  const int peer = rank ^ 1;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  if (peer < size) {
    for (int i = 0; i < iters; ++i) {
      if (rank % 2 == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t = MPI_Wtime() - t0;
  if (rank == 0)
    printf("np=%d: %d pairs x %d round trips of %d bytes: %.3f s (%.2f us per round trip per pair)\n", size,
           size / 2, iters, bytes, t, t / iters * 1e6);
  free(buf);
  MPI_Finalize();
  return 0;
}
