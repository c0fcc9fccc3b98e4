/* MPI_Win_allocate_shared: each rank writes its part of a shared table
 * through its own pointer; after MPI_Win_sync + MPI_Barrier every rank reads
 * every other rank's part through the pointer MPI_Win_shared_query gives,
 * with plain loads. The default layout is contiguous. */
#include <sched.h>
#include <stdint.h>

#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Uneven sizes: rank r holds r+1 ints; rank 1 (if any) holds none. */
  const int mine = rank == 1 ? 0 : rank + 1;
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(mine * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
  int flag;
  void* v;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
  CHECK(flag && *(int*)v == MPI_WIN_FLAVOR_SHARED);
  CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
  for (int i = 0; i < mine; ++i) base[i] = rank * 100 + i;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  char* expect_next = NULL;
  for (int r = 0; r < size; ++r) {
    MPI_Aint sz;
    int du;
    int* p;
    CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &p));
    const int n = r == 1 ? 0 : r + 1;
    CHECK(sz == (MPI_Aint)(n * sizeof(int)));
    CHECK(du == (int)sizeof(int));
    if (r == rank) CHECK(p == base || mine == 0);
    if (sz == 0) CHECK(p == NULL); /* MPICH's answer for a member without memory */
    if (expect_next && sz > 0) CHECK((char*)p == expect_next); /* contiguous */
    if (sz > 0) expect_next = (char*)p + sz;
    for (int i = 0; i < n; ++i) CHECK(p[i] == r * 100 + i);
  }
  /* MPI_PROC_NULL: the lowest rank with memory (rank 0). */
  MPI_Aint sz;
  int du;
  int* p0;
  CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p0));
  CHECK(sz == sizeof(int) && p0[0] == 0);
  /* Ping through loads and stores: rank 0 and the last rank take turns on
   * a word of rank 0's part with atomics, 100 rounds. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (size > 1 && (rank == 0 || rank == size - 1)) {
    int* word = p0;
    const int me = rank == 0 ? 0 : 1;
    for (int round = 0; round < 100; ++round) {
      const int want = 2 * round + me;
      while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != want) sched_yield();
      __atomic_store_n(word, want + 1, __ATOMIC_RELEASE);
    }
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  if (size > 1) CHECK(p0[0] == 200);
  CHECK_MPI(MPI_Win_unlock_all(win));
  MPI_Info used;
  char value[MPI_MAX_INFO_VAL + 1];
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_get(used, "alloc_shared_noncontig", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "false") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Win_free(&win));

  /* alloc_shared_noncontig = true (asked by rank 0 only: one rank's hint
   * decides for all): every rank's memory starts on its own page, and the
   * memory of each rank is still reached through MPI_Win_shared_query. */
  MPI_Info hint;
  CHECK_MPI(MPI_Info_create(&hint));
  if (rank == 0) CHECK_MPI(MPI_Info_set(hint, "alloc_shared_noncontig", "true"));
  int *mem = NULL;
  CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), hint, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Info_free(&hint));
  const long page = sysconf(_SC_PAGESIZE);
  CHECK(((unsigned long)mem % (unsigned long)page) == 0);
  CHECK_MPI(MPI_Win_lock_all(0, win));
  *mem = 1000 + rank;
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_sync(win));
  for (int r = 0; r < size; ++r) {
    MPI_Aint rsize;
    int unit;
    int *rbase;
    CHECK_MPI(MPI_Win_shared_query(win, r, &rsize, &unit, &rbase));
    CHECK(rsize == (MPI_Aint)sizeof(int) && unit == (int)sizeof(int));
    CHECK(((unsigned long)rbase % (unsigned long)page) == 0);
    CHECK(*rbase == 1000 + r);
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_get(used, "alloc_shared_noncontig", MPI_MAX_INFO_VAL, value, &flag));
  CHECK(flag && strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
