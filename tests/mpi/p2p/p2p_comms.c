/* Point-to-point on communicators other than MPI_COMM_WORLD: traffic of a
 * duplicate never matches the parent's, ranks and sources are those of the
 * communicator (split), and on an intercommunicator dest/source name ranks of
 * the remote group while MPI_SOURCE reports the sender's rank in its group. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Status st;

  /* A duplicate is a separate matching space: the receive on WORLD gets
   * WORLD's message even though the dup's (same source and tag) was sent first. */
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  int a = 1, b = 2, v;
  CHECK_MPI(MPI_Send(&a, 1, MPI_INT, right, 0, dup));
  CHECK_MPI(MPI_Send(&b, 1, MPI_INT, right, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
  CHECK(v == 2);
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st));
  CHECK(v == 1 && st.MPI_SOURCE == left);
  /* MPI_COMM_SELF: a message to ourselves. */
  MPI_Request r;
  CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r));
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &st));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(v == rank && st.MPI_SOURCE == 0);

  /* Split into even and odd world ranks: a ring inside each half, in half ranks. */
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  int hr, hs;
  MPI_Comm_rank(half, &hr);
  MPI_Comm_size(half, &hs);
  CHECK(hr == rank / 2);
  int got = -1;
  CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (hr + 1) % hs, 9, &got, 1, MPI_INT, (hr + hs - 1) % hs, 9, half, &st));
  CHECK(st.MPI_SOURCE == (hr + hs - 1) % hs);
  CHECK(got == ((hr + hs - 1) % hs) * 2 + rank % 2);

  /* Intercommunicator between the halves (needs both halves non-empty). */
  if (size >= 2) {
    MPI_Comm inter;
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 77, &inter));
    int rsize;
    CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
    CHECK(rsize == (rank % 2 == 0 ? size / 2 : (size + 1) / 2));
    /* Every rank sends its world rank to every remote rank, then receives
     * one message from each remote rank with MPI_ANY_SOURCE. */
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)rsize);
    for (int d = 0; d < rsize; ++d) CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, d, 3, inter, &reqs[d]));
    int *seen = calloc((size_t)rsize, sizeof(int));
    for (int k = 0; k < rsize; ++k) {
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, inter, &st));
      CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize && !seen[st.MPI_SOURCE]);
      seen[st.MPI_SOURCE] = 1;
      /* remote rank i of the even half is world rank 2i (+1 for the odd half) */
      CHECK(v == st.MPI_SOURCE * 2 + (rank % 2 == 0 ? 1 : 0));
    }
    MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)rsize);
    CHECK_MPI(MPI_Waitall(rsize, reqs, sts));
    free(sts);
    /* A specific source and a probe, in remote ranks. */
    const int partner = hr < rsize ? hr : 0;
    int out = 1000 + rank;
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, partner, 4, inter));
    /* Remote ranks that picked us: those with hr' < our remote size and hr' == our hr, or hr' >= and we are 0. */
    int incoming = 0;
    for (int q = 0; q < rsize; ++q) incoming += (q < hs ? q : 0) == hr;
    for (int k = 0; k < incoming; ++k) {
      CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 4, inter, &st));
      const int src = st.MPI_SOURCE;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, src, 4, inter, &st));
      CHECK(v == 1000 + src * 2 + (rank % 2 == 0 ? 1 : 0));
    }
    free(seen);
    free(reqs);
    CHECK_MPI(MPI_Comm_free(&inter));
  }
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Comm_free(&dup));
  MPI_Finalize();
  return 0;
}
