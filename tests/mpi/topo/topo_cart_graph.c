/* Virtual topologies: Cartesian grids (create/get/rank/coords/shift/sub,
 * Dims_create), graphs (the shuffle-exchange example of the seed document
 * on topology inquiry, Example 6.3 of MPI-1), distributed graphs and
 * MPI_Topo_test. */
#include <stdlib.h>

#include "check.h"

static int rotl(int x, int bits) { return bits ? ((x << 1) | (x >> (bits - 1))) & ((1 << bits) - 1) : x; }
static int rotr(int x, int bits) { return bits ? ((x >> 1) | ((x & 1) << (bits - 1))) : x; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, status;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
  CHECK(status == MPI_UNDEFINED);

  /* Dims_create */
  int d2[2] = {0, 0};
  CHECK_MPI(MPI_Dims_create(12, 2, d2));
  CHECK(d2[0] == 4 && d2[1] == 3);
  int d3[3] = {0, 3, 0};
  CHECK_MPI(MPI_Dims_create(24, 3, d3));
  CHECK(d3[1] == 3 && d3[0] * d3[2] == 8 && d3[0] >= d3[2] && d3[0] == 4);
  int d4[3] = {0, 0, 0};
  CHECK_MPI(MPI_Dims_create(size, 3, d4));
  CHECK(d4[0] * d4[1] * d4[2] == size && d4[0] >= d4[1] && d4[1] >= d4[2]);

  /* A 2-D grid, periodic in dim 0 only. */
  int dims[2] = {0, 0}, periods[2] = {1, 0};
  CHECK_MPI(MPI_Dims_create(size, 2, dims));
  MPI_Comm cart;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
  CHECK(cart != MPI_COMM_NULL);
  CHECK_MPI(MPI_Topo_test(cart, &status));
  CHECK(status == MPI_CART);
  int nd = -1, gd[2], gp[2], gc[2], crank;
  CHECK_MPI(MPI_Cartdim_get(cart, &nd));
  CHECK(nd == 2);
  CHECK_MPI(MPI_Comm_rank(cart, &crank));
  CHECK_MPI(MPI_Cart_get(cart, 2, gd, gp, gc));
  CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0);
  CHECK(gc[0] == crank / dims[1] && gc[1] == crank % dims[1]);
  int back = -1;
  CHECK_MPI(MPI_Cart_rank(cart, gc, &back));
  CHECK(back == crank);
  for (int r = 0; r < size; ++r) {
    int c[2];
    CHECK_MPI(MPI_Cart_coords(cart, r, 2, c));
    CHECK_MPI(MPI_Cart_rank(cart, c, &back));
    CHECK(back == r);
  }
  int src, dst;
  CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
  CHECK(dst == ((gc[0] + 1) % dims[0]) * dims[1] + gc[1]);
  CHECK(src == ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1]);
  CHECK_MPI(MPI_Cart_shift(cart, 1, 1, &src, &dst));
  CHECK(dst == (gc[1] + 1 < dims[1] ? crank + 1 : MPI_PROC_NULL));
  CHECK(src == (gc[1] > 0 ? crank - 1 : MPI_PROC_NULL));
  /* Shift data around the periodic ring of dim 0. */
  int token = crank, got = -1;
  CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
  CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, dst, 5, &got, 1, MPI_INT, src, 5, cart, MPI_STATUS_IGNORE));
  CHECK(got == src);
  /* Rows: keep dim 1. */
  int remain[2] = {0, 1};
  MPI_Comm row;
  CHECK_MPI(MPI_Cart_sub(cart, remain, &row));
  int rsize, rrank;
  CHECK_MPI(MPI_Comm_size(row, &rsize));
  CHECK_MPI(MPI_Comm_rank(row, &rrank));
  CHECK(rsize == dims[1] && rrank == gc[1]);
  CHECK_MPI(MPI_Cartdim_get(row, &nd));
  CHECK(nd == 1);
  int rowsum = 0;
  CHECK_MPI(MPI_Allreduce(&crank, &rowsum, 1, MPI_INT, MPI_SUM, row));
  CHECK(rowsum == dims[1] * (gc[0] * dims[1]) + dims[1] * (dims[1] - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&row));
  /* A dup keeps the topology. */
  MPI_Comm cdup;
  CHECK_MPI(MPI_Comm_dup(cart, &cdup));
  CHECK_MPI(MPI_Topo_test(cdup, &status));
  CHECK(status == MPI_CART);
  CHECK_MPI(MPI_Comm_free(&cdup));
  CHECK_MPI(MPI_Comm_free(&cart));

  /* A grid smaller than the communicator: the rest get MPI_COMM_NULL. */
  if (size > 1) {
    int one[1] = {size - 1}, p0[1] = {0};
    MPI_Comm small;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, one, p0, 0, &small));
    CHECK((rank == size - 1) == (small == MPI_COMM_NULL));
    if (small != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&small));
  }

  /* Shuffle-exchange graph on 2^n processes (n = log2 of the largest power of two <= size). */
  int bits = 0;
  while ((2 << bits) <= size) ++bits;
  int nn = 1 << bits;
  int *index = malloc(sizeof(int) * nn), *edges = malloc(sizeof(int) * nn * 3);
  for (int i = 0; i < nn; ++i) {
    edges[3 * i] = bits ? (i ^ 1) : i;
    edges[3 * i + 1] = rotl(i, bits);
    edges[3 * i + 2] = rotr(i, bits);
    index[i] = 3 * (i + 1);
  }
  MPI_Comm g;
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 0, &g));
  if (rank < nn) {
    CHECK_MPI(MPI_Topo_test(g, &status));
    CHECK(status == MPI_GRAPH);
    int nnodes, nedges, cnt, nb[3];
    CHECK_MPI(MPI_Graphdims_get(g, &nnodes, &nedges));
    CHECK(nnodes == nn && nedges == 3 * nn);
    CHECK_MPI(MPI_Graph_neighbors_count(g, rank, &cnt));
    CHECK(cnt == 3);
    CHECK_MPI(MPI_Graph_neighbors(g, rank, 3, nb));
    double a = rank;
    MPI_Status st;
    /* exchange */
    CHECK_MPI(MPI_Sendrecv_replace(&a, 1, MPI_DOUBLE, nb[0], 0, nb[0], 0, g, &st));
    CHECK(a == (bits ? (rank ^ 1) : rank));
    /* shuffle: send to shuffle neighbour, receive from unshuffle neighbour */
    a = rank;
    CHECK_MPI(MPI_Sendrecv_replace(&a, 1, MPI_DOUBLE, nb[1], 0, nb[2], 0, g, &st));
    CHECK(a == rotr(rank, bits));
    /* unshuffle */
    a = rank;
    CHECK_MPI(MPI_Sendrecv_replace(&a, 1, MPI_DOUBLE, nb[2], 0, nb[1], 0, g, &st));
    CHECK(a == rotl(rank, bits));
    int *gi = malloc(sizeof(int) * nn), *ge = malloc(sizeof(int) * 3 * nn);
    CHECK_MPI(MPI_Graph_get(g, nn, 3 * nn, gi, ge));
    for (int i = 0; i < 3 * nn; ++i) CHECK(ge[i] == edges[i]);
    free(gi); free(ge);
    CHECK_MPI(MPI_Comm_free(&g));
  } else {
    CHECK(g == MPI_COMM_NULL);
  }
  free(index); free(edges);

  /* Distributed graph: a directed ring given by each rank's out-edge. */
  MPI_Comm dg;
  int srcs[1] = {rank}, degs[1] = {1}, dsts[1] = {(rank + 1) % size}, w[1] = {rank + 10};
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, degs, dsts, w, MPI_INFO_NULL, 0, &dg));
  CHECK_MPI(MPI_Topo_test(dg, &status));
  CHECK(status == MPI_DIST_GRAPH);
  int indeg, outdeg, weighted;
  CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
  CHECK(indeg == 1 && outdeg == 1 && weighted);
  int is[1], iw[1], os[1], ow[1];
  CHECK_MPI(MPI_Dist_graph_neighbors(dg, 1, is, iw, 1, os, ow));
  CHECK(is[0] == (rank + size - 1) % size && iw[0] == (rank + size - 1) % size + 10);
  CHECK(os[0] == (rank + 1) % size && ow[0] == rank + 10);
  CHECK_MPI(MPI_Comm_free(&dg));
  int a_in[1] = {(rank + size - 1) % size}, a_out[1] = {(rank + 1) % size};
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, a_in, MPI_UNWEIGHTED, 1, a_out, MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 0, &dg));
  CHECK_MPI(MPI_Dist_graph_neighbors_count(dg, &indeg, &outdeg, &weighted));
  CHECK(indeg == 1 && outdeg == 1 && !weighted);
  CHECK_MPI(MPI_Comm_free(&dg));

  /* Bad input returns the standard classes under MPI_ERRORS_RETURN. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int bad[2] = {size + 1, 1}, per[2] = {0, 0};
  MPI_Comm none;
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, bad, per, 0, &none) == MPI_ERR_TOPOLOGY);
  int neg[1] = {-1};
  CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, neg, per, 0, &none) == MPI_ERR_DIMS);
  int dd[2] = {5, 0};
  CHECK(MPI_Dims_create(12, 2, dd) == MPI_ERR_DIMS);
  CHECK(MPI_Cartdim_get(MPI_COMM_WORLD, &nd) == MPI_ERR_TOPOLOGY);
  CHECK(MPI_Graphdims_get(MPI_COMM_WORLD, &nd, &nd) == MPI_ERR_TOPOLOGY);

  CHECK_MPI(MPI_Finalize());
  return 0;
}
