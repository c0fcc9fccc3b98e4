/* Neighbourhood collectives (MPI-3.1 §7.6), blocking and then nonblocking
 * (the segment serves those once a blocking collective attached it), on
 * every path that RINGMPI_COLL_NEIGHBOR selects (meson.build builds one copy per path and
 * checks with forced_path.h that it ran): blocks that pair as
 * first-come first-matched messages when one rank is a neighbour several
 * times (a distributed multigraph with self-loops, a periodic ring of 1 or 2
 * ranks), MPI_PROC_NULL neighbours whose blocks stay untouched, small blocks
 * (through the writer's slot) and large ones (read from its buffer),
 * contiguous and strided datatypes, and the v and w forms. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "either_form.h"
#ifdef FORCED_PATH
#include "forced_path.h"
#endif

static int rank, size;
static int nb; /* 1: the nonblocking forms, completed by MPI_Wait */


/* The multigraph: rank r sends to r+1 twice, to itself once and to r+2 once
 * (mod size); block j of r is worth r * 1000 + j. */
#define OUT 4
static void dests_of(int r, int *d) {
  d[0] = (r + 1) % size, d[1] = r, d[2] = (r + 1) % size, d[3] = (r + 2) % size;
}

/* What receive q (from sources[q]) holds: the o-th block that sources[q]
 * addressed to this rank, where o counts earlier receives from the same
 * source (receives are in index order for a distributed graph). */
static int expected(const int *sources, int q) {
  int o = 0;
  for (int i = 0; i < q; ++i) o += sources[i] == sources[q];
  int d[OUT];
  dests_of(sources[q], d);
  for (int j = 0; j < OUT; ++j)
    if (d[j] == rank && o-- == 0) return sources[q] * 1000 + j;
  return -2;
}

/* `len` ints per block; `strided`: the send blocks are every other int of a
 * buffer twice as long (a vector type), the receive side contiguous. */
static void multigraph(MPI_Comm g, int len, int strided) {
  int in, out, weighted;
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
  CHECK(out == OUT);
  int *src = malloc(sizeof(int) * (size_t)in), *dst = malloc(sizeof(int) * OUT);
  CHECK_MPI(MPI_Dist_graph_neighbors(g, in, src, MPI_UNWEIGHTED, out, dst, MPI_UNWEIGHTED));
  const size_t stride = strided ? 2 : 1;
  int *s = malloc(sizeof(int) * (size_t)len * stride * OUT), *r = malloc(sizeof(int) * (size_t)len * (size_t)in);
  for (int j = 0; j < OUT; ++j)
    for (int i = 0; i < len; ++i) {
      s[((size_t)j * (size_t)len + (size_t)i) * stride] = rank * 1000 + j;
      if (strided) s[((size_t)j * (size_t)len + (size_t)i) * 2 + 1] = -7;
    }
  MPI_Datatype vec, block;
  CHECK_MPI(MPI_Type_vector(len, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_create_resized(vec, 0, (MPI_Aint)(sizeof(int) * 2 * (size_t)len), &block));
  CHECK_MPI(MPI_Type_commit(&block));
  for (int form = 0; form < 3; ++form) {
    for (size_t i = 0; i < (size_t)len * (size_t)in; ++i) r[i] = -1;
    if (form == 0) {
      if (strided)
        CHECK_MPI(DO(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, 1, block, r, len, MPI_INT, g));
      else
        CHECK_MPI(DO(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, len, MPI_INT, r, len, MPI_INT, g));
    } else {
      int sc[OUT], sd[OUT], *rc = malloc(sizeof(int) * (size_t)in + 1), *rd = malloc(sizeof(int) * (size_t)in + 1);
      MPI_Aint sdw[OUT], *rdw = malloc(sizeof(MPI_Aint) * (size_t)in + 1);
      MPI_Datatype st[OUT], *rt = malloc(sizeof(MPI_Datatype) * (size_t)in + 1);
      for (int j = 0; j < OUT; ++j) {
        sc[j] = strided ? 1 : len, sd[j] = j * (strided ? 1 : len);
        sdw[j] = (MPI_Aint)sizeof(int) * j * len * (MPI_Aint)stride, st[j] = strided ? block : MPI_INT;
      }
      for (int q = 0; q < in; ++q) rc[q] = len, rd[q] = q * len, rdw[q] = (MPI_Aint)sizeof(int) * q * len, rt[q] = MPI_INT;
      if (form == 1)
        CHECK_MPI(DO(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, s, sc, sd, strided ? block : MPI_INT, r, rc, rd, MPI_INT, g));
      else
        CHECK_MPI(DO(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, s, sc, sdw, st, r, rc, rdw, rt, g));
      free(rc), free(rd), free(rdw), free(rt);
    }
    for (int q = 0; q < in; ++q) {
      const int want = expected(src, q);
      CHECK(r[(size_t)q * (size_t)len] == want && r[(size_t)q * (size_t)len + (size_t)len - 1] == want);
    }
  }
  /* Allgather: one block to every destination; receive q holds its source's. */
  for (size_t i = 0; i < (size_t)len * (size_t)in; ++i) r[i] = -1;
  for (int i = 0; i < len; ++i) s[(size_t)i * stride] = rank;
  CHECK_MPI(strided ? DO(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, s, 1, block, r, len, MPI_INT, g)
                    : DO(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, s, len, MPI_INT, r, len, MPI_INT, g));
  for (int q = 0; q < in; ++q) CHECK(r[(size_t)q * (size_t)len] == src[q] && r[(size_t)(q + 1) * (size_t)len - 1] == src[q]);
  MPI_Type_free(&block);
  MPI_Type_free(&vec);
  free(s), free(r), free(src), free(dst);
}

/* A 1-D ring (periodic) and a line (not periodic) of all ranks: receive 0
 * comes from the lower neighbour's block 1, receive 1 from the upper's
 * block 0, off the line's ends nothing (the block keeps its -1); allgatherv
 * with counts of 1 and 2. */
static void line(int periodic) {
  MPI_Comm c;
  int dims[1] = {size}, periods[1] = {periodic};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c));
  int lo, hi, s[2] = {rank * 10, rank * 10 + 1}, r[3] = {-1, -1, -1};
  MPI_Cart_shift(c, 0, 1, &lo, &hi);
  CHECK_MPI(DO(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s, 1, MPI_INT, r, 1, MPI_INT, c));
  CHECK(r[0] == (lo == MPI_PROC_NULL ? -1 : lo * 10 + 1));
  CHECK(r[1] == (hi == MPI_PROC_NULL ? -1 : hi * 10));
  const int counts[2] = {1, 2}, displs[2] = {0, 1};
  r[0] = r[1] = r[2] = -1;
  CHECK_MPI(DO(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, s, 1, MPI_INT, r, counts, displs, MPI_INT, c));
  CHECK(r[0] == (lo == MPI_PROC_NULL ? -1 : lo * 10));
  CHECK(r[1] == (hi == MPI_PROC_NULL ? -1 : hi * 10) && r[2] == -1);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  line(1);
  line(0);
  /* The multigraph, given by every rank's out-edges (MPI_Dist_graph_create):
   * each rank learns its sources from the others. */
  int d[OUT], one = rank, degree = OUT;
  dests_of(rank, d);
  MPI_Comm g;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &one, &degree, d, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
  for (nb = 0; nb < 2; ++nb) {
    if (nb) {
      line(1);
      line(0);
    }
    multigraph(g, 1, 0);
    multigraph(g, 3, 1);
    multigraph(g, 40000, 0); /* 4 x 160 KB: more than a slot region, read from the buffers */
    multigraph(g, 40000, 1);
    /* Repeated small exchanges: the slot's ring of regions wraps around. */
    for (int i = 0; i < 200; ++i) multigraph(g, 2, i % 2);
  }
  /* Nonblocking exchanges outstanding at once, completed in reverse order,
   * each with its own buffers (the segment keeps its tables apart). */
  enum { K = 6 };
  int sk[K][OUT], rk[K][3 * OUT], in, out, weighted;
  CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted));
  CHECK(in <= 3 * OUT);
  int src[3 * OUT], dst[OUT];
  CHECK_MPI(MPI_Dist_graph_neighbors(g, in, src, MPI_UNWEIGHTED, out, dst, MPI_UNWEIGHTED));
  MPI_Request rq[K];
  for (int i = 0; i < K; ++i) {
    for (int j = 0; j < OUT; ++j) sk[i][j] = rank * 1000 + j + i * 100000;
    for (int q = 0; q < in; ++q) rk[i][q] = -1;
    CHECK_MPI(MPI_Ineighbor_alltoall(sk[i], 1, MPI_INT, rk[i], 1, MPI_INT, g, &rq[i]));
  }
  for (int i = K - 1; i >= 0; --i) CHECK_MPI(MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
  for (int i = 0; i < K; ++i)
    for (int q = 0; q < in; ++q) CHECK(rk[i][q] == expected(src, q) + i * 100000);
  MPI_Comm_free(&g);
  MPI_Finalize();
  return 0;
}
