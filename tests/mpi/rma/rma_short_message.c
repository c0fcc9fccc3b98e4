/* RMA data shorter than the buffer it goes into. MPI-3.1 §11.3.1: a put
 * moves data as a send of the origin buffer matched by a receive of the
 * target buffer would, and "the message sent must fit, without truncation,
 * in the target buffer" -- so it may be shorter, and then only the first
 * entries of the target buffer (in its datatype's order) change. A get is the
 * same with the direction reversed; an accumulate is like a put (§11.3.4);
 * a get-accumulate returns the whole target buffer into the result buffer,
 * which may also be longer. Checked with a strided target datatype and a
 * strided origin datatype, under a fence and under a lock, on a window from
 * MPI_Win_allocate and one from MPI_Win_create over malloc'd memory; every
 * rank targets the next one. Data that does not fit is refused
 * (MPI_ERRORS_RETURN) and changes nothing. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

enum { N = 16 };

static void reset(int* mem, int rank) {
  for (int i = 0; i < N; ++i) mem[i] = 1000 * rank + i;
}

/* Every slot of the target's window after the operations below. */
static void expect_target(const int* mem, int rank, int origin_rank) {
  int want[N];
  reset(want, rank);
  const int o = 100 * origin_rank;
  want[0] = o + 1; /* Put: 2 ints into 1 x every-second-int vector of 4 */
  want[2] = o + 2;
  want[5] = o + 3; /* Put: strided origin (2 ints) into 4 contiguous ints */
  want[6] = o + 5;
  want[8] += o + 1; /* Accumulate(SUM): 2 ints into 4 */
  want[9] += o + 2;
  want[11] = o + 9; /* Accumulate(REPLACE): 1 int into 1 x vector of 3 */
  want[13] += 7;    /* Get_accumulate(SUM): 1 int into 3 */
  for (int i = 0; i < N; ++i) CHECK(mem[i] == want[i]);
}

static void run(MPI_Win win, int* mem, int rank, int size, int passive) {
  const int target = (rank + 1) % size, from = (rank + size - 1) % size;
  const int o = 100 * rank;
  int src[6] = {o + 1, o + 2, o + 3, o + 4, o + 5, o + 6};
  int nine = o + 9, seven = 7;
  int got[5] = {-1, -1, -1, -1, -1}, res[5] = {-1, -1, -1, -1, -1}, res2[3] = {-1, -1, -1};
  MPI_Datatype every2, every2of3;
  CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every2));
  CHECK_MPI(MPI_Type_commit(&every2));
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &every2of3)); /* origin side: src[2], src[4] */
  CHECK_MPI(MPI_Type_commit(&every2of3));

  MPI_Barrier(MPI_COMM_WORLD);
  reset(mem, rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (passive)
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
  else
    CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(src, 2, MPI_INT, target, 0, 1, every2, win));
  CHECK_MPI(MPI_Put(src + 2, 1, every2of3, target, 5, 4, MPI_INT, win));
  CHECK_MPI(MPI_Accumulate(src, 2, MPI_INT, target, 8, 4, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(&nine, 1, MPI_INT, target, 11, 3, MPI_INT, MPI_REPLACE, win));
  /* Get: the target's 2 ints at 14, 15 into an origin buffer of 5 */
  CHECK_MPI(MPI_Get(got, 5, MPI_INT, target, 14, 2, MPI_INT, win));
  /* Get_accumulate: 1 int added to the first of 3; the result (room for 5)
   * receives the 3 target ints as they were */
  CHECK_MPI(MPI_Get_accumulate(&seven, 1, MPI_INT, res, 5, MPI_INT, target, 13, 3, MPI_INT, MPI_SUM, win));
  /* Get_accumulate(NO_OP): 1 target int into a strided result of 2 */
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, res2, 1, every2of3, target, 3, 1, MPI_INT, MPI_NO_OP, win));
  /* Data that does not fit: refused, nothing moves */
  CHECK(MPI_Put(src, 3, MPI_INT, target, 0, 2, MPI_INT, win) != MPI_SUCCESS);
  CHECK(MPI_Accumulate(src, 5, MPI_INT, target, 0, 1, every2, MPI_SUM, win) != MPI_SUCCESS);
  CHECK(MPI_Get(got, 1, MPI_INT, target, 0, 2, MPI_INT, win) != MPI_SUCCESS);
  CHECK(MPI_Get_accumulate(&seven, 1, MPI_INT, res, 1, MPI_INT, target, 0, 2, MPI_INT, MPI_SUM, win) != MPI_SUCCESS);
  if (passive)
    CHECK_MPI(MPI_Win_unlock(target, win));
  else
    CHECK_MPI(MPI_Win_fence(0, win));

  const int t = 1000 * target;
  CHECK(got[0] == t + 14 && got[1] == t + 15 && got[2] == -1 && got[3] == -1 && got[4] == -1);
  CHECK(res[0] == t + 13 && res[1] == t + 14 && res[2] == t + 15 && res[3] == -1 && res[4] == -1);
  CHECK(res2[0] == t + 3 && res2[1] == -1 && res2[2] == -1);

  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  expect_target(mem, rank, from);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Type_free(&every2));
  CHECK_MPI(MPI_Type_free(&every2of3));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int* mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  run(win, mem, rank, size, 0);
  run(win, mem, rank, size, 1);
  CHECK_MPI(MPI_Win_free(&win));

  int* user = malloc(N * sizeof(int));
  CHECK(user != NULL);
  CHECK_MPI(MPI_Win_create(user, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  run(win, user, rank, size, 0);
  run(win, user, rank, size, 1);
  CHECK_MPI(MPI_Win_free(&win));
  free(user);

  MPI_Finalize();
  return 0;
}
