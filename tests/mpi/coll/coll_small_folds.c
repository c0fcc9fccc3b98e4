/* Small reductions on the shared segment, back to back (issue 36): the paths
 * where a rank that reads nothing publishes and finishes with one wake-up
 * (MPI_Reduce's non-roots), where the last rank of a scan publishes nothing
 * (MPI_Scan, MPI_Exscan, in place or not), and where a reduce-scatter folds
 * straight into its result (MPI_Reduce_scatter(_block), in place or not).
 * Sizes from one element to 8 KiB, every result checked element by element,
 * each call with different data so a stale slot region shows. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static int x(int r, int call, int i) { return r * 1000 + i * 3 + call; }

static void scans(int call, int n, int in_place) {
  int* mine = malloc(n * sizeof(int));
  int* res = malloc(n * sizeof(int));
  /* inclusive */
  for (int i = 0; i < n; ++i) mine[i] = x(rank, call, i), res[i] = -1;
  if (in_place) {
    CHECK_MPI(MPI_Scan(MPI_IN_PLACE, mine, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    memcpy(res, mine, n * sizeof(int));
  } else {
    CHECK_MPI(MPI_Scan(mine, res, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  }
  for (int i = 0; i < n; ++i) {
    int e = 0;
    for (int q = 0; q <= rank; ++q) e += x(q, call, i);
    CHECK(res[i] == e);
  }
  /* exclusive: rank 0's result is undefined */
  for (int i = 0; i < n; ++i) mine[i] = x(rank, call + 1, i), res[i] = -1;
  if (in_place) {
    CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, mine, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    memcpy(res, mine, n * sizeof(int));
  } else {
    CHECK_MPI(MPI_Exscan(mine, res, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  }
  if (rank > 0)
    for (int i = 0; i < n; ++i) {
      int e = 0;
      for (int q = 0; q < rank; ++q) e += x(q, call + 1, i);
      CHECK(res[i] == e);
    }
  free(mine);
  free(res);
}

static void reduces(int call, int n, int in_place) {
  const int root = call % size;
  int* mine = malloc(n * sizeof(int));
  int* res = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) mine[i] = x(rank, call, i), res[i] = -1;
  if (in_place && rank == root) {
    CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, mine, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    memcpy(res, mine, n * sizeof(int));
  } else {
    CHECK_MPI(MPI_Reduce(mine, res, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
  }
  if (rank == root)
    for (int i = 0; i < n; ++i) {
      int e = 0;
      for (int q = 0; q < size; ++q) e += x(q, call, i);
      CHECK(res[i] == e);
    }
  free(mine);
  free(res);
}

/* n elements per rank (block form), or rank j getting n + j (v form) */
static void reduce_scatters(int call, int n, int in_place, int uneven) {
  int* counts = malloc(size * sizeof(int));
  int total = 0;
  for (int j = 0; j < size; ++j) counts[j] = uneven ? n + j : n, total += counts[j];
  int first = 0;
  for (int j = 0; j < rank; ++j) first += counts[j];
  int* mine = malloc(total * sizeof(int));
  int* res = malloc((counts[rank] + 1) * sizeof(int));
  for (int i = 0; i < total; ++i) mine[i] = x(rank, call, i);
  for (int i = 0; i <= counts[rank]; ++i) res[i] = -1;
  if (in_place) {
    if (uneven)
      CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, mine, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, mine, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    memcpy(res, mine, counts[rank] * sizeof(int));
  } else if (uneven) {
    CHECK_MPI(MPI_Reduce_scatter(mine, res, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Reduce_scatter_block(mine, res, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  }
  for (int i = 0; i < counts[rank]; ++i) {
    int e = 0;
    for (int q = 0; q < size; ++q) e += x(q, call, first + i);
    CHECK(res[i] == e);
  }
  if (!in_place) CHECK(res[counts[rank]] == -1);
  free(counts);
  free(mine);
  free(res);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static const int ns[] = {1, 3, 64, 300, 512, 2048};
  int call = 0;
  for (int round = 0; round < 20; ++round)
    for (int s = 0; s < 6; ++s)
      for (int in_place = 0; in_place < 2; ++in_place) {
        scans(call, ns[s], in_place);
        reduces(call, ns[s], in_place);
        reduce_scatters(call, ns[s] / size + 1, in_place, 0);
        reduce_scatters(call, ns[s] / size + 1, in_place, 1);
        call += 2;
      }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
