/* Passive-target RMA: an atomic counter incremented by every rank under
 * MPI_Win_lock_all (exact total), read-modify-write under exclusive locks,
 * shared locks with flush, accumulates at unaligned byte offsets, and the
 * same on windows over user memory (MPI_Win_create: the single-copy path)
 * and dynamic windows. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define ROUNDS 50

static void counter(MPI_Win win, int rank, int size, long long* mem) {
  /* Rank 0's word 0 counts; everybody adds 1, ROUNDS times. */
  if (rank == 0) mem[0] = 0;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  long long one = 1, prev, last = -1;
  for (int i = 0; i < ROUNDS; ++i) {
    CHECK_MPI(MPI_Fetch_and_op(&one, &prev, MPI_LONG_LONG, 0, 0, MPI_SUM, win));
    CHECK(prev > last); /* my increments are ordered */
    last = prev;
    CHECK_MPI(MPI_Win_flush(0, win));
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  long long total = -1;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  CHECK_MPI(MPI_Get(&total, 1, MPI_LONG_LONG, 0, 0, 1, MPI_LONG_LONG, win));
  CHECK_MPI(MPI_Win_flush_local(0, win));
  CHECK_MPI(MPI_Win_unlock(0, win));
  CHECK(total == (long long)ROUNDS * size);
}

static void exclusive(MPI_Win win, int rank, int size, long long* mem) {
  /* Get + Put of word 1 of the last rank under an exclusive lock: without
   * mutual exclusion increments would be lost. */
  const int t = size - 1;
  if (rank == t) mem[1] = 0;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < ROUNDS; ++i) {
    long long v;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
    CHECK_MPI(MPI_Get(&v, 1, MPI_LONG_LONG, t, 1, 1, MPI_LONG_LONG, win));
    CHECK_MPI(MPI_Win_flush(t, win));
    v += 1;
    CHECK_MPI(MPI_Put(&v, 1, MPI_LONG_LONG, t, 1, 1, MPI_LONG_LONG, win));
    CHECK_MPI(MPI_Win_unlock(t, win));
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == t) {
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    CHECK(mem[1] == (long long)ROUNDS * size);
    CHECK_MPI(MPI_Win_unlock(t, win));
  }
  /* Accumulate with MPI_REPLACE and a CAS under shared locks. */
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
  long long r = rank, cmp = -5, res;
  CHECK_MPI(MPI_Compare_and_swap(&r, &cmp, &res, MPI_LONG_LONG, 0, 0, win)); /* never equal: no swap */
  CHECK(res == (long long)ROUNDS * size);
  CHECK_MPI(MPI_Win_unlock(0, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* Accumulates at byte offsets that are not aligned for their type (a window
 * with disp_unit 1): every rank adds into rank 0's counters; the totals are
 * exact and the bytes around them untouched. */
static void unaligned(int rank, int size) {
  char* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  if (rank == 0) memset(mem, 0, 64);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  long long one = 1, prev, two[2] = {1, 2}, before[2];
  double d = rank, dmax[2];
  for (int i = 0; i < ROUNDS; ++i) {
    CHECK_MPI(MPI_Fetch_and_op(&one, &prev, MPI_LONG_LONG, 0, 3, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(two, 2, MPI_LONG_LONG, 0, 13, 2, MPI_LONG_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(&d, 1, MPI_DOUBLE, dmax, 1, MPI_DOUBLE, 0, 37, 1, MPI_DOUBLE, MPI_MAX, win));
  }
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, before, 2, MPI_LONG_LONG, 0, 13, 2, MPI_LONG_LONG,
                               MPI_NO_OP, win));
  CHECK(before[0] >= ROUNDS && before[1] >= 2 * ROUNDS);
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    long long c, v[2];
    double m;
    memcpy(&c, mem + 3, sizeof c);
    memcpy(v, mem + 13, sizeof v);
    memcpy(&m, mem + 37, sizeof m);
    CHECK(c == (long long)ROUNDS * size);
    CHECK(v[0] == (long long)ROUNDS * size && v[1] == 2LL * ROUNDS * size);
    CHECK(m == size - 1);
    CHECK(mem[0] == 0 && mem[2] == 0 && mem[11] == 0 && mem[12] == 0 && mem[29] == 0 && mem[45] == 0);
  }
  CHECK_MPI(MPI_Win_free(&win));
}

static void on(MPI_Win win, int rank, int size, long long* mem) {
  counter(win, rank, size, mem);
  exclusive(win, rank, size, mem);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  long long* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  on(win, rank, size, mem);
  CHECK_MPI(MPI_Win_free(&win));
  unaligned(rank, size);

  /* User memory from MPI_Alloc_mem under MPI_Win_create. */
  long long* user;
  CHECK_MPI(MPI_Alloc_mem(4 * sizeof(long long), MPI_INFO_NULL, &user));
  CHECK_MPI(MPI_Win_create(user, 4 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  int flag;
  void* v;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
  CHECK(flag && *(int*)v == MPI_WIN_FLAVOR_CREATE);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
  CHECK(flag && v == user);
  on(win, rank, size, user);
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Free_mem(user));

  /* Dynamic window: each rank attaches a buffer and publishes its address. */
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  long long* dyn = malloc(8 * sizeof(long long));
  for (int i = 0; i < 8; ++i) dyn[i] = -1;
  CHECK_MPI(MPI_Win_attach(win, dyn, 8 * sizeof(long long)));
  MPI_Aint mine, *addrs = malloc(size * sizeof(MPI_Aint));
  CHECK_MPI(MPI_Get_address(dyn, &mine));
  CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  long long val[2] = {rank, rank * 10};
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
  CHECK_MPI(MPI_Put(val, 2, MPI_LONG_LONG, right, addrs[right] + 2 * (MPI_Aint)sizeof(long long), 2, MPI_LONG_LONG, win));
  CHECK_MPI(MPI_Win_unlock(right, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
  CHECK(dyn[2] == left && dyn[3] == left * 10 && dyn[1] == -1 && dyn[4] == -1);
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_detach(win, dyn));
  CHECK_MPI(MPI_Win_free(&win));
  free(dyn);
  free(addrs);
  MPI_Finalize();
  return 0;
}
