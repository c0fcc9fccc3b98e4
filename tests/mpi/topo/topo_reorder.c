/* Reordering of graph and distributed-graph topologies (reorder = 1,
 * MPI_Graph_map) on a machine with two NUMA nodes: the program describes the
 * machine to hwloc (HWLOC_SYNTHETIC, 2 NUMA nodes of one PU each) and pins
 * rank r to cpu r % 2, so consecutive ranks sit on different nodes, the way
 * a round-robin launcher places them. Checked: the new ranks are a
 * permutation; node k's neighbourhood is held by new rank k (graph: the
 * graph's lists; distributed graph: the lists node k was given, weights
 * included); a neighbourhood exchange delivers from exactly those ranks; and
 * when the pinning took effect on every rank, the ring's neighbour pairs
 * that cross a NUMA node are never more than under the identity, and fewer
 * whenever some placement has fewer (at even np >= 4). When some rank could not be pinned, its node is not
 * rank % 2 and the crossing counts say nothing: the program runs the other
 * checks, then exits 77 (meson's skip) instead of passing. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "pin_pairs.h"

static int rank, size;

static int mod(int a) { return ((a % size) + size) % size; }

/* Ring pairs (i, i+1 mod n) whose nodes are on different NUMA nodes. */
static int ring_cross(const int *dom, int n, int rows, int cols) {
  (void)rows, (void)cols;
  int cross = 0;
  for (int i = 0; i < n && n > 1; ++i)
    if (dom[i] != dom[(i + 1) % n]) ++cross;
  return cross;
}

/* Every process's NUMA node (r % 2 when pinned), in the rank order of c;
 * the ring pairs (i, i+1) of c that cross nodes. */
static int ring_crossings(MPI_Comm c, int dom) {
  int n, *all;
  MPI_Comm_size(c, &n);
  all = malloc(sizeof(int) * (size_t)n);
  CHECK_MPI(MPI_Allgather(&dom, 1, MPI_INT, all, 1, MPI_INT, c));
  const int cross = ring_cross(all, n, 0, 0);
  free(all);
  return cross;
}

/* The ranks of c's members in c are a permutation of 0..size-1. */
static void check_permutation(MPI_Comm c) {
  int r, *all = malloc(sizeof(int) * (size_t)size), *seen = calloc((size_t)size, sizeof(int));
  MPI_Comm_rank(c, &r);
  CHECK_MPI(MPI_Allgather(&r, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
  for (int i = 0; i < size; ++i) {
    CHECK(all[i] >= 0 && all[i] < size);
    CHECK(!seen[all[i]]);
    seen[all[i]] = 1;
  }
  free(all);
  free(seen);
}

/* Neighbor_allgather of the new ranks: block i comes from sources[i]. */
static void check_exchange(MPI_Comm c, int indeg, const int *sources) {
  int r, *got = malloc(sizeof(int) * (size_t)(indeg + 1));
  MPI_Comm_rank(c, &r);
  CHECK_MPI(MPI_Neighbor_allgather(&r, 1, MPI_INT, got, 1, MPI_INT, c));
  for (int i = 0; i < indeg; ++i) CHECK(got[i] == sources[i]);
  free(got);
}

/* Never more crossings than the identity, and fewer whenever some
 * placement has fewer (fewest_crossings: the rings at even np >= 4). */
static void check_crossings(MPI_Comm c, int dom, int pinned) {
  if (!pinned) return; /* a process's node is not rank % 2: nothing to compare */
  const int identity = ring_crossings(MPI_COMM_WORLD, dom), reordered = ring_crossings(c, dom);
  const int fewest = fewest_crossings(ring_cross, size, 0, 0);
  if (rank == 0)
    printf("np=%d ring pairs crossing a NUMA node: identity %d, reordered %d, fewest possible %d\n", size, identity,
           reordered, fewest);
  CHECK(fewest <= reordered && reordered <= identity);
  if (fewest < identity) CHECK(reordered < identity);
}

int main(int argc, char **argv) {
  describe_two_domains("numa:2 core:1 pu:1");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int all_pinned = pin_all_pairs(rank);
  const int dom = rank % 2;

  /* MPI_Graph_create: a ring (two neighbours each, listed in ring order). */
  int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * 2 * (size_t)size);
  for (int i = 0; i < size; ++i) {
    edges[2 * i] = mod(i - 1);
    edges[2 * i + 1] = mod(i + 1);
    index[i] = 2 * i + 2;
  }
  MPI_Comm g;
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g));
  int gr, mapped, nb[2], count;
  MPI_Comm_rank(g, &gr);
  check_permutation(g);
  CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &mapped));
  CHECK(mapped >= 0 && mapped < size);
  /* A graph of size - 1 nodes (an edgeless one: nothing to gain, identity):
   * the last rank is left out. */
  if (size > 1) {
    int *zi = calloc((size_t)size, sizeof(int));
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, size - 1, zi, edges, &mapped));
    CHECK(mapped == (rank < size - 1 ? rank : MPI_UNDEFINED));
    free(zi);
  }
  CHECK_MPI(MPI_Graph_neighbors_count(g, gr, &count));
  CHECK(count == 2);
  CHECK_MPI(MPI_Graph_neighbors(g, gr, 2, nb));
  CHECK(nb[0] == mod(gr - 1) && nb[1] == mod(gr + 1));
  check_exchange(g, 2, nb);
  check_crossings(g, dom, all_pinned);
  CHECK_MPI(MPI_Comm_free(&g));

  /* MPI_Dist_graph_create: rank r names node r+1's edges (routing needed):
   * r+1 -> r+2 (weight 3) and r+1 -> r (weight 1). */
  int src = mod(rank + 1), deg = 2, dst[2] = {mod(rank + 2), rank}, w[2] = {3, 1};
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, dst, w, MPI_INFO_NULL, 1, &g));
  check_permutation(g);
  MPI_Comm_rank(g, &gr);
  int indeg, outdeg, weighted, s[2], sw[2], d[2], dw[2];
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
  CHECK(indeg == 2 && outdeg == 2 && weighted);
  CHECK_MPI(MPI_Dist_graph_neighbors(g, 2, s, sw, 2, d, dw));
  /* Out: node gr's edges in the order its contributor gave them. */
  CHECK(d[0] == mod(gr + 1) && dw[0] == 3 && d[1] == mod(gr - 1) && dw[1] == 1);
  /* In: from gr-1 (weight 3) and gr+1 (weight 1), in contributor order. */
  for (int i = 0; i < 2; ++i)
    CHECK((s[i] == mod(gr - 1) && sw[i] == 3) || (s[i] == mod(gr + 1) && sw[i] == 1));
  CHECK(size <= 2 || s[0] != s[1]);
  check_exchange(g, 2, s);
  check_crossings(g, dom, all_pinned);
  CHECK_MPI(MPI_Comm_free(&g));

  /* MPI_Dist_graph_create_adjacent: rank r describes node r (in from r-1,
   * out to r+1, the weight naming the edge's source); after reordering new
   * rank k holds node k's lists. */
  int in = mod(rank - 1), inw = 10 * mod(rank - 1) + 1, out = mod(rank + 1), outw = 10 * rank + 1;
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &in, &inw, 1, &out, &outw, MPI_INFO_NULL, 1, &g));
  check_permutation(g);
  MPI_Comm_rank(g, &gr);
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
  CHECK(indeg == 1 && outdeg == 1 && weighted);
  CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, s, sw, 1, d, dw));
  CHECK(s[0] == mod(gr - 1) && sw[0] == 10 * mod(gr - 1) + 1);
  CHECK(d[0] == mod(gr + 1) && dw[0] == 10 * gr + 1);
  check_exchange(g, 1, s);
  check_crossings(g, dom, all_pinned);
  CHECK_MPI(MPI_Comm_free(&g));

  free(index);
  free(edges);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!all_pinned) {
    if (rank == 0) printf("topo_reorder: skipped: a rank could not be pinned to cpu rank %% 2\n");
    MPI_Finalize();
    return 77;
  }
  if (rank == 0) printf("topo_reorder: ok\n");
  MPI_Finalize();
  return 0;
}
