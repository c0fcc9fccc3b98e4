/* Large contiguous accumulates (1 MiB of doubles and of ints) from every
 * rank at once into rank 0's window: MPI_Accumulate with MPI_SUM and
 * MPI_MAX, MPI_Get_accumulate with MPI_SUM (the fetched values prove each
 * element's update atomic: per element they are init + 0, 1, ..., np-1 in
 * some order, so they sum to np x init + np(np-1)/2), MPI_Raccumulate with
 * MPI_REPLACE (every element one origin's value) and MPI_Get_accumulate
 * with MPI_NO_OP (a fetch of the whole range). Exact results every time, on
 * an MPI_Win_allocate window (the one-pass path, counted by acc_direct) and
 * an MPI_Win_create window (remote memory: the general path), at a
 * misaligned displacement (folds take the general path, copies need no
 * alignment) and with a contiguous derived type. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "../counter.h"

enum { ND = 131072, NI = 262144 }; /* 1 MiB each */

static int rank, size;

static void fence(MPI_Win w) { CHECK_MPI(MPI_Win_fence(0, w)); }

/* One round of every operation on doubles at byte offset `off` of window w
 * (disp_unit 1), whose memory here is `mem`. */
static void doubles(MPI_Win w, char* mem, int off) {
  double* src = malloc(ND * sizeof(double));
  double* got = malloc(ND * sizeof(double));
  CHECK(src && got);
  /* SUM: init i/2, each rank r adds (r+1)(i%7). Small integers and halves: exact in any order. */
  if (rank == 0)
    for (int i = 0; i < ND; ++i) {
      double v = i * 0.5;
      memcpy(mem + off + i * sizeof(double), &v, sizeof v);
    }
  fence(w);
  for (int i = 0; i < ND; ++i) src[i] = (rank + 1) * (i % 7);
  CHECK_MPI(MPI_Accumulate(src, ND, MPI_DOUBLE, 0, off, ND, MPI_DOUBLE, MPI_SUM, w));
  fence(w);
  if (rank == 0) {
    const double s = size * (size + 1) / 2.0;
    for (int i = 0; i < ND; ++i) {
      double v;
      memcpy(&v, mem + off + i * sizeof(double), sizeof v);
      CHECK(v == i * 0.5 + s * (i % 7));
    }
  }
  /* MAX: each rank offers ((i * (r+3)) % 1001) - 500; the target keeps the largest with its own value. */
  fence(w);
  for (int i = 0; i < ND; ++i) src[i] = (double)((i * (rank + 3)) % 1001) - 500;
  CHECK_MPI(MPI_Accumulate(src, ND, MPI_DOUBLE, 0, off, ND, MPI_DOUBLE, MPI_MAX, w));
  fence(w);
  if (rank == 0)
    for (int i = 0; i < ND; ++i) {
      double v, want = i * 0.5 + size * (size + 1) / 2.0 * (i % 7);
      for (int r = 0; r < size; ++r) {
        const double o = (double)((i * (r + 3)) % 1001) - 500;
        if (o > want) want = o;
      }
      memcpy(&v, mem + off + i * sizeof(double), sizeof v);
      CHECK(v == want);
    }
  /* NO_OP fetch of the whole range equals what rank 0 holds. */
  fence(w);
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DOUBLE, got, ND, MPI_DOUBLE, 0, off, ND, MPI_DOUBLE, MPI_NO_OP, w));
  fence(w);
  if (rank == 0) CHECK(memcmp(got, mem + off, ND * sizeof(double)) == 0);
  free(src);
  free(got);
}

/* The same for ints: Get_accumulate SUM, Raccumulate REPLACE, NO_OP. */
static void ints(MPI_Win w, char* mem, int off) {
  int* src = malloc(NI * sizeof(int));
  int* got = malloc(NI * sizeof(int));
  long long* sum = malloc(NI * sizeof(long long));
  long long* mine = malloc(NI * sizeof(long long));
  CHECK(src && got && sum && mine);
  if (rank == 0)
    for (int i = 0; i < NI; ++i) {
      int v = 3 * i;
      memcpy(mem + off + i * sizeof(int), &v, sizeof v);
    }
  fence(w);
  for (int i = 0; i < NI; ++i) src[i] = 1;
  CHECK_MPI(MPI_Get_accumulate(src, NI, MPI_INT, got, NI, MPI_INT, 0, off, NI, MPI_INT, MPI_SUM, w));
  fence(w);
  for (int i = 0; i < NI; ++i) {
    CHECK(got[i] >= 3 * i && got[i] < 3 * i + size);
    mine[i] = got[i];
  }
  CHECK_MPI(MPI_Reduce(mine, sum, NI, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0)
    for (int i = 0; i < NI; ++i) {
      int v;
      memcpy(&v, mem + off + i * sizeof(int), sizeof v);
      CHECK(v == 3 * i + size);
      CHECK(sum[i] == (long long)size * 3 * i + (long long)size * (size - 1) / 2);
    }
  /* REPLACE from everyone at once, in a passive-target epoch (where
   * MPI_Raccumulate belongs): each element is one origin's value. */
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, w));
  for (int i = 0; i < NI; ++i) src[i] = rank * 4096 + (i % 4096);
  MPI_Request req;
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
  CHECK_MPI(MPI_Raccumulate(src, NI, MPI_INT, 0, off, NI, MPI_INT, MPI_REPLACE, w, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_unlock(0, w));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, w));
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_INT, got, NI, MPI_INT, 0, off, NI, MPI_INT, MPI_NO_OP, w));
  fence(w);
  for (int i = 0; i < NI; ++i) CHECK(got[i] % 4096 == i % 4096 && got[i] / 4096 < size);
  if (rank == 0) CHECK(memcmp(got, mem + off, NI * sizeof(int)) == 0);
  free(src);
  free(got);
  free(sum);
  free(mine);
}

/* A contiguous type of a predefined one (4 doubles) on both sides: the
 * one-pass path too. Each rank adds r + 1 to every double. */
static void derived(MPI_Win w, char* mem) {
  MPI_Datatype four;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_DOUBLE, &four));
  CHECK_MPI(MPI_Type_commit(&four));
  double* src = malloc(ND * sizeof(double));
  CHECK(src != NULL);
  if (rank == 0) memset(mem, 0, ND * sizeof(double));
  fence(w);
  for (int i = 0; i < ND; ++i) src[i] = rank + 1;
  CHECK_MPI(MPI_Accumulate(src, ND / 4, four, 0, 0, ND / 4, four, MPI_SUM, w));
  fence(w);
  if (rank == 0)
    for (int i = 0; i < ND; ++i) {
      double v;
      memcpy(&v, mem + i * sizeof(double), sizeof v);
      CHECK(v == size * (size + 1) / 2.0);
    }
  fence(w);
  CHECK_MPI(MPI_Type_free(&four));
  free(src);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Aint bytes = (MPI_Aint)NI * sizeof(int) + 16;
  const long long direct0 = counter("acc_direct");

  char* mem;
  MPI_Win w;
  CHECK_MPI(MPI_Win_allocate(rank == 0 ? bytes : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
  doubles(w, mem, 0);
  ints(w, mem, 8);
  doubles(w, mem, 4); /* misaligned for doubles: the general path */
  ints(w, mem, 1);
  derived(w, mem);
  CHECK_MPI(MPI_Win_free(&w));
  /* The one-pass path on the allocated window: every call of doubles(w,
   * mem, 0) and ints(w, mem, 8) (3 each) and derived (1); at the misaligned
   * offsets only those that fold nothing (MPI_NO_OP in doubles, MPI_REPLACE
   * and MPI_NO_OP in ints: copies, any alignment will do), 3. */
  CHECK(counter("acc_direct") - direct0 == 10);

  char* user = malloc((size_t)bytes);
  CHECK(user != NULL);
  CHECK_MPI(MPI_Win_create(user, rank == 0 ? bytes : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  doubles(w, user, 0);
  ints(w, user, 4);
  CHECK_MPI(MPI_Win_free(&w));
  free(user);
  MPI_Finalize();
  return 0;
}
