/* MPI_Win_lock, MPI_Win_unlock, MPI_Win_flush and MPI_Win_flush_local with
 * rank MPI_PROC_NULL (issue 35). The standard names no such target for
 * these calls; MPICH accepts them as no-ops, and so does ringmpi: nothing
 * is locked or unlocked, no epoch is opened or closed, whatever else is
 * open (none, lock_all, a fence epoch, a lock on a real rank). A bad lock
 * type or assert is still an error. Real locks work as before around them. */
#include "check.h"

static void expect_class(int rc, int want) {
  int cls;
  CHECK(rc != MPI_SUCCESS);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == want);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size;
  int* base;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  *base = -1;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* No epoch open. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, MPI_MODE_NOCHECK, win)); /* twice: still nothing */
  CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_flush_local(MPI_PROC_NULL, win));
  int v = rank;
  CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
  /* The lock opened no epoch: a real target is still outside any. */
  expect_class(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win)); /* more unlocks than locks: nothing either */
  /* Still checked: the lock type and the assert. */
  expect_class(MPI_Win_lock(77, MPI_PROC_NULL, 0, win), MPI_ERR_LOCKTYPE);
  expect_class(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 12345, win), MPI_ERR_ASSERT);

  /* Inside a lock on a real rank, and around it. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_flush(right, win)); /* the real lock is still held */
  CHECK_MPI(MPI_Win_unlock(right, win));
  expect_class(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(*base == (rank + size - 1) % size);

  /* Inside lock_all and inside a fence epoch. */
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

  /* Nothing stays open: the window frees. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
