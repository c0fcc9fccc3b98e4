/* Intracommunicators: size/rank, compare, dup (with info), split (key
 * order, ties, MPI_UNDEFINED), split_type, create (MPI-1 and MPI-2.2
 * forms), create_group, names, free, c2f/f2c, barrier, and that every
 * communicator's traffic stays in it. */
#include <string.h>

#include "check.h"

static int wrank, wsize;

/* A ring shift on comm: returns what the left neighbour sent (its world rank). */
static int ring_world_left(MPI_Comm comm, int tag) {
  int r, n, got = -1;
  CHECK_MPI(MPI_Comm_rank(comm, &r));
  CHECK_MPI(MPI_Comm_size(comm, &n));
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, (r - 1 + n) % n, tag, comm, &req));
  CHECK_MPI(MPI_Send(&wrank, 1, MPI_INT, (r + 1) % n, tag, comm));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  return got;
}

/* World rank of rank r of comm, through the groups. */
static int world_of(MPI_Comm comm, int r) {
  MPI_Group g, wg;
  int w = -1;
  CHECK_MPI(MPI_Comm_group(comm, &g));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
  CHECK_MPI(MPI_Group_translate_ranks(g, 1, &r, wg, &w));
  CHECK_MPI(MPI_Group_free(&g));
  CHECK_MPI(MPI_Group_free(&wg));
  return w;
}

static void names(void) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
  CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14);
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
  CHECK(strcmp(name, "MPI_COMM_SELF") == 0 && len == 13);
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_get_name(d, name, &len));
  CHECK(len == 0 && name[0] == '\0');
  CHECK_MPI(MPI_Comm_set_name(d, "solver"));
  CHECK_MPI(MPI_Comm_get_name(d, name, &len));
  CHECK(strcmp(name, "solver") == 0 && len == 6);
  MPI_Comm dd;
  CHECK_MPI(MPI_Comm_dup(d, &dd));
  CHECK_MPI(MPI_Comm_get_name(dd, name, &len));
  CHECK(len == 0); /* names are not inherited */
  char longname[300];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  CHECK_MPI(MPI_Comm_set_name(dd, longname));
  CHECK_MPI(MPI_Comm_get_name(dd, name, &len));
  CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len);
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "world renamed"));
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
  CHECK(strcmp(name, "world renamed") == 0);
  CHECK_MPI(MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD"));
  CHECK_MPI(MPI_Comm_free(&dd));
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK(d == MPI_COMM_NULL && dd == MPI_COMM_NULL);
}

static void compare_and_dup(void) {
  int res = -1, flag = -1;
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
  CHECK(res == MPI_IDENT);
  MPI_Comm d, d2, di;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_dup_with_info(d, MPI_INFO_NULL, &di));
  CHECK_MPI(MPI_Comm_dup(d, &d2));
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, d, &res));
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(d2, di, &res));
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &res));
  CHECK(res == (wsize == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
  CHECK_MPI(MPI_Comm_test_inter(d, &flag));
  CHECK(flag == 0);
  int s = -1, r = -1;
  CHECK_MPI(MPI_Comm_size(di, &s));
  CHECK_MPI(MPI_Comm_rank(di, &r));
  CHECK(s == wsize && r == wrank);

  /* Same tag, same peers, four communicators: each message lands in its own.
   * Sends go out in one order, receives are posted in the reverse order. */
  MPI_Comm cs[4] = {MPI_COMM_WORLD, d, d2, di};
  const int to = (wrank + 1) % wsize, from = (wrank - 1 + wsize) % wsize;
  MPI_Request sreq[4];
  int out[4], in[4];
  for (int i = 0; i < 4; ++i) {
    out[i] = 100 * i + wrank;
    CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, to, 5, cs[i], &sreq[i]));
  }
  for (int i = 3; i >= 0; --i) {
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&in[i], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, cs[i], &st));
    CHECK(in[i] == 100 * i + from);
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 5);
  }
  MPI_Status sst[4];
  CHECK_MPI(MPI_Waitall(4, sreq, sst));

  /* A user message pending across a barrier on the same communicator is
   * neither taken nor disturbed by the barrier's own traffic. */
  int v = 7000 + wrank, w = -1;
  MPI_Request rq;
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, d, &rq));
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Barrier(d));
  int done = -1;
  CHECK_MPI(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
  CHECK(!done);
  CHECK_MPI(MPI_Barrier(d)); /* nobody sends before everybody has tested */
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, to, 9, d));
  CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
  CHECK(w == 7000 + from);

  MPI_Fint f = MPI_Comm_c2f(d);
  CHECK(MPI_Comm_f2c(f) == d);
  CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK_MPI(MPI_Comm_free(&d2));
  CHECK_MPI(MPI_Comm_free(&di));
}

static void split(void) {
  /* Colour by parity, key reverses the order. */
  MPI_Comm s;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &s));
  int n = -1, r = -1;
  CHECK_MPI(MPI_Comm_size(s, &n));
  CHECK_MPI(MPI_Comm_rank(s, &r));
  const int same = (wsize - wrank % 2 + 1) / 2; /* ranks with my parity */
  CHECK(n == same);
  /* Exact position: count ranks of my parity with a smaller key (larger rank). */
  int expect = 0;
  for (int q = wrank + 2; q < wsize; q += 2) ++expect;
  CHECK(r == expect);
  CHECK(world_of(s, r) == wrank);
  /* left neighbour in the reversed order is the next larger rank of my parity */
  int left = ring_world_left(s, 3);
  int want = wrank + 2 < wsize ? wrank + 2 : wrank % 2;
  CHECK(left == want);
  CHECK_MPI(MPI_Barrier(s));
  if (wsize > 1) {
    int res;
    CHECK_MPI(MPI_Comm_compare(s, MPI_COMM_WORLD, &res));
    CHECK(res == MPI_UNEQUAL);
  }

  /* Equal keys keep the old order; split of a split. */
  MPI_Comm t;
  CHECK_MPI(MPI_Comm_split(s, 0, 0, &t));
  CHECK_MPI(MPI_Comm_rank(t, &r));
  CHECK(r == expect);
  int res;
  CHECK_MPI(MPI_Comm_compare(s, t, &res));
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_free(&t));

  /* Everybody in one colour with reversed keys: SIMILAR to WORLD. */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 3, wsize - wrank, &t));
  CHECK_MPI(MPI_Comm_compare(t, MPI_COMM_WORLD, &res));
  CHECK(res == (wsize == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
  CHECK_MPI(MPI_Comm_rank(t, &r));
  CHECK(r == wsize - 1 - wrank);
  CHECK_MPI(MPI_Comm_free(&t));

  /* MPI_UNDEFINED: no communicator for rank 0, the others still get theirs. */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, wrank == 0 ? MPI_UNDEFINED : 1, 0, &t));
  if (wrank == 0) {
    CHECK(t == MPI_COMM_NULL);
  } else {
    CHECK_MPI(MPI_Comm_size(t, &n));
    CHECK(n == wsize - 1);
    CHECK(ring_world_left(t, 4) == (wrank == 1 ? wsize - 1 : wrank - 1));
    CHECK_MPI(MPI_Comm_free(&t));
  }

  /* One colour per rank. */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, wrank, 0, &t));
  CHECK_MPI(MPI_Comm_size(t, &n));
  CHECK(n == 1);
  CHECK_MPI(MPI_Barrier(t));
  CHECK_MPI(MPI_Comm_free(&t));
  CHECK_MPI(MPI_Comm_free(&s));
}

static void split_type(void) {
  MPI_Comm t;
  int n = -1, r = -1;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -wrank, MPI_INFO_NULL, &t));
  CHECK_MPI(MPI_Comm_size(t, &n));
  CHECK_MPI(MPI_Comm_rank(t, &r));
  CHECK(n == wsize && r == wsize - 1 - wrank); /* one node: everybody shares memory */
  CHECK_MPI(MPI_Comm_free(&t));
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, wrank == 1 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                                MPI_INFO_NULL, &t));
  if (wrank == 1) {
    CHECK(t == MPI_COMM_NULL);
  } else {
    CHECK_MPI(MPI_Comm_size(t, &n));
    CHECK(n == (wsize > 1 ? wsize - 1 : 1));
    CHECK_MPI(MPI_Comm_free(&t));
  }
  /* Every rank lands in exactly one NUMA communicator, in key order. */
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, RMPI_COMM_TYPE_NUMA, wrank, MPI_INFO_NULL, &t));
  CHECK(t != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_size(t, &n));
  CHECK(n >= 1 && n <= wsize);
  CHECK_MPI(MPI_Barrier(t));
  CHECK_MPI(MPI_Comm_free(&t));
}

static void create(void) {
  MPI_Group world, evens, odds, mine;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int ev[8], od[8], ne = 0, no = 0;
  for (int q = 0; q < wsize; ++q) {
    if (q % 2) od[no++] = q;
    else ev[ne++] = q;
  }
  CHECK_MPI(MPI_Group_incl(world, ne, ev, &evens));
  CHECK_MPI(MPI_Group_incl(world, no, od, &odds));

  /* MPI-1 form: everybody passes the same group. */
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &c));
  int n = -1, r = -1;
  if (wrank % 2) {
    CHECK(c == MPI_COMM_NULL);
  } else {
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK(n == ne && r == wrank / 2);
    CHECK(ring_world_left(c, 1) == (wrank == 0 ? ev[ne - 1] : wrank - 2));
    CHECK_MPI(MPI_Comm_free(&c));
  }

  /* MPI-2.2 form: disjoint groups, one per parity, made by one call. */
  mine = wrank % 2 ? odds : evens;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, mine, &c));
  CHECK(c != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_size(c, &n));
  CHECK(n == (wrank % 2 ? no : ne));
  CHECK(ring_world_left(c, 2) == (wrank < 2 ? (wrank % 2 ? od[no - 1] : ev[ne - 1]) : wrank - 2));
  CHECK_MPI(MPI_Barrier(c));

  /* A subgroup of the new communicator, in reversed order. */
  MPI_Group cg, rev;
  CHECK_MPI(MPI_Comm_group(c, &cg));
  int rr[8];
  for (int i = 0; i < n; ++i) rr[i] = n - 1 - i;
  CHECK_MPI(MPI_Group_incl(cg, n, rr, &rev));
  MPI_Comm c2;
  CHECK_MPI(MPI_Comm_create(c, rev, &c2));
  CHECK_MPI(MPI_Comm_rank(c, &r));
  int r2;
  CHECK_MPI(MPI_Comm_rank(c2, &r2));
  CHECK(r2 == n - 1 - r);
  int res;
  CHECK_MPI(MPI_Comm_compare(c, c2, &res));
  CHECK(res == (n == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
  CHECK_MPI(MPI_Comm_free(&c2));
  CHECK_MPI(MPI_Group_free(&rev));
  CHECK_MPI(MPI_Group_free(&cg));
  CHECK_MPI(MPI_Comm_free(&c));

  /* The empty group: nobody gets a communicator. */
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
  CHECK(c == MPI_COMM_NULL);

  /* create_group: only the evens call, in reversed order, with a tag. */
  if (wrank % 2 == 0) {
    MPI_Group re;
    int rv[8];
    for (int i = 0; i < ne; ++i) rv[i] = ne - 1 - i;
    CHECK_MPI(MPI_Group_incl(evens, ne, rv, &re));
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, re, 77, &c));
    CHECK_MPI(MPI_Comm_rank(c, &r));
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n == ne && r == ne - 1 - wrank / 2);
    CHECK(world_of(c, r) == wrank);
    CHECK_MPI(MPI_Barrier(c));
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Group_free(&re));
  } else {
    /* Concurrently the odds do the same on their own group. */
    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 78, &c));
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n == no);
    CHECK_MPI(MPI_Comm_free(&c));
  }
  /* Not a member: MPI_COMM_NULL at once. */
  CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 1, &c));
  CHECK(c == MPI_COMM_NULL);
  CHECK_MPI(MPI_Group_free(&evens));
  CHECK_MPI(MPI_Group_free(&odds));
  CHECK_MPI(MPI_Group_free(&world));
}

static void self(void) {
  MPI_Comm d;
  int n = -1, r = -1, res;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &d));
  CHECK_MPI(MPI_Comm_size(d, &n));
  CHECK_MPI(MPI_Comm_rank(d, &r));
  CHECK(n == 1 && r == 0);
  CHECK_MPI(MPI_Comm_compare(d, MPI_COMM_SELF, &res));
  CHECK(res == MPI_CONGRUENT);
  int v = 42, w = 0;
  MPI_Request q;
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, 0, 0, d, &q));
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 0, d));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  CHECK(w == 42);
  CHECK_MPI(MPI_Barrier(MPI_COMM_SELF));
  CHECK_MPI(MPI_Barrier(d));
  CHECK_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  names();
  compare_and_dup();
  split();
  split_type();
  create();
  self();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
