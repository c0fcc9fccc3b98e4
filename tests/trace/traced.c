/* The program the trace tests record (tests/trace/trace_test.py): a known
 * set of messages and collectives whose calls, arguments and byte counts the
 * test then finds in the trace file.
 *   - rank 0 sends 10*r ints to each rank r with tag 100+r (MPI_Send/MPI_Recv);
 *   - every rank sends 3 doubles to its right neighbour, tag 7
 *     (MPI_Isend/MPI_Irecv/MPI_Waitall);
 *   - rank 1 sends rank 0 kBig bytes with tag 200 (a rendezvous-sized message);
 *   - MPI_Bcast of 8 ints from root 0, MPI_Allreduce of one int.
 * With the argument "crash", rank 1 aborts (SIGABRT) after its first receive. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/check.h"

enum { kBig = 1 << 20 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int crash = argc > 1 && strcmp(argv[1], "crash") == 0;

  int buf[64];
  for (int i = 0; i < 64; ++i) buf[i] = i;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) CHECK_MPI(MPI_Send(buf, 10 * r, MPI_INT, r, 100 + r, MPI_COMM_WORLD));
  } else {
    int got[64];
    MPI_Status st;
    CHECK_MPI(MPI_Recv(got, 64, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD, &st));
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 10 * rank && got[n - 1] == n - 1);
    if (crash && rank == 1) raise(SIGABRT);
  }

  double out[3] = {rank, rank + 0.5, rank + 0.25}, in[3];
  MPI_Request reqs[2];
  CHECK_MPI(MPI_Irecv(in, 3, MPI_DOUBLE, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Isend(out, 3, MPI_DOUBLE, (rank + 1) % size, 7, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
  CHECK(in[0] == (rank + size - 1) % size);

  if (size > 1 && rank <= 1) {
    char* big = malloc(kBig);
    CHECK(big != NULL);
    memset(big, rank, kBig);
    if (rank == 1) CHECK_MPI(MPI_Send(big, kBig, MPI_BYTE, 0, 200, MPI_COMM_WORLD));
    else CHECK_MPI(MPI_Recv(big, kBig, MPI_BYTE, 1, 200, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(big[kBig - 1] == 1);
    free(big);
  }

  int b[8] = {0};
  if (rank == 0)
    for (int i = 0; i < 8; ++i) b[i] = 40 + i;
  CHECK_MPI(MPI_Bcast(b, 8, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK(b[7] == 47);
  int one = 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == size);
  MPI_Finalize();
  return 0;
}
