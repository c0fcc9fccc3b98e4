/* Reordering by cache on a machine of one NUMA node: the program describes
 * the machine to hwloc (HWLOC_SYNTHETIC "l3:2 core:1 pu:1": two L3 caches of
 * one PU each, nothing else to tell processes apart) and pins rank r to cpu
 * r % 2, so consecutive ranks sit under different L3s, as a round-robin
 * launcher places them. Before ringmpi looked at caches such a machine kept
 * the identity. Checked: Cart_create (a periodic ring, an open 2-D grid) and
 * Graph_create (a ring) with reorder = 1 give a permutation; Cart_map and
 * Graph_map name the same ranks (every rank computes the same placement);
 * a neighbourhood exchange on the reordered ring delivers from its Cartesian
 * neighbours; neighbour pairs under different L3s are never more than under
 * the identity, and fewer on the rings when the pinning took effect
 * (even np >= 4). */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "pin_pairs.h"

static int rank, size;

/* The L3 of every member of c in c's rank order (all of MPI_COMM_WORLD). */
static int *l3_by_rank(MPI_Comm c, int l3) {
  int *all = malloc(sizeof(int) * (size_t)size);
  CHECK_MPI(MPI_Allgather(&l3, 1, MPI_INT, all, 1, MPI_INT, c));
  return all;
}

/* Pairs (i, i+1 mod size) of c's ranks under different L3s. */
static int ring_crossings(MPI_Comm c, int l3) {
  int *all = l3_by_rank(c, l3), cross = 0;
  for (int i = 0; i < size && size > 2; ++i) cross += all[i] != all[(i + 1) % size];
  if (size == 2) cross = all[0] != all[1];
  free(all);
  return cross;
}

/* Pairs of an open rows x cols grid (row-major ranks of c) under different L3s. */
static int grid_crossings(MPI_Comm c, int l3, int rows, int cols) {
  int *all = l3_by_rank(c, l3), cross = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      if (j + 1 < cols) cross += all[i * cols + j] != all[i * cols + j + 1];
      if (i + 1 < rows) cross += all[i * cols + j] != all[(i + 1) * cols + j];
    }
  free(all);
  return cross;
}

static void check_permutation(MPI_Comm c) {
  int r, *all = malloc(sizeof(int) * (size_t)size), *seen = calloc((size_t)size, sizeof(int));
  MPI_Comm_rank(c, &r);
  CHECK_MPI(MPI_Allgather(&r, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) {
    CHECK(all[i] >= 0 && all[i] < size && !seen[all[i]]);
    seen[all[i]] = 1;
  }
  free(all);
  free(seen);
}

static void report(const char *what, int identity, int reordered, int must_cut) {
  CHECK(reordered <= identity);
  if (must_cut) CHECK(reordered < identity);
  if (rank == 0) printf("np=%d %s: pairs under different L3s, identity %d, reordered %d\n", size, what, identity, reordered);
}

int main(int argc, char **argv) {
  describe_two_domains("l3:2 core:1 pu:1");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int all_pinned = pin_all_pairs(rank);
  const int l3 = rank % 2, must_cut = all_pinned && size >= 4 && size % 2 == 0;

  /* A periodic ring. */
  int dims1 = size, period = 1, cr, mapped;
  MPI_Comm ring;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &dims1, &period, 1, &ring));
  check_permutation(ring);
  MPI_Comm_rank(ring, &cr);
  CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, &dims1, &period, &mapped));
  CHECK(mapped == cr);
  int left, right, got[2] = {-1, -1}, mine[2] = {cr, cr};
  CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
  CHECK_MPI(MPI_Neighbor_alltoall(mine, 1, MPI_INT, got, 1, MPI_INT, ring));
  CHECK(got[0] == left && got[1] == right);
  report("Cart_create ring", ring_crossings(MPI_COMM_WORLD, l3), ring_crossings(ring, l3), must_cut);
  CHECK_MPI(MPI_Comm_free(&ring));

  /* An open 2-D grid. */
  int dims2[2] = {0, 0}, periods2[2] = {0, 0};
  CHECK_MPI(MPI_Dims_create(size, 2, dims2));
  MPI_Comm grid;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, periods2, 1, &grid));
  check_permutation(grid);
  MPI_Comm_rank(grid, &cr);
  CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 2, dims2, periods2, &mapped));
  CHECK(mapped == cr);
  report("Cart_create open 2-D grid", grid_crossings(MPI_COMM_WORLD, l3, dims2[0], dims2[1]),
         grid_crossings(grid, l3, dims2[0], dims2[1]), 0);
  CHECK_MPI(MPI_Comm_free(&grid));

  /* MPI_Graph_create: a ring. */
  int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * 2 * (size_t)size);
  for (int i = 0; i < size; ++i) {
    edges[2 * i] = (i + size - 1) % size;
    edges[2 * i + 1] = (i + 1) % size;
    index[i] = 2 * i + 2;
  }
  MPI_Comm g;
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g));
  check_permutation(g);
  MPI_Comm_rank(g, &cr);
  CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &mapped));
  CHECK(mapped == cr);
  report("Graph_create ring", ring_crossings(MPI_COMM_WORLD, l3), ring_crossings(g, l3), must_cut);
  CHECK_MPI(MPI_Comm_free(&g));
  free(index);
  free(edges);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("topo_reorder_cache: ok\n");
  MPI_Finalize();
  return 0;
}
