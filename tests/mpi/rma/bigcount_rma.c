/* The large-count (_c) one-sided calls of MPI-4.1 with counts that fit an
 * int: windows made by MPI_Win_create_c / allocate_c / allocate_shared_c,
 * MPI_Win_shared_query_c, and put, get, accumulate, get_accumulate and their
 * request forms, each leaving what the int form leaves. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { N = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int src[N], got[N];
  for (int i = 0; i < N; ++i) src[i] = rank * 1000 + i;

  /* MPI_Win_allocate_c: put_c then get_c back, fenced. */
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_c((MPI_Aint)(2 * N * sizeof(int)), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &base, &win));
  int du = 0, flag = 0;
  MPI_Aint* du_attr = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du_attr, &flag));
  CHECK(flag && *(int*)du_attr == (int)sizeof(int));
  (void)du;
  memset(base, 0, 2 * N * sizeof(int));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put_c(src, N, MPI_INT, right, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(base[i] == left * 1000 + i);
  CHECK_MPI(MPI_Get_c(got, N, MPI_INT, right, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(got[i] == rank * 1000 + i);
  /* Accumulate_c: every rank adds its src into rank 0's second half. */
  CHECK_MPI(MPI_Accumulate_c(src, N, MPI_INT, 0, N, N, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0)
    for (int i = 0; i < N; ++i) CHECK(base[N + i] == 1000 * size * (size - 1) / 2 + size * i);
  /* Get_accumulate_c with MPI_NO_OP (origin ignored) and with MPI_REPLACE. */
  memset(got, 0, sizeof got);
  CHECK_MPI(MPI_Get_accumulate_c(NULL, 0, MPI_DATATYPE_NULL, got, N, MPI_INT, right, 0, N, MPI_INT, MPI_NO_OP, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(got[i] == rank * 1000 + i);
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Get_accumulate_c(src, 1, MPI_INT, got, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_REPLACE, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK(got[0] == rank * 1000 && base[0] == left * 1000);
  /* The request forms, in a passive-target epoch. */
  CHECK_MPI(MPI_Win_lock_all(0, win));
  MPI_Request r[4];
  int acc[N];
  for (int i = 0; i < N; ++i) acc[i] = 1;
  CHECK_MPI(MPI_Rput_c(src, N, MPI_INT, right, 0, N, MPI_INT, win, &r[0]));
  CHECK_MPI(MPI_Waitall(1, r, MPI_STATUSES_IGNORE));
  CHECK_MPI(MPI_Win_flush_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rget_c(got, N, MPI_INT, right, 0, N, MPI_INT, win, &r[0]));
  CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(got[i] == rank * 1000 + i);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Raccumulate_c(acc, N, MPI_INT, right, 0, N, MPI_INT, MPI_SUM, win, &r[0]));
  CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_flush_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rget_accumulate_c(acc, N, MPI_INT, got, N, MPI_INT, right, 0, N, MPI_INT, MPI_SUM, win, &r[0]));
  CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
  for (int i = 0; i < N; ++i) CHECK(got[i] == rank * 1000 + i + 1);
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < N; ++i) CHECK(base[i] == left * 1000 + i + 2);
  CHECK_MPI(MPI_Win_free(&win));

  /* MPI_Win_create_c over our own memory. */
  int* mem = calloc(N, sizeof(int));
  CHECK_MPI(MPI_Win_create_c(mem, (MPI_Aint)(N * sizeof(int)), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put_c(src, 4, MPI_INT, right, 8, 4, MPI_INT, win));  /* disp_unit 1: byte 8 */
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 4; ++i) CHECK(mem[2 + i] == left * 1000 + i);
  CHECK_MPI(MPI_Win_free(&win));
  free(mem);

  /* MPI_Win_allocate_shared_c and MPI_Win_shared_query_c against the int form. */
  int* shared = NULL;
  CHECK_MPI(MPI_Win_allocate_shared_c((MPI_Aint)((rank + 1) * sizeof(int)), (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                                      MPI_COMM_WORLD, &shared, &win));
  for (int q = 0; q < size; ++q) {
    MPI_Aint sz = 0, szi = 0, unit = 0;
    int uniti = 0;
    int *p = NULL, *pi = NULL;
    CHECK_MPI(MPI_Win_shared_query_c(win, q, &sz, &unit, &p));
    CHECK_MPI(MPI_Win_shared_query(win, q, &szi, &uniti, &pi));
    CHECK(sz == szi && sz == (MPI_Aint)((q + 1) * sizeof(int)));
    CHECK(unit == uniti && unit == (MPI_Aint)sizeof(int));
    CHECK(p == pi);
  }
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
