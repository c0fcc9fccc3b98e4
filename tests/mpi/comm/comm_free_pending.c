/* MPI_Comm_free with a receive still pending (MPI-3.1 §6.4.3: pending
 * operations complete normally): the freed communicator's context id must
 * not go to a new communicator while that receive can still match, or the
 * new communicator's message would land in the old receive.
 *
 * Odd ranks post an MPI_Irecv on d, free d, and make e = dup(world) (rank
 * by rank the same collective calls as their partner); even ranks send one
 * message on e with the same tag. It must arrive on e. The old receive is
 * then cancelled (MPI-3.1 §3.8.4) and reports cancelled. */
#include "check.h"

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const int partner = rank ^ 1;
  const int paired = partner < size;
  for (int round = 0; round < 50; ++round) {
    MPI_Comm d, e;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    int old = -1, got = -1;
    MPI_Request pending = MPI_REQUEST_NULL;
    if (paired && rank % 2 == 1) CHECK_MPI(MPI_Irecv(&old, 1, MPI_INT, partner, 7, d, &pending));
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK(d == MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &e));
    if (paired && rank % 2 == 0) {
      const int v = 1000 + round;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, 7, e));
    } else if (paired) {
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, partner, 7, e, &st));
      CHECK(got == 1000 + round);
      CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == 7);
      CHECK_MPI(MPI_Cancel(&pending));
      CHECK_MPI(MPI_Wait(&pending, &st));
      int cancelled = 0;
      CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
      CHECK(cancelled == 1);
      CHECK(old == -1);
    }
    CHECK_MPI(MPI_Comm_free(&e));
  }
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("comm_free_pending: ok\n");
  return 0;
}
