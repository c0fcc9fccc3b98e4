/* Neighbourhood collectives (MPI-3.1 §7.6-7.7), blocking and nonblocking:
 * Cartesian grids (periodic, non-periodic with MPI_PROC_NULL edges whose
 * blocks stay untouched, and periodic dimensions of 1 and 2 ranks where the
 * same rank is both neighbours), a 2-D periodic halo exchange checked
 * against the same exchange done with MPI_Sendrecv, a graph (the ring), a
 * distributed graph with uneven degrees (v and w forms) and a rank without
 * edges passing NULL buffers, and MPI_ERR_TOPOLOGY without a topology. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "either_form.h"

static int nb; /* 1: the nonblocking forms */


/* Cartesian: block j goes to neighbour j; block 2d comes from the negative
 * neighbour, which sent it its block 2d+1 (and vice versa). */
static void cart_check(MPI_Comm cart, int ndims) {
  int rank;
  MPI_Comm_rank(cart, &rank);
  int *s = malloc(sizeof(int) * 2 * (size_t)ndims), *r = malloc(sizeof(int) * 2 * (size_t)ndims);
  for (int j = 0; j < 2 * ndims; ++j) s[j] = rank * 100 + j, r[j] = -1;
  CHECK_MPI(DO(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, 1, MPI_INT, r, 1, MPI_INT, cart));
  for (int d = 0; d < ndims; ++d) {
    int lo, hi;
    MPI_Cart_shift(cart, d, 1, &lo, &hi);
    CHECK(r[2 * d] == (lo == MPI_PROC_NULL ? -1 : lo * 100 + 2 * d + 1));
    CHECK(r[2 * d + 1] == (hi == MPI_PROC_NULL ? -1 : hi * 100 + 2 * d));
  }
  /* Allgather: every neighbour's rank. */
  for (int j = 0; j < 2 * ndims; ++j) r[j] = -1;
  CHECK_MPI(DO(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, &rank, 1, MPI_INT, r, 1, MPI_INT, cart));
  for (int d = 0; d < ndims; ++d) {
    int lo, hi;
    MPI_Cart_shift(cart, d, 1, &lo, &hi);
    CHECK(r[2 * d] == (lo == MPI_PROC_NULL ? -1 : lo));
    CHECK(r[2 * d + 1] == (hi == MPI_PROC_NULL ? -1 : hi));
  }
  free(s);
  free(r);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  for (nb = 0; nb < 2; ++nb) {
    /* 2-D periodic grid, and the same non-periodic. */
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm grid, open, ring1;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid));
    cart_check(grid, 2);
    periods[0] = periods[1] = 0;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &open));
    cart_check(open, 2);
    /* 1-D periodic over all ranks (size 1 and 2: one rank is both neighbours). */
    int one = size, per = 1;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &one, &per, 0, &ring1));
    cart_check(ring1, 1);

    /* Halo exchange of a 3-int-wide edge against MPI_Sendrecv. */
    {
      int s[4][3], r[4][3], want[4][3];
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 3; ++k) s[j][k] = rank * 1000 + j * 10 + k, r[j][k] = want[j][k] = -7;
      CHECK_MPI(DO(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, 3, MPI_INT, r, 3, MPI_INT, grid));
      for (int d = 0; d < 2; ++d) {
        int lo, hi;
        MPI_Cart_shift(grid, d, 1, &lo, &hi);
        /* Send up, receive from below; then send down, receive from above. */
        MPI_Sendrecv(s[2 * d + 1], 3, MPI_INT, hi, 40 + d, want[2 * d], 3, MPI_INT, lo, 40 + d, grid, MPI_STATUS_IGNORE);
        MPI_Sendrecv(s[2 * d], 3, MPI_INT, lo, 50 + d, want[2 * d + 1], 3, MPI_INT, hi, 50 + d, grid, MPI_STATUS_IGNORE);
      }
      CHECK(memcmp(r, want, sizeof r) == 0);
    }

    /* Graph: a ring (both directions); allgatherv with displacements reversed. */
    {
      int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * 2 * (size_t)size);
      for (int i = 0; i < size; ++i) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + size - 1) % size;
        edges[2 * i + 1] = (i + 1) % size;
      }
      MPI_Comm g;
      CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g));
      int got[2] = {-1, -1}, counts[2] = {1, 1}, displs[2] = {1, 0};
      CHECK_MPI(DO(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, &rank, 1, MPI_INT, got, counts, displs, MPI_INT, g));
      CHECK(got[1] == (rank + size - 1) % size && got[0] == (rank + 1) % size);
      MPI_Comm_free(&g);
      free(index);
      free(edges);
    }

    /* Distributed graph: rank i sends i+1 ints to each rank j > i (none from the last rank);
     * rank 0 receives nothing and passes NULL receive buffers. */
    {
      int nout = size - 1 - rank, nin = rank;
      int *dst = malloc(sizeof(int) * (size_t)(nout + 1)), *src = malloc(sizeof(int) * (size_t)(nin + 1));
      for (int k = 0; k < nout; ++k) dst[k] = rank + 1 + k;
      for (int k = 0; k < nin; ++k) src[k] = k;
      MPI_Comm dg;
      CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, src, MPI_UNWEIGHTED, nout, dst, MPI_UNWEIGHTED,
                                               MPI_INFO_NULL, 0, &dg));
      int *sc = malloc(sizeof(int) * (size_t)(nout + 1)), *sd = malloc(sizeof(int) * (size_t)(nout + 1));
      int *rc = malloc(sizeof(int) * (size_t)(nin + 1)), *rd = malloc(sizeof(int) * (size_t)(nin + 1));
      MPI_Aint *sdw = malloc(sizeof(MPI_Aint) * (size_t)(nout + 1)), *rdw = malloc(sizeof(MPI_Aint) * (size_t)(nin + 1));
      MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)(nout + 1)), *rt = malloc(sizeof(MPI_Datatype) * (size_t)(nin + 1));
      int stot = 0, rtot = 0;
      for (int k = 0; k < nout; ++k) sc[k] = rank + 1, sd[k] = stot, sdw[k] = (MPI_Aint)sizeof(int) * stot, st[k] = MPI_INT, stot += rank + 1;
      for (int k = 0; k < nin; ++k) rc[k] = k + 1, rd[k] = rtot, rdw[k] = (MPI_Aint)sizeof(int) * rtot, rt[k] = MPI_INT, rtot += k + 1;
      int *sb = stot ? malloc(sizeof(int) * (size_t)stot) : NULL, *rb = rtot ? malloc(sizeof(int) * (size_t)rtot) : NULL;
      for (int k = 0, at = 0; k < nout; ++k)
        for (int e = 0; e < rank + 1; ++e) sb[at++] = rank * 1000 + dst[k] * 10 + e;
      for (int w = 0; w < 2; ++w) {
        for (int i = 0; i < rtot; ++i) rb[i] = -1;
        if (w == 0)
          CHECK_MPI(DO(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, dg));
        else
          CHECK_MPI(DO(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, sb, sc, sdw, st, rb, rc, rdw, rt, dg));
        for (int k = 0, at = 0; k < nin; ++k)
          for (int e = 0; e < k + 1; ++e) CHECK(rb[at++] == k * 1000 + rank * 10 + e);
      }
      free(sb); free(rb); free(sc); free(sd); free(rc); free(rd); free(sdw); free(rdw); free(st); free(rt);
      free(src); free(dst);
      MPI_Comm_free(&dg);
    }
    MPI_Comm_free(&grid);
    MPI_Comm_free(&open);
    MPI_Comm_free(&ring1);
  }

  /* No topology: MPI_ERR_TOPOLOGY. */
  MPI_Comm plain;
  MPI_Comm_dup(MPI_COMM_WORLD, &plain);
  MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);
  int x = 0, y, cls;
  MPI_Error_class(MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, plain), &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY);
  MPI_Comm_free(&plain);
  MPI_Finalize();
  return 0;
}
