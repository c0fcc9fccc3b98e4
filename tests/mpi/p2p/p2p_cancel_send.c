/* MPI_Cancel of sends (MPI-3.1 §3.8.4): a synchronous send no receive has
 * matched, and a send too large to go eagerly, are cancelled once they sit
 * with the receiver; MPI_Wait then returns at once with the status marked
 * cancelled and the message is never received. A send a receive already
 * matched completes normally and is not marked cancelled. Rank r sends to
 * rank (r + 1) % size (itself with one rank). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kLarge = 1 << 20 };

/* Sends `bytes` on tag `tag` with Issend (sync) or Isend, then cancels it
 * before any receive is posted: it must come back cancelled. */
static void cancel_unmatched(int to, int tag, size_t bytes, int sync) {
  char *buf = malloc(bytes ? bytes : 1);
  CHECK(buf != NULL);
  memset(buf, 7, bytes);
  MPI_Request req;
  if (sync)
    CHECK_MPI(MPI_Issend(buf, (int)bytes, MPI_CHAR, to, tag, MPI_COMM_WORLD, &req));
  else
    CHECK_MPI(MPI_Isend(buf, (int)bytes, MPI_CHAR, to, tag, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Cancel(&req));
  CHECK(req != MPI_REQUEST_NULL);
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(req == MPI_REQUEST_NULL);
  int flag = 0;
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(flag);
  free(buf);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;

  /* Unmatched sends: small synchronous, large synchronous, large standard. */
  cancel_unmatched(to, 1, 8, 1);
  cancel_unmatched(to, 2, kLarge, 1);
  cancel_unmatched(to, 3, kLarge, 0);
  /* A zero-byte synchronous send. */
  cancel_unmatched(to, 4, 0, 1);

  /* The cancelled messages are gone: after the barrier (every cancel has
   * completed) nothing on tags 1..4 waits for us. */
  MPI_Barrier(MPI_COMM_WORLD);
  for (int tag = 1; tag <= 4; ++tag) {
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* everyone probed before tag 1 is used again */

  /* A later message on the same tag is received normally. */
  int v = rank, got = -1;
  MPI_Request req;
  CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, to, 1, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(got == from);
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

  /* A matched synchronous send (large and small): the receive completes
   * first, then the cancel has no effect. */
  const size_t sizes[2] = {16, kLarge};
  for (int k = 0; k < 2; ++k) {
    char *out = malloc(sizes[k]), *in = malloc(sizes[k]);
    CHECK(out && in);
    memset(out, 'a' + k, sizes[k]);
    memset(in, 0, sizes[k]);
    MPI_Request rr;
    CHECK_MPI(MPI_Irecv(in, (int)sizes[k], MPI_CHAR, from, 5, MPI_COMM_WORLD, &rr));
    CHECK_MPI(MPI_Issend(out, (int)sizes[k], MPI_CHAR, to, 5, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&rr, MPI_STATUS_IGNORE));
    CHECK(in[0] == 'a' + k && in[sizes[k] - 1] == 'a' + k);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive has matched */
    CHECK_MPI(MPI_Cancel(&req));
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&req, &st));
    int flag = 1;
    CHECK_MPI(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag);
    free(out);
    free(in);
  }

  /* A cancelled persistent synchronous send can be started again. */
  MPI_Request preq;
  int pv = 40 + rank, pgot = -1;
  CHECK_MPI(MPI_Ssend_init(&pv, 1, MPI_INT, to, 6, MPI_COMM_WORLD, &preq));
  CHECK_MPI(MPI_Start(&preq));
  CHECK_MPI(MPI_Cancel(&preq));
  MPI_Status pst;
  CHECK_MPI(MPI_Wait(&preq, &pst));
  int pflag = 0;
  CHECK_MPI(MPI_Test_cancelled(&pst, &pflag));
  CHECK(pflag);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Start(&preq));
  CHECK_MPI(MPI_Recv(&pgot, 1, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(pgot == 40 + from);
  CHECK_MPI(MPI_Wait(&preq, &pst));
  CHECK_MPI(MPI_Test_cancelled(&pst, &pflag));
  CHECK(!pflag);
  CHECK_MPI(MPI_Request_free(&preq));

  MPI_Finalize();
  return 0;
}
