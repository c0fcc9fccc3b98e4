/* Neighbourhood collectives on the seed's shuffle-exchange graph (node i:
 * exchange i^1, shuffle = rotate left, unshuffle = rotate right over log2 n
 * bits; n the largest power of two <= size, the others outside the graph),
 * with and without reordering: block i of the receive buffer comes from the
 * i-th neighbour of MPI_Graph_neighbors, and a value sent along the shuffle
 * edge arrives unshuffled. Then empty neighbourhoods: a distributed graph
 * without edges, a graph whose odd nodes have no edges, and a 0-dimensional
 * Cartesian grid, where every neighbourhood collective (blocking and
 * nonblocking) with NULL buffers succeeds and touches nothing, the allgather
 * forms even with a non-zero sendcount (no destination reads it). */
#include <stdlib.h>

#include "check.h"

static int rotl(int x, int bits) { return bits ? ((x << 1) | (x >> (bits - 1))) & ((1 << bits) - 1) : x; }
static int rotr(int x, int bits) { return bits ? ((x >> 1) | ((x & 1) << (bits - 1))) : x; }

/* Every neighbourhood collective with no data on c. */
static void empty_round(MPI_Comm c) {
  int zero = 0;
  MPI_Aint zd = 0;
  MPI_Datatype t = MPI_INT;
  MPI_Request r[5];
  CHECK_MPI(MPI_Neighbor_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c));
  CHECK_MPI(MPI_Neighbor_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c));
  CHECK_MPI(MPI_Neighbor_allgatherv(NULL, 0, MPI_INT, NULL, &zero, &zero, MPI_INT, c));
  CHECK_MPI(MPI_Neighbor_alltoallv(NULL, &zero, &zero, MPI_INT, NULL, &zero, &zero, MPI_INT, c));
  CHECK_MPI(MPI_Neighbor_alltoallw(NULL, &zero, &zd, &t, NULL, &zero, &zd, &t, c));
  CHECK_MPI(MPI_Ineighbor_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c, &r[0]));
  CHECK_MPI(MPI_Ineighbor_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, c, &r[1]));
  CHECK_MPI(MPI_Ineighbor_allgatherv(NULL, 0, MPI_INT, NULL, &zero, &zero, MPI_INT, c, &r[2]));
  CHECK_MPI(MPI_Ineighbor_alltoallv(NULL, &zero, &zero, MPI_INT, NULL, &zero, &zero, MPI_INT, c, &r[3]));
  CHECK_MPI(MPI_Ineighbor_alltoallw(NULL, &zero, &zd, &t, NULL, &zero, &zd, &t, c, &r[4]));
  CHECK_MPI(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
  /* The allgather forms send their block to no one: sendbuf is never read,
   * so NULL is valid even with a non-zero sendcount. */
  CHECK_MPI(MPI_Neighbor_allgather(NULL, 1, MPI_INT, NULL, 0, MPI_INT, c));
  CHECK_MPI(MPI_Neighbor_allgatherv(NULL, 1, MPI_INT, NULL, &zero, &zero, MPI_INT, c));
  CHECK_MPI(MPI_Ineighbor_allgather(NULL, 1, MPI_INT, NULL, 0, MPI_INT, c, &r[0]));
  CHECK_MPI(MPI_Ineighbor_allgatherv(NULL, 1, MPI_INT, NULL, &zero, &zero, MPI_INT, c, &r[1]));
  CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int bits = 0;
  while ((2 << bits) <= size) ++bits;
  const int nn = 1 << bits;
  int *index = malloc(sizeof(int) * (size_t)nn), *edges = malloc(sizeof(int) * 3 * (size_t)nn);
  for (int i = 0; i < nn; ++i) {
    edges[3 * i] = bits ? (i ^ 1) : i;
    edges[3 * i + 1] = rotl(i, bits);
    edges[3 * i + 2] = rotr(i, bits);
    index[i] = 3 * (i + 1);
  }
  for (int reorder = 0; reorder < 2; ++reorder) {
    MPI_Comm g;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, reorder, &g));
    CHECK((g == MPI_COMM_NULL) == (rank >= nn));
    if (g == MPI_COMM_NULL) continue;
    int me, nb[3], got[3] = {-1, -1, -1}, send[3], recv[3];
    MPI_Comm_rank(g, &me);
    CHECK_MPI(MPI_Graph_neighbors(g, me, 3, nb));
    CHECK(nb[0] == (bits ? (me ^ 1) : me) && nb[1] == rotl(me, bits) && nb[2] == rotr(me, bits));
    CHECK_MPI(MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, g));
    for (int i = 0; i < 3; ++i) CHECK(got[i] == nb[i]);
    /* Block j goes to nb[j]. Where a pair has several edges (fixed points
     * of the shuffle, n <= 4), the k-th message from a neighbour fills the
     * k-th block listing it; otherwise a node receives from its unshuffle
     * neighbour (block 2) what that one sent along its shuffle edge (block 1). */
    for (int j = 0; j < 3; ++j) send[j] = 100 * me + j;
    MPI_Request r;
    CHECK_MPI(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 3; ++i) {
      const int from = nb[i];
      int k = 0, seen = 0, block = -1;
      for (int j = 0; j < i; ++j) k += nb[j] == from;
      for (int j = 0; j < 3 && block < 0; ++j)
        if (edges[3 * from + j] == me && seen++ == k) block = j;
      CHECK(recv[i] == 100 * from + block);
    }
    if (bits >= 3 && rotl(me, bits) != me) CHECK(recv[2] == 100 * rotr(me, bits) + 1);
    CHECK_MPI(MPI_Comm_free(&g));
  }
  free(index);
  free(edges);

  /* A distributed graph without edges. */
  MPI_Comm e;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &e));
  empty_round(e);
  CHECK_MPI(MPI_Comm_free(&e));
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 0, &e));
  empty_round(e);
  CHECK_MPI(MPI_Comm_free(&e));

  /* A symmetric graph (as neighbourhood collectives on MPI_Graph_create
   * need) where only pairs i <-> i+2 with i % 4 == 0 have edges; the odd
   * and unpaired nodes have empty neighbourhoods. */
  int *gi = malloc(sizeof(int) * (size_t)size), *ge = malloc(sizeof(int) * (size_t)size), k = 0;
  for (int i = 0; i < size; ++i) {
    if (i % 4 == 0 && i + 2 < size) ge[k++] = i + 2;
    if (i % 4 == 2) ge[k++] = i - 2;
    gi[i] = k;
  }
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, gi, ge, 0, &e));
  int deg, partner = rank % 4 == 0 ? rank + 2 : rank % 4 == 2 ? rank - 2 : -1;
  if (partner >= size) partner = -1;
  CHECK_MPI(MPI_Graph_neighbors_count(e, rank, &deg));
  CHECK(deg == (partner >= 0));
  int got = 7;
  CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, e));
  CHECK(got == (partner >= 0 ? partner : 7));
  if (partner < 0) empty_round(e);
  CHECK_MPI(MPI_Comm_free(&e));
  free(gi);
  free(ge);

  /* A 0-dimensional grid: one process, no neighbours. */
  MPI_Comm z;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &z));
  CHECK((z == MPI_COMM_NULL) == (rank != 0));
  if (z != MPI_COMM_NULL) {
    empty_round(z);
    CHECK_MPI(MPI_Comm_free(&z));
  }

  CHECK_MPI(MPI_Finalize());
  return 0;
}
