/* Back-pressure: every rank starts 100000 small sends to every other rank
 * before it receives anything, then receives them all in order. The rings
 * fill up long before that, so this only finishes if a sender blocked on a
 * full ring keeps draining what comes in (and nothing is lost or reordered). */
#include <stdlib.h>

#include "check.h"

enum { N = 100000 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int peers = size - 1;
  int *out = malloc(sizeof(int) * (size_t)N * (size_t)(peers > 0 ? peers : 1));
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)N * (size_t)(peers > 0 ? peers : 1));
  size_t k = 0;
  for (int i = 0; i < N; ++i)
    for (int p = 1; p <= peers; ++p) {
      const int dest = (rank + p) % size;
      out[k] = i * 1000 + rank; /* the value names the sender and the sequence number */
      CHECK_MPI(MPI_Isend(&out[k], 1, MPI_INT, dest, 7, MPI_COMM_WORLD, &reqs[k]));
      ++k;
    }
  for (int p = 1; p <= peers; ++p) {
    const int src = (rank - p + size) % size;
    for (int i = 0; i < N; ++i) {
      int v = -1;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, src, 7, MPI_COMM_WORLD, &st));
      CHECK(v == i * 1000 + src);
    }
  }
  MPI_Status *sts = malloc(sizeof(MPI_Status) * (k ? k : 1));
  CHECK_MPI(MPI_Waitall((int)k, reqs, sts));
  /* Nothing else is left over: a probe for any message finds none. */
  int flag;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag);
  free(sts);
  free(out);
  free(reqs);
  MPI_Finalize();
  return 0;
}
