/* Accumulate-family calls that move no bytes (MPI-3.1 §11.3.4): a count of 0,
 * or a datatype of size 0 such as MPI_Type_contiguous(0, MPI_INT), on the
 * origin, target or result side. Such a type has no basic component, so it
 * cannot disagree with the other side's predefined type; the calls must
 * succeed and leave the window unchanged. Checked under a fence and under a
 * lock, on every rank as origin, MPI_ERRORS_RETURN on the window. A call that
 * does move data with mismatched basic types is still refused. */
#include "check.h"

#define N 8

static void zero_size_calls(MPI_Win win, int target, MPI_Datatype empty) {
  int origin[N], result[N];
  for (int i = 0; i < N; ++i) origin[i] = result[i] = 100 + i;
  /* A zero-size type with a non-zero count, against a count of 0 of a
   * predefined type, on every pair of sides. */
  CHECK_MPI(MPI_Accumulate(origin, 1, empty, target, 0, 0, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(origin, 0, MPI_DOUBLE, target, 0, 2, empty, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(origin, 3, empty, target, 0, 1, empty, MPI_PROD, win));
  CHECK_MPI(MPI_Get_accumulate(origin, 1, empty, result, 0, MPI_INT, target, 0, 0, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Get_accumulate(origin, 0, MPI_INT, result, 1, empty, target, 0, 2, empty, MPI_MAX, win));
  CHECK_MPI(MPI_Get_accumulate(NULL, 2, empty, NULL, 1, empty, target, 0, 1, empty, MPI_SUM, win));
  /* Count 0 of two different predefined types: nothing to combine. */
  CHECK_MPI(MPI_Accumulate(origin, 0, MPI_DOUBLE, target, 0, 0, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Get_accumulate(origin, 0, MPI_DOUBLE, result, 0, MPI_SHORT, target, 0, 0, MPI_INT, MPI_SUM,
                               win));
  MPI_Request req;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
  CHECK_MPI(MPI_Raccumulate(origin, 1, empty, target, 0, 0, MPI_INT, MPI_SUM, win, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_unlock(target, win));
  for (int i = 0; i < N; ++i) CHECK(result[i] == 100 + i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype empty;
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
  CHECK_MPI(MPI_Type_commit(&empty));
  int* mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  for (int i = 0; i < N; ++i) mem[i] = rank * 10 + i;
  const int target = (rank + 1) % size;

  CHECK_MPI(MPI_Win_fence(0, win));
  zero_size_calls(win, target, empty);
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(mem[i] == rank * 10 + i);

  /* The same under a passive-target epoch (the Raccumulate above already
   * took its own lock; here the blocking calls do). */
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
  int one = 1;
  CHECK_MPI(MPI_Accumulate(&one, 1, empty, target, 0, 0, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Accumulate(&one, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, win));
  /* Data moves with different basic types on the two sides: erroneous. */
  double d = 1.0;
  int code = MPI_Accumulate(&d, 1, MPI_DOUBLE, target, 1, 2, MPI_INT, MPI_SUM, win);
  int cls = MPI_SUCCESS;
  CHECK(code != MPI_SUCCESS);
  MPI_Error_class(code, &cls);
  CHECK(cls == MPI_ERR_TYPE);
  CHECK_MPI(MPI_Win_unlock(target, win));
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  CHECK(mem[0] == rank * 10 + 1);
  for (int i = 1; i < N; ++i) CHECK(mem[i] == rank * 10 + i);
  CHECK_MPI(MPI_Win_unlock(rank, win));

  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Type_free(&empty));
  MPI_Finalize();
  return 0;
}
