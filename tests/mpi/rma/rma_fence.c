/* Active-target RMA with MPI_Win_fence on MPI_Win_allocate windows: put,
 * get, accumulate (every rank adds into every rank: exact sums), derived
 * datatypes on both sides, the request forms (refused under the fence, used
 * under a lock), the window attributes, and a 2-D
 * halo exchange with Put + fence checked against the same exchange done
 * with MPI_Sendrecv. */
#include <stdint.h>
#include <string.h>

#include "check.h"

#define N 16

static void attributes(MPI_Win win, void* base, MPI_Aint size, int disp_unit) {
  void* v;
  int flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
  CHECK(flag && v == base);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &v, &flag));
  CHECK(flag && *(MPI_Aint*)v == size);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &v, &flag));
  CHECK(flag && *(int*)v == disp_unit);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
  CHECK(flag && *(int*)v == MPI_WIN_FLAVOR_ALLOCATE);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &v, &flag));
  CHECK(flag && *(int*)v == MPI_WIN_UNIFIED);
}

static void put_get_accumulate(int rank, int size) {
  int* mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(4 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK(mem != NULL);
  attributes(win, mem, 4 * N * sizeof(int), sizeof(int));
  for (int i = 0; i < 4 * N; ++i) mem[i] = -1;
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
  /* Block 0 of the right neighbour gets my values; block 1 of every rank
   * gets the sum of all ranks' contributions. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[N], ones[N];
  for (int i = 0; i < N; ++i) {
    out[i] = rank * 1000 + i;
    ones[i] = rank + 1;
  }
  CHECK_MPI(MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < N; ++i) CHECK(mem[i] == left * 1000 + i);
  for (int i = N; i < 2 * N; ++i) mem[i] = 0;
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int t = 0; t < size; ++t) CHECK_MPI(MPI_Accumulate(ones, N, MPI_INT, t, N, N, MPI_INT, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = N; i < 2 * N; ++i) CHECK(mem[i] == size * (size + 1) / 2);

  /* Get the left neighbour's block 0 (which holds its left neighbour's
   * values) through a strided origin type: every other int. */
  int strided[2 * N];
  for (int i = 0; i < 2 * N; ++i) strided[i] = -7;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Get(strided, 1, every_other, left, 0, N, MPI_INT, win));
  /* A plain put into the first half of the right neighbour's block 2. */
  CHECK_MPI(MPI_Put(out, N / 2, MPI_INT, right, 2 * N, N / 2, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  const int ll = (left + size - 1) % size;
  for (int i = 0; i < N; ++i) {
    CHECK(strided[2 * i] == ll * 1000 + i);
    CHECK(strided[2 * i + 1] == -7);
  }
  for (int i = 0; i < N / 2; ++i) CHECK(mem[2 * N + i] == left * 1000 + i);

  /* Strided target: my values into every other int of block 3 of the right
   * neighbour, via Rput; Rget it back into a contiguous buffer. The request
   * forms are only valid in a passive-target epoch (MPI-3.1 §11.3.5): under
   * the fence they are MPI_ERR_RMA_SYNC, so the fences end here. */
  for (int i = 3 * N; i < 4 * N; ++i) mem[i] = -3;
  MPI_Datatype half_vec;
  CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, MPI_INT, &half_vec));
  CHECK_MPI(MPI_Type_commit(&half_vec));
  CHECK_MPI(MPI_Win_fence(0, win));
  MPI_Request req = MPI_REQUEST_NULL;
  int cls;
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Error_class(MPI_Rput(out, N / 2, MPI_INT, right, 3 * N, 1, half_vec, win, &req), &cls));
  CHECK(cls == MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL));
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  CHECK_MPI(MPI_Rput(out, N / 2, MPI_INT, right, 3 * N, 1, half_vec, win, &req));
  CHECK(req != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(req == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < N / 2; ++i) {
    CHECK(mem[3 * N + 2 * i] == left * 1000 + i);
    CHECK(mem[3 * N + 2 * i + 1] == -3);
  }
  int back[N / 2];
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
  CHECK_MPI(MPI_Rget(back, N / 2, MPI_INT, right, 3 * N, 1, half_vec, win, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Win_unlock(right, win));
  for (int i = 0; i < N / 2; ++i) CHECK(back[i] == rank * 1000 + i);
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&half_vec));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
}

/* Get_accumulate, Fetch_and_op, Compare_and_swap under fence: everyone
 * works on rank 0's counters. */
static void fetching(int rank, int size) {
  long long* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(rank == 0 ? 4 * sizeof(long long) : 0, sizeof(long long), MPI_INFO_NULL,
                             MPI_COMM_WORLD, &mem, &win));
  if (rank == 0) memset(mem, 0, 4 * sizeof(long long));
  CHECK_MPI(MPI_Win_fence(0, win));
  long long one = 1, got = -1, mine = rank + 1;
  CHECK_MPI(MPI_Fetch_and_op(&one, &got, MPI_LONG_LONG, 0, 0, MPI_SUM, win));
  CHECK(got >= 0 && got < size);
  long long before[2];
  long long two[2] = {mine, mine};
  CHECK_MPI(MPI_Get_accumulate(two, 2, MPI_LONG_LONG, before, 2, MPI_LONG_LONG, 0, 1, 2, MPI_LONG_LONG, MPI_MAX, win));
  CHECK(before[0] >= 0 && before[0] <= size);
  long long cmp = 0, res = -1;
  CHECK_MPI(MPI_Compare_and_swap(&mine, &cmp, &res, MPI_LONG_LONG, 0, 3, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) {
    CHECK(mem[0] == size);
    CHECK(mem[1] == size && mem[2] == size);
    CHECK(mem[3] >= 1 && mem[3] <= size); /* exactly one swap happened */
  }
  /* The winner of the swap is the one that saw 0. */
  long long winner = res == 0 ? mine : 0, sum = 0;
  CHECK_MPI(MPI_Allreduce(&winner, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD));
  long long now = -1, ignored = 0;
  CHECK_MPI(MPI_Fetch_and_op(&ignored, &now, MPI_LONG_LONG, 0, 3, MPI_NO_OP, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK(now == sum);
  CHECK_MPI(MPI_Win_free(&win));
}

/* 2-D halo exchange on a periodic px x py grid of ranks, each holding a
 * (B+2)x(B+2) block with a one-cell halo. */
#define B 6
#define W (B + 2)
static void halo(int rank, int size) {
  int dims[2] = {0, 0};
  CHECK_MPI(MPI_Dims_create(size, 2, dims));
  const int px = dims[0], py = dims[1];
  const int x = rank / py, y = rank % py;
  const int north = ((x + px - 1) % px) * py + y, south = ((x + 1) % px) * py + y;
  const int west = x * py + (y + py - 1) % py, east = x * py + (y + 1) % py;
  double ref[W * W], *grid;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(W * W * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &grid, &win));
  for (int i = 0; i < W; ++i)
    for (int j = 0; j < W; ++j) grid[i * W + j] = ref[i * W + j] = (i >= 1 && i <= B && j >= 1 && j <= B) ? rank * 100.0 + i * W + j : -1.0;
  MPI_Datatype column;
  CHECK_MPI(MPI_Type_vector(B, 1, W, MPI_DOUBLE, &column));
  CHECK_MPI(MPI_Type_commit(&column));
  /* Reference: Sendrecv. */
  CHECK_MPI(MPI_Sendrecv(&ref[1 * W + 1], B, MPI_DOUBLE, north, 1, &ref[(B + 1) * W + 1], B, MPI_DOUBLE, south, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(&ref[B * W + 1], B, MPI_DOUBLE, south, 2, &ref[0 * W + 1], B, MPI_DOUBLE, north, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(&ref[1 * W + 1], 1, column, west, 3, &ref[1 * W + B + 1], 1, column, east, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(&ref[1 * W + B], 1, column, east, 4, &ref[1 * W + 0], 1, column, west, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  /* RMA: put my edges into the neighbours' halos. */
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(&grid[1 * W + 1], B, MPI_DOUBLE, north, (B + 1) * W + 1, B, MPI_DOUBLE, win));
  CHECK_MPI(MPI_Put(&grid[B * W + 1], B, MPI_DOUBLE, south, 0 * W + 1, B, MPI_DOUBLE, win));
  CHECK_MPI(MPI_Put(&grid[1 * W + 1], 1, column, west, 1 * W + B + 1, 1, column, win));
  CHECK_MPI(MPI_Put(&grid[1 * W + B], 1, column, east, 1 * W + 0, 1, column, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < W * W; ++i) CHECK(grid[i] == ref[i]);
  CHECK_MPI(MPI_Type_free(&column));
  CHECK_MPI(MPI_Win_free(&win));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  put_get_accumulate(rank, size);
  fetching(rank, size);
  halo(rank, size);
  CHECK_MPI(MPI_Pcontrol(1));
  MPI_Finalize();
  return 0;
}
