/* MPI_Reduce_scatter and MPI_Reduce_scatter_block at two ranks by messages
 * (coll/reduction.cpp reduce_scatter_pair: each rank sends the other its
 * block and folds the one it receives, x0 op x1): uneven and empty blocks,
 * blocks past the 256-byte inline scratch, blocks past the 4 KiB eager-safe
 * limit (the reduce-and-scatter fallback), plain and MPI_IN_PLACE, an integer
 * sum and a non-commutative user op (a - 2b, folded in rank order). At np 1
 * and 3 the same calls check the other paths against the same expectation
 * (the user op only up to two ranks: it is not associative, so MPI promises
 * no particular fold for more). Run with RINGMPI_COLL_REDUCE_SCATTER=messages,
 * with =segment_address (at two ranks, not in place, coll/seg_reduction.cpp
 * pair_reduce_scatter: each rank reads the other's block of x by single
 * copy, at every size) and without (the same beyond a slot region). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void minus_twice(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i) b[i] = a[i] - 2 * b[i];
}

static int me, n;

static int x(int q, int i, int call) { return q * 7 + i % 11 + call; }

/* counts[0..n-1] (the same on every rank): one call of each form, checked. */
static void run(const int* counts, int call, MPI_Op op, int in_place, int block_form) {
  int total = 0, off = 0;
  for (int q = 0; q < n; ++q) {
    if (q < me) off += counts[q];
    total += counts[q];
  }
  int* send = malloc(sizeof(int) * (size_t)(total + 1));
  int* recv = malloc(sizeof(int) * (size_t)(total + 1));
  for (int i = 0; i < total; ++i) send[i] = x(me, i, call), recv[i] = -1;
  if (in_place) memcpy(recv, send, sizeof(int) * (size_t)total);
  const void* sb = in_place ? MPI_IN_PLACE : send;
  if (block_form)
    CHECK_MPI(MPI_Reduce_scatter_block(sb, recv, counts[0], MPI_INT, op, MPI_COMM_WORLD));
  else
    CHECK_MPI(MPI_Reduce_scatter(sb, recv, counts, MPI_INT, op, MPI_COMM_WORLD));
  for (int k = 0; k < counts[me]; ++k) {
    const int i = off + k;
    int want = x(0, i, call);
    for (int q = 1; q < n; ++q) want = op == MPI_SUM ? want + x(q, i, call) : want - 2 * x(q, i, call);
    CHECK(recv[k] == want);
  }
  free(send);
  free(recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Op minus;
  CHECK_MPI(MPI_Op_create(minus_twice, 0, &minus));
  /* Per-rank counts for the two ranks (rank q >= 2 gets the first again). */
  static const int pairs[][2] = {{1, 1}, {0, 3}, {3, 0}, {1, 2}, {64, 65}, {1000, 1000}, {1024, 1}, {1100, 2}, {0, 0},
                                  {40000, 30001}}; /* 280 KB: beyond a slot region (pair_reduce_scatter by address) */
  int call = 0;
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
    int counts[64];
    for (int q = 0; q < n && q < 64; ++q) counts[q] = pairs[p][q % 2 == 0 ? 0 : 1];
    const int uniform = pairs[p][0] == pairs[p][1];
    for (int in_place = 0; in_place < 2; ++in_place) {
      run(counts, ++call, MPI_SUM, in_place, 0);
      if (n <= 2) run(counts, ++call, minus, in_place, 0);
      if (uniform) {
        run(counts, ++call, MPI_SUM, in_place, 1);
        if (n <= 2) run(counts, ++call, minus, in_place, 1);
      }
    }
  }
  CHECK_MPI(MPI_Op_free(&minus));
  MPI_Finalize();
  return 0;
}
