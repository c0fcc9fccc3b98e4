/* More live communicators than their rank 0 has shared segments (8 per
 * world rank): the later ones run their collectives over messages, all of
 * them give the right results, and once they are freed a new communicator
 * gets a segment again (segments are handed back at MPI_Comm_free). */
#include "check.h"
#include "counter.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  enum { N = 12 };
  MPI_Comm c[N];
  for (int i = 0; i < N; ++i) {
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]));
    int x = rank + i, y = -1;
    CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c[i]));
    CHECK(y == size * (size - 1) / 2 + size * i);
  }
  /* Every communicator again, interleaved with the others. */
  for (int i = N - 1; i >= 0; --i) {
    int v = rank == size - 1 ? 1000 + i : -1;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, size - 1, c[i]));
    CHECK(v == 1000 + i);
    CHECK_MPI(MPI_Barrier(c[i]));
  }
  const long long messages = counter("coll_messages");
  if (size > 1) CHECK(messages > 0); /* the communicators beyond the 8 segments */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Comm_free(&c[i]));
  /* Segments handed back: a new communicator runs on one. */
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  const long long before = counter("seg_allreduce");
  int x = 1, y = 0;
  CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d));
  CHECK(y == size);
  if (size > 1) CHECK(counter("seg_allreduce") == before + 1 && counter("coll_messages") == messages);
  CHECK_MPI(MPI_Comm_free(&d));
  MPI_Finalize();
  return 0;
}
