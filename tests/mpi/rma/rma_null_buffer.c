/* A NULL origin or result buffer where data moves (count > 0, a type of
 * non-zero size) is MPI_ERR_BUFFER, reported on the window's error handler,
 * not a crash; the window is unchanged. NULL stays valid where nothing is
 * read or written there: a count of 0, an MPI_PROC_NULL target, the origin
 * of MPI_NO_OP, and MPI_BOTTOM with a datatype of absolute addresses
 * (MPI-3.1 §4.1.12), which must move its data. Under a fence and under a
 * lock, every rank the origin of one neighbour. */
#include "check.h"

#define N 4

#define expect_buffer_error(call)        \
  do {                                   \
    int code_ = (call), cls_ = MPI_SUCCESS; \
    CHECK(code_ != MPI_SUCCESS);         \
    MPI_Error_class(code_, &cls_);       \
    CHECK(cls_ == MPI_ERR_BUFFER);       \
  } while (0)

static void calls(MPI_Win win, int target) {
  int x = 7, res = -1;
  expect_buffer_error(MPI_Put(NULL, 1, MPI_INT, target, 0, 1, MPI_INT, win));
  expect_buffer_error(MPI_Get(NULL, 2, MPI_INT, target, 0, 2, MPI_INT, win));
  expect_buffer_error(MPI_Accumulate(NULL, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, win));
  expect_buffer_error(MPI_Accumulate(NULL, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_REPLACE, win));
  expect_buffer_error(MPI_Get_accumulate(&x, 1, MPI_INT, NULL, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_SUM, win));
  expect_buffer_error(MPI_Fetch_and_op(NULL, &res, MPI_INT, target, 0, MPI_SUM, win));
  expect_buffer_error(MPI_Fetch_and_op(&x, NULL, MPI_INT, target, 0, MPI_SUM, win));
  /* MPI_Compare_and_swap names its NULL argument as MPI_ERR_ARG, as MPICH
   * does (its buffers are single elements, not count x datatype). */
  int code = MPI_Compare_and_swap(&x, NULL, &res, MPI_INT, target, 0, win), cls = MPI_SUCCESS;
  MPI_Error_class(code, &cls);
  CHECK(cls == MPI_ERR_ARG);
  /* Valid: nothing moves through the NULL buffer. */
  CHECK_MPI(MPI_Put(NULL, 0, MPI_INT, target, 0, 0, MPI_INT, win));
  CHECK_MPI(MPI_Get(NULL, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
  CHECK_MPI(MPI_Accumulate(NULL, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Fetch_and_op(NULL, &res, MPI_INT, target, 1, MPI_NO_OP, win));
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, &res, 1, MPI_INT, target, 1, 1, MPI_INT, MPI_NO_OP, win));
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
  for (int i = 0; i < N; ++i) mem[i] = rank * 10 + i;
  const int target = (rank + 1) % size;
  const int source = (rank + size - 1) % size;

  CHECK_MPI(MPI_Win_fence(0, win));
  calls(win, target);
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(mem[i] == rank * 10 + i);

  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
  calls(win, target);
  CHECK_MPI(MPI_Win_unlock(target, win));
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  for (int i = 0; i < N; ++i) CHECK(mem[i] == rank * 10 + i);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  MPI_Barrier(MPI_COMM_WORLD);

  /* MPI_BOTTOM (NULL here) with absolute addresses moves data. */
  int value = 1000 + rank;
  MPI_Aint where;
  CHECK_MPI(MPI_Get_address(&value, &where));
  int one = 1;
  MPI_Datatype absolute;
  CHECK_MPI(MPI_Type_create_hindexed(1, &one, &where, MPI_INT, &absolute));
  CHECK_MPI(MPI_Type_commit(&absolute));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(MPI_BOTTOM, 1, absolute, target, 2, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK(mem[2] == 1000 + source);
  CHECK_MPI(MPI_Type_free(&absolute));

  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
