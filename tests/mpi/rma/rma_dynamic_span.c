/* Dynamic windows: an access whose bytes are all attached, but by two or
 * more regions attached back to back (contiguous addresses), is valid, as
 * MPICH and Open MPI accept it (issue 35). Put, Get, Accumulate,
 * Get_accumulate and a derived target type cross the boundary between two
 * attachments, and a chain of three; an access that also touches a gap
 * between attachments, or a region detached since, is still
 * MPI_ERR_RMA_RANGE and writes nothing. */
#include <stdlib.h>

#include "check.h"

enum { N = 24 };

static void expect_range(int rc) {
  int cls;
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_RANGE);
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

  /* Longs [0, 4), [4, 10), [10, 14) attached as three regions back to back
   * (attached out of address order); [14, 16) a gap; [16, 20) attached. */
  long* buf = malloc(N * sizeof(long));
  for (int i = 0; i < N; ++i) buf[i] = -1;
  CHECK_MPI(MPI_Win_attach(win, buf + 4, 6 * sizeof(long)));
  CHECK_MPI(MPI_Win_attach(win, buf, 4 * sizeof(long)));
  CHECK_MPI(MPI_Win_attach(win, buf + 10, 4 * sizeof(long)));
  CHECK_MPI(MPI_Win_attach(win, buf + 16, 4 * sizeof(long)));
  MPI_Aint mine, *at = malloc(size * sizeof(MPI_Aint));
  CHECK_MPI(MPI_Get_address(buf, &mine));
  CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT, MPI_COMM_WORLD));
  const MPI_Aint a = at[right], L = (MPI_Aint)sizeof(long);

  long v[12], got[12];
  for (int i = 0; i < 12; ++i) v[i] = 100 * rank + i;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  /* Longs 2..5 (first and second region), then 8..11 (second and third). */
  CHECK_MPI(MPI_Put(v, 4, MPI_LONG, right, a + 2 * L, 4, MPI_LONG, win));
  CHECK_MPI(MPI_Put(v + 4, 4, MPI_LONG, right, a + 8 * L, 4, MPI_LONG, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  /* All three regions at once: longs 0..13. */
  CHECK_MPI(MPI_Get(got, 12, MPI_LONG, right, a + 1 * L, 12, MPI_LONG, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  for (int i = 0; i < 12; ++i) {
    const int t = i + 1; /* target long */
    const long want = (t >= 2 && t < 6) ? 100 * rank + (t - 2) : (t >= 8 && t < 12) ? 100 * rank + 4 + (t - 8) : -1;
    CHECK(got[i] == want);
  }
  /* Accumulate across the first boundary: longs 3..4 += 1000. */
  const long k[2] = {1000, 1000};
  CHECK_MPI(MPI_Accumulate(k, 2, MPI_LONG, right, a + 3 * L, 2, MPI_LONG, MPI_SUM, win));
  /* Get_accumulate across the second boundary: longs 9..10 fetched, += 1. */
  const long ones[2] = {1, 1};
  long before[2] = {0, 0};
  CHECK_MPI(MPI_Get_accumulate(ones, 2, MPI_LONG, before, 2, MPI_LONG, right, a + 9 * L, 2, MPI_LONG, MPI_SUM,
                               win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK(before[0] == 100 * rank + 5 && before[1] == 100 * rank + 6);
  /* A derived target type whose blocks lie in different regions: longs 1, 5, 9, 13. */
  MPI_Datatype every_fourth;
  CHECK_MPI(MPI_Type_vector(4, 1, 4, MPI_LONG, &every_fourth));
  CHECK_MPI(MPI_Type_commit(&every_fourth));
  CHECK_MPI(MPI_Get(got, 4, MPI_LONG, right, a + 1 * L, 1, every_fourth, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK(got[0] == -1 && got[1] == 100 * rank + 3 && got[2] == 100 * rank + 5 + 1 && got[3] == -1);
  /* Touching the gap [14, 16) is still an error, whichever side it starts. */
  expect_range(MPI_Put(v, 3, MPI_LONG, right, a + 12 * L, 3, MPI_LONG, win));
  expect_range(MPI_Get(got, 4, MPI_LONG, right, a + 13 * L, 4, MPI_LONG, win));
  expect_range(MPI_Accumulate(v, 8, MPI_LONG, right, a + 10 * L, 8, MPI_LONG, MPI_SUM, win));
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* What the left neighbour wrote here. */
  for (int i = 0; i < N; ++i) {
    long want = -1;
    if (i >= 2 && i < 6) want = 100 * left + (i - 2);
    if (i >= 8 && i < 12) want = 100 * left + 4 + (i - 8);
    if (i == 3 || i == 4) want += 1000;
    if (i == 9 || i == 10) want += 1;
    CHECK(buf[i] == want);
  }

  /* With the middle region detached, a span across it is refused again. */
  CHECK_MPI(MPI_Win_detach(win, buf + 4));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  expect_range(MPI_Put(v, 4, MPI_LONG, right, a + 2 * L, 4, MPI_LONG, win));
  expect_range(MPI_Get(got, 12, MPI_LONG, right, a, 12, MPI_LONG, win));
  CHECK_MPI(MPI_Get(got, 4, MPI_LONG, right, a, 4, MPI_LONG, win)); /* the first region alone */
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK(got[0] == -1 && got[2] == 100 * rank);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  CHECK_MPI(MPI_Type_free(&every_fourth));
  CHECK_MPI(MPI_Win_detach(win, buf));
  CHECK_MPI(MPI_Win_detach(win, buf + 10));
  CHECK_MPI(MPI_Win_detach(win, buf + 16));
  CHECK_MPI(MPI_Win_free(&win));
  free(at);
  free(buf);
  MPI_Finalize();
  return 0;
}
