/* MPI-4.1 large counts: a displacement unit beyond an int, given to
 * MPI_Win_create_c, MPI_Win_allocate_c and MPI_Win_allocate_shared_c
 * (2^32 + 8 bytes; the windows themselves are 64 bytes, so nothing large is
 * allocated). Target displacement 0 works for put, get, accumulate,
 * get_accumulate, fetch_and_op and compare_and_swap, fenced and passive;
 * displacement 1 (byte 2^32 + 8) and 2^31 (a byte offset beyond 2^63) give
 * MPI_ERR_RMA_RANGE on a window with MPI_ERRORS_RETURN, and the window still
 * works afterwards. MPI_Win_shared_query_c gives the unit whole; the int
 * MPI_Win_shared_query and the MPI_WIN_DISP_UNIT attribute (an int) give
 * MPI_UNDEFINED for it (rma_win.cpp: the rule MPI-4.1 gives for int outputs
 * that cannot hold their value, and MPICH's answer for this query). The
 * shared window mixes units (odd ranks 8), so the int query still answers
 * the units that fit. A unit <= 0 is MPI_ERR_DISP in the _c forms as in the
 * int forms, however large its magnitude. */
#include <stdint.h>
#include <string.h>

#include "check.h"

enum { N = 8 };                                   /* longs per window: 64 bytes */
static const MPI_Aint kUnit = ((MPI_Aint)1 << 32) + 8; /* > INT_MAX */

static int error_class(int code) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(code, &cls);
  return cls;
}

static MPI_Aint unit_of(int flavor, int r) { return flavor == MPI_WIN_FLAVOR_SHARED && r % 2 ? 8 : kUnit; }

/* The three queries of rank q's unit: _c whole, int and attribute MPI_UNDEFINED when it does not fit. */
static void check_queries(MPI_Win win, int flavor, int rank, int size) {
  int flag = 0;
  int* attr = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag));
  const MPI_Aint mine = unit_of(flavor, rank);
  CHECK(flag && attr != NULL && *attr == (mine > 0x7fffffff ? MPI_UNDEFINED : (int)mine));
  MPI_Aint* wsize = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag));
  CHECK(flag && *wsize == (MPI_Aint)(N * sizeof(long)));

  /* A create window answers for the caller only; the others for every member. */
  for (int q = 0; q < size; ++q) {
    if (flavor == MPI_WIN_FLAVOR_CREATE && q != rank) continue;
    MPI_Aint sz = -1, unit_c = -1;
    void* p = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(win, q, &sz, &unit_c, &p));
    CHECK(sz == (MPI_Aint)(N * sizeof(long)) && unit_c == unit_of(flavor, q) && p != NULL);
    int unit = -1;
    void* p2 = NULL;
    sz = -1;
    CHECK_MPI(MPI_Win_shared_query(win, q, &sz, &unit, &p2));
    CHECK(sz == (MPI_Aint)(N * sizeof(long)) && p2 == p);
    CHECK(unit == (unit_of(flavor, q) > 0x7fffffff ? MPI_UNDEFINED : (int)unit_of(flavor, q)));
  }
}

/* Every RMA call at displacement 0 of `right`, fenced and passive, then the range errors. */
static void exercise(MPI_Win win, int flavor, long* base, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  long src[N], got[N];
  for (int i = 0; i < N; ++i) src[i] = rank * 100 + i;
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  check_queries(win, flavor, rank, size);

  memset(base, 0, N * sizeof(long));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(src, N, MPI_LONG, right, 0, N, MPI_LONG, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(base[i] == left * 100 + i);
  CHECK_MPI(MPI_Get_c(got, N, MPI_LONG, right, 0, N, MPI_LONG, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(got[i] == rank * 100 + i);

  /* Every rank adds into rank 0's memory: left*100+i + sum over ranks of r*100+i. */
  CHECK_MPI(MPI_Accumulate(src, N, MPI_LONG, 0, 0, N, MPI_LONG, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) {
    const int from = size - 1; /* rank 0's left */
    for (int i = 0; i < N; ++i) CHECK(base[i] == from * 100 + i + (long)size * (size - 1) / 2 * 100 + (long)size * i);
  }
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

  /* Passive target: the small-transfer paths (fetch_and_op, compare_and_swap, get_accumulate). */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  long one = 1, old = -1, cmp = -7, swap = 1000 + rank, res = -1;
  CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, right, 0, MPI_SUM, win));
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK_MPI(MPI_Compare_and_swap(&swap, &cmp, &res, MPI_LONG, right, 0, win)); /* no match: unchanged */
  CHECK_MPI(MPI_Win_flush(right, win));
  CHECK(res == old + 1);
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_LONG, got, N, MPI_LONG, right, 0, N, MPI_LONG, MPI_NO_OP, win));
  CHECK_MPI(MPI_Win_unlock(right, win));
  CHECK(got[0] == old + 1);

  /* Displacement 1 is byte 2^32 + 8 of a 64-byte window; 2^31 overflows the byte offset. */
  CHECK_MPI(MPI_Win_fence(0, win));
  const MPI_Aint bad[2] = {1, (MPI_Aint)1 << 31};
  for (int k = 0; k < 2; ++k) {
    /* The shared window's odd ranks have unit 8: displacement 1 is inside their memory. */
    if (unit_of(flavor, right) == 8 && k == 0) {
      CHECK_MPI(MPI_Put(src, 1, MPI_LONG, right, bad[k], 1, MPI_LONG, win));
      continue;
    }
    CHECK(error_class(MPI_Put(src, 1, MPI_LONG, right, bad[k], 1, MPI_LONG, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Get(got, 1, MPI_LONG, right, bad[k], 1, MPI_LONG, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Put_c(src, 1, MPI_LONG, right, bad[k], 1, MPI_LONG, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Accumulate(src, 1, MPI_LONG, right, bad[k], 1, MPI_LONG, MPI_SUM, win)) ==
          MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Fetch_and_op(&one, &old, MPI_LONG, right, bad[k], MPI_SUM, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Compare_and_swap(&swap, &cmp, &res, MPI_LONG, right, bad[k], win)) == MPI_ERR_RMA_RANGE);
  }
  /* The window still works after the refusals. */
  CHECK_MPI(MPI_Put(src, 1, MPI_LONG, right, 0, 1, MPI_LONG, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK(base[0] == left * 100);
  if (unit_of(flavor, rank) == 8) CHECK(base[1] == left * 100); /* the displacement-1 put above */
}

static void bad_units(void) {
  /* Creation errors go to the communicator's handler. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  const MPI_Aint units[3] = {0, -1, -((MPI_Aint)1 << 32)};
  long mem[N];
  for (int k = 0; k < 3; ++k) {
    void* p = NULL;
    MPI_Win win = MPI_WIN_NULL;
    CHECK(error_class(MPI_Win_allocate_c(64, units[k], MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win)) == MPI_ERR_DISP);
    CHECK(error_class(MPI_Win_allocate_shared_c(64, units[k], MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win)) ==
          MPI_ERR_DISP);
    CHECK(error_class(MPI_Win_create_c(mem, sizeof mem, units[k], MPI_INFO_NULL, MPI_COMM_WORLD, &win)) ==
          MPI_ERR_DISP);
    CHECK(win == MPI_WIN_NULL);
  }
  void* p = NULL;
  MPI_Win win = MPI_WIN_NULL;
  CHECK(error_class(MPI_Win_allocate(64, -1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win)) == MPI_ERR_DISP);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long mem[N];
  MPI_Win win;
  CHECK_MPI(MPI_Win_create_c(mem, sizeof mem, kUnit, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  exercise(win, MPI_WIN_FLAVOR_CREATE, mem, rank, size);
  CHECK_MPI(MPI_Win_free(&win));

  long* base = NULL;
  CHECK_MPI(MPI_Win_allocate_c(N * sizeof(long), kUnit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  exercise(win, MPI_WIN_FLAVOR_ALLOCATE, base, rank, size);
  CHECK_MPI(MPI_Win_free(&win));

  CHECK_MPI(MPI_Win_allocate_shared_c(N * sizeof(long), unit_of(MPI_WIN_FLAVOR_SHARED, rank), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &base, &win));
  exercise(win, MPI_WIN_FLAVOR_SHARED, base, rank, size);
  CHECK_MPI(MPI_Win_free(&win));

  bad_units();
  MPI_Finalize();
  return 0;
}
