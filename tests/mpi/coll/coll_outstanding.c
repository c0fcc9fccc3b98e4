/* Many nonblocking collectives outstanding on one communicator at once:
 * 16 Iallreduce/Ibcast/Iallgather started back to back and completed in
 * reverse order, then completed by MPI_Waitany/Testall in mixed order, with
 * point-to-point traffic on the same communicator in between (a ring
 * exchange that needs the other ranks to be inside MPI), and a nonblocking
 * barrier overlapped with a compute loop polled by MPI_Test. Also: freeing
 * or cancelling an active collective request is refused (MPI_ERR_REQUEST). */
#include <stdlib.h>

#include "check.h"

#define K 16

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);

  for (int rep = 0; rep < 3; ++rep) {
    MPI_Request req[K];
    int sum[K], bc[K][4], *ag[K];
    for (int k = 0; k < K; ++k) {
      const int root = k % size;
      ag[k] = malloc(sizeof(int) * (size_t)size);
      switch (k % 3) {
        case 0: {
          static int v[K]; /* send buffers stay untouched until completion */
          v[k] = rank * 100 + k + rep;
          CHECK_MPI(MPI_Iallreduce(&v[k], &sum[k], 1, MPI_INT, MPI_SUM, comm, &req[k]));
          break;
        }
        case 1:
          for (int i = 0; i < 4; ++i) bc[k][i] = rank == root ? k * 10 + i + rep : -1;
          CHECK_MPI(MPI_Ibcast(bc[k], 4, MPI_INT, root, comm, &req[k]));
          break;
        default: {
          static int mine[K];
          mine[k] = rank * 7 + k + rep;
          CHECK_MPI(MPI_Iallgather(&mine[k], 1, MPI_INT, ag[k], 1, MPI_INT, comm, &req[k]));
        }
      }
    }
    /* Point-to-point on the same communicator while they are in flight. */
    int token = rank, got = -1;
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 5, &got, 1, MPI_INT, (rank - 1 + size) % size, 5,
                           comm, MPI_STATUS_IGNORE));
    CHECK(got == (rank - 1 + size) % size);
    if (rep == 0) {
      for (int k = K - 1; k >= 0; --k) CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    } else if (rep == 1) {
      for (int done = 0; done < K; ++done) {
        int idx;
        CHECK_MPI(MPI_Waitany(K, req, &idx, MPI_STATUS_IGNORE));
        CHECK(idx >= 0 && idx < K && req[idx] == MPI_REQUEST_NULL);
      }
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Testall(K, req, &flag, MPI_STATUSES_IGNORE));
    }
    for (int k = 0; k < K; ++k) {
      CHECK(req[k] == MPI_REQUEST_NULL);
      const int root = k % size;
      if (k % 3 == 0) {
        CHECK(sum[k] == 100 * size * (size - 1) / 2 + size * (k + rep));
      } else if (k % 3 == 1) {
        for (int i = 0; i < 4; ++i) CHECK(bc[k][i] == k * 10 + i + rep);
        (void)root;
      } else {
        for (int i = 0; i < size; ++i) CHECK(ag[k][i] == i * 7 + k + rep);
      }
      free(ag[k]);
    }
  }

  /* A barrier overlapped with work: MPI_Test drives it. */
  MPI_Request b;
  CHECK_MPI(MPI_Ibarrier(comm, &b));
  int flag = 0;
  volatile double x = 0;
  while (!flag) {
    for (int i = 0; i < 1000; ++i) x += i;
    CHECK_MPI(MPI_Test(&b, &flag, MPI_STATUS_IGNORE));
  }
  CHECK(b == MPI_REQUEST_NULL && x >= 0);

  /* Freeing or cancelling an active collective request is erroneous. */
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size > 1) {
    int v = rank, r = 0;
    MPI_Request q;
    /* Rank 0 holds the others back until it has tried both on its request. */
    if (rank == 0) {
      CHECK_MPI(MPI_Ireduce(&v, &r, 1, MPI_INT, MPI_SUM, 0, comm, &q));
      int cls, e = MPI_Request_free(&q); /* cannot be complete: the others have not started */
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_REQUEST);
      CHECK(q != MPI_REQUEST_NULL);
      e = MPI_Cancel(&q);
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_REQUEST);
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
      CHECK(r == size * (size - 1) / 2);
    } else {
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Ireduce(&v, &r, 1, MPI_INT, MPI_SUM, 0, comm, &q));
      CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    }
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
