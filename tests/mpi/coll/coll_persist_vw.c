/* Persistent v collectives and reduce-scatter planned once at _init
 * (coll/persistent_plan.hpp: plan_gatherv, plan_scatterv, plan_allgatherv,
 * plan_alltoallv, plan_alltoallw, plan_reduce_scatter, plan_neighbor): MPI_Gatherv_init, MPI_Scatterv_init,
 * MPI_Allgatherv_init, MPI_Alltoallv_init, MPI_Alltoallw_init, MPI_Reduce_scatter_init,
 * MPI_Reduce_scatter_block_init and the five neighbourhood forms on a ring
 * (periodic or not), each started many times with new data:
 * - counts that differ per rank, zero for some ranks, gaps between blocks;
 * - MPI_IN_PLACE where the standard allows it;
 * - a non-contiguous derived datatype (freed after _init) on one side;
 * - the blocking call of the same family between each start and its wait;
 * - a send block aliasing a receive block (v forms, reduce_scatter, allgather, alltoall,
 *   allreduce, scan): MPI_ERR_BUFFER at each start, no plan;
 * - the counter coll_persistent_planned: every start takes the plan where
 *   the plan applies (np >= 2 with the segment; gatherv, scatterv and
 *   alltoallv also need single copy, except the two-rank messages), none
 *   where the family is forced to messages (built with FORCED_MESSAGES). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, forced_messages;

#define STARTS 30

static int val(int p, int i, int e) { return (p + 1) * 1000 + i * 7 + e * 13; }

/* Rank j's block length: zero for some ranks. */
static int cnt(int j) { return j % 3 == 1 ? 0 : j % 4 + 1; }
/* Member i's block to j in the all-to-all (symmetric, zero for some pairs). */
static int a2a(int i, int j) { return (i + j) % 3; }

static MPI_Count counter(const char *name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

/* Whether every start of this family takes the plan here (1), none (0), or
 * either (-1: not checked). `needs_copy`: the family's plan needs single
 * copy (gatherv, scatterv, alltoall(v|w): the block sizes are not known to all;
 * without it only two ranks with both moving blocks non-empty may plan). */
static int single_copy;
static int expect_plan(int needs_copy) {
  if (forced_messages || size < 2) return 0;
  if (needs_copy && !single_copy) return size == 2 ? -1 : 0;
  return 1;
}

/* Gatherv and scatterv on two ranks whose non-root block is empty (cnt(1)
 * is 0: root 0) return at once from every start, with no plan. */
static int pair_empty(int root) { return size == 2 && cnt(1 - root) == 0; }

/* An int taken every second int: count n spans 2n ints, not contiguous. */
static MPI_Datatype strided(void) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &t));
  CHECK_MPI(MPI_Type_commit(&t));
  return t;
}

/* Starts r, runs the blocking call `blocking` (which checks itself), waits. */
static void around(MPI_Request *r, void (*blocking)(int), int e) {
  CHECK_MPI(MPI_Start(r));
  if (blocking) blocking(e);
  CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

static void check_planned(MPI_Count before, int starts, int expect, const char *what) {
  if (expect < 0) return;
  const MPI_Count got = counter("coll_persistent_planned") - before;
  if (expect && got != starts) fprintf(stderr, "rank %d %s: %lld planned of %d\n", rank, what, (long long)got, starts);
  if (!expect && got != 0) fprintf(stderr, "rank %d %s: %lld planned, none expected\n", rank, what, (long long)got);
  CHECK(expect ? got == starts : got == 0);
}

/* ---- gatherv ---------------------------------------------------------- */

static void blocking_gatherv(int e) {
  int send[8], recv[64], rc[64], d[64], at = 0;
  for (int j = 0; j < size; ++j) {
    rc[j] = cnt(j);
    d[j] = at;
    at += cnt(j);
  }
  for (int i = 0; i < cnt(rank); ++i) send[i] = -val(rank, i, e);
  CHECK_MPI(MPI_Gatherv(send, cnt(rank), MPI_INT, recv, rc, d, MPI_INT, 0, MPI_COMM_WORLD));
  if (rank == 0)
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < cnt(j); ++i) CHECK(recv[d[j] + i] == -val(j, i, e));
}

/* root's blocks at displacement 2 * (sum of earlier counts) + j (gaps);
 * `derived`: the members send through the strided type; `in_place` at the root. */
static void test_gatherv(int root, int derived, int in_place) {
  int send[16], recv[256], rc[64], d[64];
  for (int j = 0, at = 0; j < size; ++j) {
    rc[j] = cnt(j);
    d[j] = at + j;
    at += cnt(j);
  }
  MPI_Datatype st = derived ? strided() : MPI_INT;
  const int ip = in_place && rank == root;
  MPI_Request r;
  CHECK_MPI(MPI_Gatherv_init(ip ? MPI_IN_PLACE : send, cnt(rank), st, recv, rc, d, MPI_INT, root, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
  if (derived) CHECK_MPI(MPI_Type_free(&st));
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 16; ++i) send[i] = -1;
    for (int i = 0; i < cnt(rank); ++i) send[derived ? 2 * i : i] = val(rank, i, e);
    for (int i = 0; i < 256; ++i) recv[i] = -2;
    if (ip)
      for (int i = 0; i < cnt(rank); ++i) recv[d[rank] + i] = val(rank, i, e);
    around(&r, e % 2 ? blocking_gatherv : NULL, e);
    if (rank == root)
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < cnt(j); ++i) CHECK(recv[d[j] + i] == val(j, i, e));
  }
  check_planned(before, STARTS, pair_empty(root) ? 0 : expect_plan(1), "gatherv");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- scatterv --------------------------------------------------------- */

static void blocking_scatterv(int e) {
  int send[64], recv[8], sc[64], d[64], at = 0;
  for (int j = 0; j < size; ++j) {
    sc[j] = cnt(j);
    d[j] = at;
    for (int i = 0; i < cnt(j); ++i) send[at + i] = -val(j, i, e);
    at += cnt(j);
  }
  CHECK_MPI(MPI_Scatterv(send, sc, d, MPI_INT, recv, cnt(rank), MPI_INT, size - 1, MPI_COMM_WORLD));
  for (int i = 0; i < cnt(rank); ++i) CHECK(recv[i] == -val(rank, i, e));
}

/* `derived`: the members receive through the strided type. */
static void test_scatterv(int root, int derived, int in_place) {
  int send[256], recv[16], sc[64], d[64];
  for (int j = 0, at = 0; j < size; ++j) {
    sc[j] = cnt(j);
    d[j] = at + 2 * j;
    at += cnt(j);
  }
  MPI_Datatype rt = derived ? strided() : MPI_INT;
  const int ip = in_place && rank == root;
  MPI_Request r;
  CHECK_MPI(MPI_Scatterv_init(send, sc, d, MPI_INT, ip ? MPI_IN_PLACE : recv, cnt(rank), rt, root, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r));
  if (derived) CHECK_MPI(MPI_Type_free(&rt));
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 256; ++i) send[i] = -3;
    if (rank == root)
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < cnt(j); ++i) send[d[j] + i] = val(j, i, e);
    for (int i = 0; i < 16; ++i) recv[i] = -1;
    around(&r, e % 2 ? blocking_scatterv : NULL, e);
    if (ip) {
      for (int i = 0; i < cnt(rank); ++i) CHECK(send[d[rank] + i] == val(rank, i, e));
    } else {
      for (int i = 0; i < cnt(rank); ++i) CHECK(recv[derived ? 2 * i : i] == val(rank, i, e));
      if (derived)
        for (int i = 0; i < cnt(rank); ++i) CHECK(recv[2 * i + 1] == -1);
    }
  }
  check_planned(before, STARTS, pair_empty(root) ? 0 : expect_plan(1), "scatterv");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- allgatherv ------------------------------------------------------- */

static void blocking_allgatherv(int e) {
  int send[8], recv[64], rc[64], d[64], at = 0;
  for (int j = 0; j < size; ++j) {
    rc[j] = cnt(j);
    d[j] = at;
    at += cnt(j);
  }
  for (int i = 0; i < cnt(rank); ++i) send[i] = -val(rank, i, e);
  CHECK_MPI(MPI_Allgatherv(send, cnt(rank), MPI_INT, recv, rc, d, MPI_INT, MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < cnt(j); ++i) CHECK(recv[d[j] + i] == -val(j, i, e));
}

static void test_allgatherv(int derived, int in_place) {
  int send[16], recv[256], rc[64], d[64];
  for (int j = 0, at = 0; j < size; ++j) {
    rc[j] = cnt(j);
    d[j] = at + 3 * j;
    at += cnt(j);
  }
  MPI_Datatype st = derived ? strided() : MPI_INT;
  MPI_Request r;
  CHECK_MPI(MPI_Allgatherv_init(in_place ? MPI_IN_PLACE : send, cnt(rank), st, recv, rc, d, MPI_INT, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &r));
  if (derived) CHECK_MPI(MPI_Type_free(&st));
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 16; ++i) send[i] = -1;
    for (int i = 0; i < cnt(rank); ++i) send[derived ? 2 * i : i] = val(rank, i, e);
    for (int i = 0; i < 256; ++i) recv[i] = -2;
    if (in_place)
      for (int i = 0; i < cnt(rank); ++i) recv[d[rank] + i] = val(rank, i, e);
    around(&r, e % 2 ? blocking_allgatherv : NULL, e);
    for (int j = 0; j < size; ++j) {
      for (int i = 0; i < cnt(j); ++i) CHECK(recv[d[j] + i] == val(j, i, e));
      if (j > 0) CHECK(recv[d[j] - 1] == -2); /* the gaps untouched */
    }
  }
  check_planned(before, STARTS, expect_plan(0), "allgatherv");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- alltoallv -------------------------------------------------------- */

static void blocking_alltoallv(int e) {
  int send[256], recv[256], sc[64], sd[64], rc[64], rd[64], sa = 0, ra = 0;
  for (int j = 0; j < size; ++j) {
    sc[j] = a2a(rank, j);
    sd[j] = sa;
    for (int i = 0; i < sc[j]; ++i) send[sa + i] = -val(rank, j * 10 + i, e);
    sa += sc[j];
    rc[j] = a2a(j, rank);
    rd[j] = ra;
    ra += rc[j];
  }
  CHECK_MPI(MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < rc[j]; ++i) CHECK(recv[rd[j] + i] == -val(j, rank * 10 + i, e));
}

/* `derived`: the send side through the strided type (displacements in its extent). */
static void test_alltoallv(int derived, int in_place) {
  int send[512], recv[512], sc[64], sd[64], rc[64], rd[64], sa = 0, ra = 0;
  for (int j = 0; j < size; ++j) {
    sc[j] = a2a(rank, j);
    sd[j] = sa;
    sa += sc[j] + 1;
    rc[j] = a2a(j, rank);
    rd[j] = ra;
    ra += rc[j] + 2;
  }
  MPI_Datatype st = derived ? strided() : MPI_INT;
  MPI_Request r;
  CHECK_MPI(MPI_Alltoallv_init(in_place ? MPI_IN_PLACE : send, sc, sd, st, recv, rc, rd, MPI_INT, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &r));
  if (derived) CHECK_MPI(MPI_Type_free(&st));
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 512; ++i) send[i] = recv[i] = -1;
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < sc[j]; ++i) {
        if (in_place)
          recv[rd[j] + i] = val(rank, j * 10 + i, e);
        else
          send[derived ? 2 * (sd[j] + i) : sd[j] + i] = val(rank, j * 10 + i, e);
      }
    around(&r, e % 2 ? blocking_alltoallv : NULL, e);
    for (int j = 0; j < size; ++j) {
      for (int i = 0; i < rc[j]; ++i) CHECK(recv[rd[j] + i] == val(j, rank * 10 + i, e));
      CHECK(recv[rd[j] + rc[j]] == -1);
    }
  }
  check_planned(before, STARTS, expect_plan(1), "alltoallv");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- alltoallw -------------------------------------------------------- */

static void blocking_alltoallw(int e) {
  int send[256], recv[256], sc[64], sd[64], rc[64], rd[64], sa = 0, ra = 0;
  MPI_Datatype t[64];
  for (int j = 0; j < size; ++j) {
    t[j] = MPI_INT;
    sc[j] = a2a(rank, j);
    sd[j] = sa * (int)sizeof(int);
    for (int i = 0; i < sc[j]; ++i) send[sa + i] = -val(rank, j * 10 + i, e);
    sa += sc[j];
    rc[j] = a2a(j, rank);
    rd[j] = ra * (int)sizeof(int);
    ra += rc[j];
  }
  CHECK_MPI(MPI_Alltoallw(send, sc, sd, t, recv, rc, rd, t, MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < rc[j]; ++i) CHECK(recv[rd[j] / (int)sizeof(int) + i] == -val(j, rank * 10 + i, e));
}

/* A datatype per block: the blocks to odd ranks through the strided type
 * (freed after _init), the others MPI_INT; byte displacements with gaps. */
static void test_alltoallw(void) {
  int send[512], recv[512], sc[64], sd[64], rc[64], rd[64], sa = 0, ra = 0;
  MPI_Datatype st[64], rt[64], strided_t = strided();
  for (int j = 0; j < size; ++j) {
    st[j] = j % 2 ? strided_t : MPI_INT;
    rt[j] = MPI_INT;
    sc[j] = a2a(rank, j);
    sd[j] = sa * (int)sizeof(int);
    sa += 2 * sc[j] + 1;
    rc[j] = a2a(j, rank);
    rd[j] = ra * (int)sizeof(int);
    ra += rc[j] + 1;
  }
  MPI_Request r;
  CHECK_MPI(MPI_Alltoallw_init(send, sc, sd, st, recv, rc, rd, rt, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Type_free(&strided_t));
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 512; ++i) send[i] = recv[i] = -1;
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < sc[j]; ++i) send[sd[j] / (int)sizeof(int) + (j % 2 ? 2 * i : i)] = val(rank, j * 10 + i, e);
    around(&r, e % 2 ? blocking_alltoallw : NULL, e);
    for (int j = 0; j < size; ++j) {
      for (int i = 0; i < rc[j]; ++i) CHECK(recv[rd[j] / (int)sizeof(int) + i] == val(j, rank * 10 + i, e));
      CHECK(recv[rd[j] / (int)sizeof(int) + rc[j]] == -1);
    }
  }
  check_planned(before, STARTS, expect_plan(1), "alltoallw");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- reduce_scatter(_block) ------------------------------------------- */

static void blocking_reduce_scatter(int e) {
  int send[256], recv[256], rc[64], total = 0;
  for (int j = 0; j < size; ++j) total += rc[j] = cnt(j);
  for (int i = 0; i < total; ++i) send[i] = -val(rank, i, e);
  CHECK_MPI(MPI_Reduce_scatter(send, recv, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  int at = 0;
  for (int j = 0; j < rank; ++j) at += cnt(j);
  for (int i = 0; i < cnt(rank); ++i) {
    int want = 0;
    for (int p = 0; p < size; ++p) want -= val(p, at + i, e);
    CHECK(recv[i] == want);
  }
}

static void blocking_reduce_scatter_block(int e) {
  int send[256], recv[4];
  for (int i = 0; i < 3 * size; ++i) send[i] = -val(rank, i, e);
  CHECK_MPI(MPI_Reduce_scatter_block(send, recv, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < 3; ++i) {
    int want = 0;
    for (int p = 0; p < size; ++p) want -= val(p, 3 * rank + i, e);
    CHECK(recv[i] == want);
  }
}

/* block: reduce_scatter_block with 3 each, else reduce_scatter with cnt(j). */
static void test_reduce_scatter(int block, int in_place) {
  int send[256], recv[256], rc[64], total = 0, at = 0;
  for (int j = 0; j < size; ++j) {
    rc[j] = block ? 3 : cnt(j);
    if (j < rank) at += rc[j];
    total += rc[j];
  }
  MPI_Request r;
  if (block)
    CHECK_MPI(MPI_Reduce_scatter_block_init(in_place ? MPI_IN_PLACE : send, recv, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                            MPI_INFO_NULL, &r));
  else
    CHECK_MPI(MPI_Reduce_scatter_init(in_place ? MPI_IN_PLACE : send, recv, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &r));
  for (int j = 0; j < size; ++j) rc[j] = -7; /* the copy at _init is what counts */
  const MPI_Count before = counter("coll_persistent_planned");
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 256; ++i) recv[i] = send[i] = -1;
    for (int i = 0; i < total; ++i) (in_place ? recv : send)[i] = val(rank, i, e);
    around(&r, e % 2 ? (block ? blocking_reduce_scatter_block : blocking_reduce_scatter) : NULL, e);
    const int mine = block ? 3 : cnt(rank);
    for (int i = 0; i < mine; ++i) {
      int want = 0;
      for (int p = 0; p < size; ++p) want += val(p, at + i, e);
      CHECK(recv[i] == want);
    }
    if (!in_place) CHECK(recv[mine] == -1);
  }
  check_planned(before, STARTS, expect_plan(0), block ? "reduce_scatter_block" : "reduce_scatter");
  CHECK_MPI(MPI_Request_free(&r));
}

/* ---- neighbourhood ---------------------------------------------------- */

/* The five neighbourhood forms on a ring of all ranks (periodic: at np 1 and
 * 2 one rank is both neighbours; else the ends have MPI_PROC_NULL), each
 * started many times with the blocking form between start and wait. The
 * plan (coll::plan_neighbor) needs single copy, as the segment way does. */
static void test_neighbor(int periodic) {
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {periodic};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  int me, left, right;
  MPI_Comm_rank(ring, &me);
  CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
  int sb[4], rb[4], bb[4], sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {2, 1}, rd[2] = {0, 2};
  MPI_Aint sdw[2] = {0, sizeof(int)}, rdw[2] = {0, 2 * sizeof(int)};
  MPI_Datatype tw[2] = {MPI_INT, MPI_INT};
  const int gc[2] = {1, 1}, gd[2] = {1, 0};
  MPI_Request r[5];
  CHECK_MPI(MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Neighbor_allgatherv_init(sb, 1, MPI_INT, rb, gc, gd, MPI_INT, ring, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Neighbor_alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ring, MPI_INFO_NULL, &r[3]));
  CHECK_MPI(MPI_Neighbor_alltoallw_init(sb, sc, sdw, tw, rb, rc, rdw, tw, ring, MPI_INFO_NULL, &r[4]));
  const MPI_Count before = counter("coll_persistent_planned");
#define FROM(q, v) ((q) == MPI_PROC_NULL ? -1 : (v))
  for (int e = 0; e < STARTS; ++e)
    for (int f = 0; f < 5; ++f) {
      for (int i = 0; i < 4; ++i) {
        sb[i] = 100 * me + 10 * i + e;
        rb[i] = bb[i] = -1;
      }
      CHECK_MPI(MPI_Start(&r[f]));
      if (e % 2) { /* the blocking form of the same family, between start and wait */
        CHECK_MPI(MPI_Neighbor_alltoall(sb, 1, MPI_INT, bb, 1, MPI_INT, ring));
        CHECK(bb[0] == FROM(left, 100 * left + 10 + e) && bb[1] == FROM(right, 100 * right + e));
      }
      CHECK_MPI(MPI_Wait(&r[f], MPI_STATUS_IGNORE));
      if (f == 0) CHECK(rb[0] == FROM(left, 100 * left + e) && rb[1] == FROM(right, 100 * right + e));
      if (f == 1) CHECK(rb[1] == FROM(left, 100 * left + e) && rb[0] == FROM(right, 100 * right + e));
      if (f == 2) CHECK(rb[0] == FROM(left, 100 * left + 10 + e) && rb[1] == FROM(right, 100 * right + e));
      if (f >= 3)
        CHECK(rb[0] == FROM(left, 100 * left + 10 + e) && rb[1] == FROM(left, 100 * left + 20 + e) &&
              rb[2] == FROM(right, 100 * right + e));
    }
#undef FROM
  check_planned(before, 5 * STARTS, forced_messages || size < 2 ? 0 : single_copy ? 1 : 0, "neighbour");
  for (int f = 0; f < 5; ++f) CHECK_MPI(MPI_Request_free(&r[f]));
  CHECK_MPI(MPI_Comm_free(&ring));
}

/* A send block aliasing a receive block (erroneous): no plan is made, and
 * each start reports MPI_ERR_BUFFER as the nonblocking form does (every
 * rank aliases, so none starts). */
static void test_alias(void) {
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN));
  int buf[64], c[64], dd[64], cls;
  for (int j = 0; j < size; ++j) {
    c[j] = 1;
    dd[j] = j;
  }
  MPI_Request r;
  const MPI_Count before = counter("coll_persistent_planned");
  CHECK_MPI(MPI_Alltoallv_init(buf, c, dd, MPI_INT, buf, c, dd, MPI_INT, d, MPI_INFO_NULL, &r));
  for (int e = 0; e < 2; ++e) {
    MPI_Error_class(MPI_Start(&r), &cls);
    CHECK(cls == MPI_ERR_BUFFER);
  }
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Reduce_scatter_init(buf, buf, c, MPI_INT, MPI_SUM, d, MPI_INFO_NULL, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Request_free(&r));
  /* The uniform families alike (each rank's send block is one of its receive blocks). */
  CHECK_MPI(MPI_Allgather_init(buf + rank, 1, MPI_INT, buf, 1, MPI_INT, d, MPI_INFO_NULL, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Alltoall_init(buf, 1, MPI_INT, buf, 1, MPI_INT, d, MPI_INFO_NULL, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Allreduce_init(buf, buf, 2, MPI_INT, MPI_SUM, d, MPI_INFO_NULL, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Scan_init(buf, buf, 2, MPI_INT, MPI_SUM, d, MPI_INFO_NULL, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(counter("coll_persistent_planned") == before);
  CHECK_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size <= 64);
#ifdef FORCED_MESSAGES
  forced_messages = 1;
#endif
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the segment attaches */
  single_copy = counter("smsc_fallback") == 0;
  for (int derived = 0; derived < 2; ++derived)
    for (int in_place = 0; in_place < 2; ++in_place) {
      test_gatherv(0, derived, in_place);
      test_gatherv(size - 1, derived, in_place);
      test_scatterv(0, derived, in_place);
      test_scatterv(size - 1, derived, in_place);
      if (!(derived && in_place)) {
        test_allgatherv(derived, in_place);
        test_alltoallv(derived, in_place);
      }
    }
  test_alltoallw();
  for (int in_place = 0; in_place < 2; ++in_place) {
    test_reduce_scatter(0, in_place);
    test_reduce_scatter(1, in_place);
  }
  test_neighbor(1);
  test_neighbor(0);
  test_alias();
  if (rank == 0) printf("coll_persist_vw: %d ranks ok%s\n", size, forced_messages ? " (messages)" : "");
  CHECK_MPI(MPI_Finalize());
  return 0;
}
