/* Context ids are reused: 100 000 dup/free cycles at np = 2 (10 000 at
 * more ranks), more than the per-process context pool could ever hand out
 * without reuse, and the heap does not grow. Intercommunicator dup/free and
 * split/free cycles too. */
#include <malloc.h>

#include "check.h"

static size_t heap_in_use(void) { return mallinfo2().uordblks; }

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int cycles = size <= 2 ? 100000 : 10000;

  /* Warm up whatever the library caches, then measure. */
  for (int i = 0; i < 100; ++i) {
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    CHECK_MPI(MPI_Comm_free(&d));
  }
  const size_t before = heap_in_use();
  MPI_Comm keep;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &keep)); /* one long-lived communicator in between */
  for (int i = 0; i < cycles; ++i) {
    MPI_Comm d;
    CHECK_MPI(MPI_Comm_dup(i % 2 ? keep : MPI_COMM_WORLD, &d));
    if (i % 1000 == 0) {
      /* the duplicate works and is isolated from its parent */
      int to = (rank + 1) % size, from = (rank - 1 + size) % size, a = i, b = -i, x, y;
      MPI_Request q[2];
      CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, from, 0, d, &q[0]));
      CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, from, 0, keep, &q[1]));
      CHECK_MPI(MPI_Send(&b, 1, MPI_INT, to, 0, keep));
      CHECK_MPI(MPI_Send(&a, 1, MPI_INT, to, 0, d));
      MPI_Status qs[2];
      CHECK_MPI(MPI_Waitall(2, q, qs));
      CHECK(x == i && y == -i);
    }
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL);
  }
  CHECK_MPI(MPI_Comm_free(&keep));
  const size_t after = heap_in_use();
  if (after > before + 64 * 1024) {
    fprintf(stderr, "rank %d: heap grew from %zu to %zu bytes over %d dup/free cycles\n", rank, before, after,
            cycles);
    CHECK(0);
  }

  /* split/free and intercommunicator dup/free cycles. */
  MPI_Comm half, ic;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half));
  if (size >= 2) {
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 9, &ic));
    for (int i = 0; i < cycles / 10; ++i) {
      MPI_Comm d, s;
      CHECK_MPI(MPI_Comm_dup(ic, &d));
      CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, i % 3 == rank % 3, rank, &s));
      CHECK_MPI(MPI_Comm_free(&d));
      CHECK_MPI(MPI_Comm_free(&s));
    }
    CHECK_MPI(MPI_Comm_free(&ic));
  }
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
