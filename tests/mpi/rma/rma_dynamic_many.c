/* A dynamic window holding many attachments per rank (MPI-3.1 §11.2.4:
 * MPI_Win_attach may be called any number of times; each attached piece is
 * accessed by its absolute address). Each rank attaches 1000 separate
 * one-long pieces, as a program building a linked list one element at a time
 * does, and its left neighbour writes every piece with a put and reads it
 * back with a get and a fetch-and-op under lock_all, then accumulates into
 * each under an exclusive lock. Every piece is detached again and the window
 * takes as many new ones. */
#include <stdlib.h>

#include "check.h"

#define K 1000

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win win;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  /* Pieces buf[2i]; the longs between them stay unattached, so no two
   * pieces touch and each is its own attachment. */
  long* buf = malloc(2 * K * sizeof(long));
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 2 * K; ++i) buf[i] = -1;
    for (int i = 0; i < K; ++i) CHECK_MPI(MPI_Win_attach(win, buf + 2 * i, sizeof(long)));
    MPI_Aint mine, theirs;
    CHECK_MPI(MPI_Get_address(buf, &mine));
    CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    const MPI_Aint L = (MPI_Aint)sizeof(long);

    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < K; ++i) {
      long v = 1000L * rank + i + round;
      CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, right, theirs + 2 * i * L, 1, MPI_LONG, win));
    }
    CHECK_MPI(MPI_Win_flush(right, win));
    for (int i = 0; i < K; i += 37) {
      long got = -5, fetched = -5;
      CHECK_MPI(MPI_Get(&got, 1, MPI_LONG, right, theirs + 2 * i * L, 1, MPI_LONG, win));
      CHECK_MPI(MPI_Fetch_and_op(NULL, &fetched, MPI_LONG, right, theirs + 2 * i * L, MPI_NO_OP, win));
      CHECK_MPI(MPI_Win_flush(right, win));
      CHECK(got == 1000L * rank + i + round && fetched == got);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);

    long one = 1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    for (int i = 0; i < K; ++i)
      CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, right, theirs + 2 * i * L, 1, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < K; ++i) {
      CHECK(buf[2 * i] == 1000L * left + i + round + 1);
      CHECK(buf[2 * i + 1] == -1);
    }
    for (int i = 0; i < K; ++i) CHECK_MPI(MPI_Win_detach(win, buf + 2 * i));
    MPI_Barrier(MPI_COMM_WORLD); /* nobody attaches again while its left neighbour reads */
  }

  CHECK_MPI(MPI_Win_free(&win));
  free(buf);
  MPI_Finalize();
  return 0;
}
