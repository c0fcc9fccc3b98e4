/* Dynamic windows: every origin checks the target's attachments, so an
 * access to memory the target has mapped but not attached (just before or
 * after an attached piece, or a piece detached since) is MPI_ERR_RMA_RANGE
 * for every communication call, and nothing is written there. Attach
 * refuses overlaps and, past its limit, more attachments (MPI_ERR_RMA_ATTACH);
 * detach refuses an address that starts no attachment. */
#include <stdlib.h>

#include "check.h"

static void expect(int rc, int cls_want) {
  int cls;
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == cls_want);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Win win;
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  /* 16 longs, all mapped; only [4, 8) attached. */
  long* buf = malloc(16 * sizeof(long));
  for (int i = 0; i < 16; ++i) buf[i] = -1;
  CHECK_MPI(MPI_Win_attach(win, buf + 4, 4 * sizeof(long)));
  MPI_Aint mine, *at = malloc(size * sizeof(MPI_Aint));
  CHECK_MPI(MPI_Get_address(buf + 4, &mine));
  CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT, MPI_COMM_WORLD));
  const MPI_Aint a = at[right], L = (MPI_Aint)sizeof(long);

  long v[4] = {rank, rank + 1, rank + 2, rank + 3}, got[4] = {0, 0, 0, 0}, one = 1, cmp = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Put(v, 4, MPI_LONG, right, a, 4, MPI_LONG, win));
  expect(MPI_Put(v, 1, MPI_LONG, right, a - L, 1, MPI_LONG, win), MPI_ERR_RMA_RANGE);    /* just before */
  expect(MPI_Put(v, 2, MPI_LONG, right, a + 3 * L, 2, MPI_LONG, win), MPI_ERR_RMA_RANGE); /* across the end */
  expect(MPI_Get(got, 1, MPI_LONG, right, a + 4 * L, 1, MPI_LONG, win), MPI_ERR_RMA_RANGE);
  expect(MPI_Accumulate(v, 1, MPI_LONG, right, a - L, 1, MPI_LONG, MPI_SUM, win), MPI_ERR_RMA_RANGE);
  expect(MPI_Get_accumulate(v, 1, MPI_LONG, got, 1, MPI_LONG, right, a + 4 * L, 1, MPI_LONG, MPI_SUM, win),
         MPI_ERR_RMA_RANGE);
  expect(MPI_Fetch_and_op(&one, got, MPI_LONG, right, a + 5 * L, MPI_SUM, win), MPI_ERR_RMA_RANGE);
  expect(MPI_Compare_and_swap(&one, &cmp, got, MPI_LONG, right, a - 2 * L, win), MPI_ERR_RMA_RANGE);
  expect(MPI_Rput(v, 1, MPI_LONG, right, a + 4 * L, 1, MPI_LONG, win, &req), MPI_ERR_RMA_RANGE);
  expect(MPI_Rget(got, 1, MPI_LONG, right, a - L, 1, MPI_LONG, win, &req), MPI_ERR_RMA_RANGE);
  /* A derived target type: the span of its bytes is what is checked. */
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_LONG, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Get(got, 2, MPI_LONG, right, a + L, 1, every_other, win)); /* longs 1 and 3: inside */
  expect(MPI_Get(got, 2, MPI_LONG, right, a + 2 * L, 1, every_other, win), MPI_ERR_RMA_RANGE); /* 2, 4 */
  /* Nothing moved: no check (MPI-3.1 §11.3: a zero count transfers nothing). */
  CHECK_MPI(MPI_Put(v, 0, MPI_LONG, right, a - L, 0, MPI_LONG, win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < 16; ++i) CHECK(buf[i] == ((i >= 4 && i < 8) ? left + i - 4 : -1));

  /* A second piece elsewhere; the first detached: after a barrier every
   * origin sees both changes. */
  long* more = malloc(4 * sizeof(long));
  more[0] = -1;
  CHECK_MPI(MPI_Win_attach(win, more, 4 * sizeof(long)));
  CHECK_MPI(MPI_Win_detach(win, buf + 4));
  MPI_Aint m;
  CHECK_MPI(MPI_Get_address(more, &m));
  CHECK_MPI(MPI_Allgather(&m, 1, MPI_AINT, at, 1, MPI_AINT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  CHECK_MPI(MPI_Put(&v[0], 1, MPI_LONG, right, at[right], 1, MPI_LONG, win));
  expect(MPI_Put(&v[0], 1, MPI_LONG, right, a, 1, MPI_LONG, win), MPI_ERR_RMA_RANGE);
  CHECK_MPI(MPI_Win_unlock(right, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(more[0] == left && buf[4] == left);

  /* Attach's own errors. */
  expect(MPI_Win_attach(win, more + 2, sizeof(long)), MPI_ERR_RMA_ATTACH); /* overlaps */
  expect(MPI_Win_detach(win, more + 1), MPI_ERR_RMA_ATTACH);               /* starts nothing */
  char* bytes = malloc(100000);
  int n = 0, rc = MPI_SUCCESS;
  while (n < 100000 && (rc = MPI_Win_attach(win, bytes + n, 1)) == MPI_SUCCESS) ++n;
  expect(rc, MPI_ERR_RMA_ATTACH); /* the list is full long before 100000 */
  CHECK(n >= 1);
  for (int i = 0; i < n; ++i) CHECK_MPI(MPI_Win_detach(win, bytes + i));
  CHECK_MPI(MPI_Win_attach(win, bytes, 100000)); /* room again */
  CHECK_MPI(MPI_Win_detach(win, bytes));

  CHECK_MPI(MPI_Win_detach(win, more));
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Win_free(&win));
  free(bytes);
  free(more);
  free(buf);
  free(at);
  MPI_Finalize();
  return 0;
}
