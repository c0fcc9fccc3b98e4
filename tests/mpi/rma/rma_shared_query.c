/* MPI_Win_shared_query (MPI-4.1 §12.2.3) on every window flavor:
 * - MPI_Win_allocate_shared and MPI_Win_allocate: every member's memory is
 *   reachable by load/store (here both keep it in one segment mapped by all);
 *   what a member stored through its own base is read through the pointer
 *   the query gives, with size and disp_unit as that member passed them;
 * - a member that passed size 0: size 0 and a NULL base (MPICH's answer,
 *   which its suite's win_shared_noncontig_put relies on; issue 35);
 * - rank MPI_PROC_NULL: the lowest rank with size > 0, or size 0 and NULL
 *   when every member passed 0;
 * - MPI_Win_create: only the caller's own memory is reachable (the others'
 *   is private to their processes): own base, size, disp_unit; others size
 *   0, NULL base;
 * - MPI_Win_create_dynamic: MPI_ERR_RMA_FLAVOR (the standard excludes it). */
#include <stdlib.h>

#include "check.h"

static void query(MPI_Win win, int r, MPI_Aint* size, int* unit, int** base) {
  *size = -1;
  *unit = -1;
  *base = (int*)base; /* anything but NULL */
  CHECK_MPI(MPI_Win_shared_query(win, r, size, unit, base));
}

/* Rank r passes (r % 2 == odd_has ? r + 1 : 0) ints with disp_unit 4 + r,
 * stores 1000 * r + i into them; every rank reads every member back. */
static void check_segment_flavor(int rank, int size, int allocate, int noncontig, int odd_has) {
  const int n = rank % 2 == odd_has ? rank + 1 : 0;
  MPI_Info info = MPI_INFO_NULL;
  if (noncontig) {
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
  }
  int* mine = NULL;
  MPI_Win win;
  if (allocate)
    CHECK_MPI(MPI_Win_allocate(n * (MPI_Aint)sizeof(int), 4 + rank, info, MPI_COMM_WORLD, &mine, &win));
  else
    CHECK_MPI(MPI_Win_allocate_shared(n * (MPI_Aint)sizeof(int), 4 + rank, info, MPI_COMM_WORLD, &mine, &win));
  if (info != MPI_INFO_NULL) CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
  for (int i = 0; i < n; ++i) mine[i] = 1000 * rank + i;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  int lowest = -1;
  for (int r = 0; r < size; ++r) {
    const int rn = r % 2 == odd_has ? r + 1 : 0;
    if (rn > 0 && lowest < 0) lowest = r;
    MPI_Aint sz;
    int unit;
    int* p;
    query(win, r, &sz, &unit, &p);
    CHECK(sz == rn * (MPI_Aint)sizeof(int));
    CHECK(unit == 4 + r);
    if (rn == 0) {
      CHECK(p == NULL);
      continue;
    }
    CHECK(p != NULL);
    if (r == rank) CHECK(p == mine);
    for (int i = 0; i < rn; ++i) CHECK(p[i] == 1000 * r + i);
  }
  MPI_Aint sz;
  int unit;
  int* p;
  query(win, MPI_PROC_NULL, &sz, &unit, &p);
  if (lowest < 0) {
    CHECK(sz == 0 && p == NULL);
  } else {
    CHECK(sz == (lowest + 1) * (MPI_Aint)sizeof(int) && unit == 4 + lowest);
    CHECK(p != NULL && p[0] == 1000 * lowest);
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Shared windows, contiguous and not; rank 0 with memory and without. */
  for (int odd_has = 0; odd_has < 2; ++odd_has) {
    check_segment_flavor(rank, size, 0, 0, odd_has);
    check_segment_flavor(rank, size, 0, 1, odd_has);
    check_segment_flavor(rank, size, 1, 0, odd_has); /* MPI_Win_allocate (MPI-4.0) */
  }

  /* Every member passed size 0. */
  {
    int* mine = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win));
    MPI_Aint sz;
    int unit;
    int* p;
    query(win, MPI_PROC_NULL, &sz, &unit, &p);
    CHECK(sz == 0 && p == NULL);
    query(win, size - 1, &sz, &unit, &p);
    CHECK(sz == 0 && p == NULL && unit == 1);
    CHECK_MPI(MPI_Win_free(&win));
  }

  /* MPI_Win_create: the caller's own memory only. */
  {
    int buf[4] = {7, 8, 9, 10};
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(buf, sizeof buf, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    for (int r = 0; r < size; ++r) {
      MPI_Aint sz;
      int unit;
      int* p;
      query(win, r, &sz, &unit, &p);
      if (r == rank) {
        CHECK(sz == (MPI_Aint)sizeof buf && unit == 2 && p == buf);
      } else {
        CHECK(sz == 0 && p == NULL);
      }
    }
    MPI_Aint sz;
    int unit;
    int* p;
    query(win, MPI_PROC_NULL, &sz, &unit, &p);
    if (size == 1)
      CHECK(sz == (MPI_Aint)sizeof buf && p == buf);
    else
      CHECK(sz == 0 && p == NULL);
    CHECK_MPI(MPI_Win_free(&win));
  }

  /* MPI_Win_create_dynamic: not a flavor the query takes. */
  {
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Aint sz;
    int unit, cls;
    void* p;
    const int rc = MPI_Win_shared_query(win, 0, &sz, &unit, &p);
    CHECK(rc != MPI_SUCCESS);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_RMA_FLAVOR);
    CHECK_MPI(MPI_Win_free(&win));
  }
  MPI_Finalize();
  return 0;
}
