/* Intercommunicators: Intercomm_create (a pending user message with the
 * same tag on peer_comm survives it), test_inter, remote size/group,
 * point-to-point across, barrier, dup, compare, merge (both `high` orders
 * and equal `high`), split and create on intercommunicators, free. */
#include <stdlib.h>

#include "check.h"

static int wrank, wsize;

/* World ranks of the two groups: evens (group 0) and odds (group 1). */
static int group_size(int g) { return (wsize - g + 1) / 2; }
static int world_of(int g, int i) { return 2 * i + g; }

static void all_to_all_across(MPI_Comm ic, int tag) {
  int lr, ls, rs;
  CHECK_MPI(MPI_Comm_rank(ic, &lr));
  CHECK_MPI(MPI_Comm_size(ic, &ls));
  CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
  MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)rs);
  int *out = malloc(sizeof(int) * (size_t)rs);
  for (int j = 0; j < rs; ++j) {
    out[j] = 1000 * lr + j;
    CHECK_MPI(MPI_Isend(&out[j], 1, MPI_INT, j, tag, ic, &reqs[j]));
  }
  for (int j = rs - 1; j >= 0; --j) {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, j, tag, ic, &st));
    CHECK(v == 1000 * j + lr);
    CHECK(st.MPI_SOURCE == j && st.MPI_TAG == tag);
  }
  /* ANY_SOURCE reports remote ranks too. */
  if (lr == 0) {
    for (int j = 0; j < rs; ++j) {
      int v = j;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, j, tag + 1, ic));
    }
  }
  {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag + 1, ic, &st));
    CHECK(st.MPI_SOURCE == 0 && v == lr);
  }
  MPI_Status *sts = malloc(sizeof(MPI_Status) * (size_t)rs);
  CHECK_MPI(MPI_Waitall(rs, reqs, sts));
  free(sts);
  free(reqs);
  free(out);
}

static void check_merged(MPI_Comm m, int first_group) {
  int n, r;
  CHECK_MPI(MPI_Comm_size(m, &n));
  CHECK_MPI(MPI_Comm_rank(m, &r));
  CHECK(n == wsize);
  const int g = wrank % 2, i = wrank / 2;
  const int expect = g == first_group ? i : group_size(first_group) + i;
  CHECK(r == expect);
  /* The merged communicator works: ring shift of world ranks. */
  int left = -1;
  MPI_Request q;
  CHECK_MPI(MPI_Irecv(&left, 1, MPI_INT, (r - 1 + n) % n, 0, m, &q));
  CHECK_MPI(MPI_Send(&wrank, 1, MPI_INT, (r + 1) % n, 0, m));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  const int lpos = (r - 1 + n) % n;
  const int lg = lpos < group_size(first_group) ? first_group : 1 - first_group;
  const int li = lpos < group_size(first_group) ? lpos : lpos - group_size(first_group);
  CHECK(left == world_of(lg, li));
  CHECK_MPI(MPI_Barrier(m));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wrank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &wsize));
  CHECK(wsize >= 2);
  const int g = wrank % 2, other = 1 - g;
  MPI_Comm local;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g, wrank, &local));

  /* World rank 0 (group 0's leader) leaves a message with the very tag the
   * leaders will use on MPI_COMM_WORLD; world rank 1 takes it afterwards. */
  const int tag = 42;
  int pending = 4242;
  if (wrank == 0) CHECK_MPI(MPI_Send(&pending, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
  MPI_Comm ic;
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, other, tag, &ic));
  if (wrank == 1) {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(v == 4242 && st.MPI_SOURCE == 0 && st.MPI_TAG == tag);
  }

  int flag = -1, ls, lr, rs, res;
  CHECK_MPI(MPI_Comm_test_inter(ic, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Comm_test_inter(local, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_size(ic, &ls));
  CHECK_MPI(MPI_Comm_rank(ic, &lr));
  CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
  CHECK(ls == group_size(g) && lr == wrank / 2 && rs == group_size(other));

  /* The remote group holds the other parity's world ranks, in order. */
  MPI_Group rg, wg, lg;
  CHECK_MPI(MPI_Comm_remote_group(ic, &rg));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
  int n = -1;
  CHECK_MPI(MPI_Group_size(rg, &n));
  CHECK(n == rs);
  for (int i = 0; i < rs; ++i) {
    int w = -1;
    CHECK_MPI(MPI_Group_translate_ranks(rg, 1, &i, wg, &w));
    CHECK(w == world_of(other, i));
  }
  CHECK_MPI(MPI_Comm_group(ic, &lg));
  CHECK_MPI(MPI_Group_compare(lg, rg, &res));
  CHECK(res == MPI_UNEQUAL);
  CHECK_MPI(MPI_Group_free(&lg));
  CHECK_MPI(MPI_Group_free(&rg));
  CHECK_MPI(MPI_Group_free(&wg));

  all_to_all_across(ic, 10);
  CHECK_MPI(MPI_Barrier(ic));

  /* dup: congruent, and its traffic is its own. */
  MPI_Comm icd;
  CHECK_MPI(MPI_Comm_dup(ic, &icd));
  CHECK_MPI(MPI_Comm_test_inter(icd, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Comm_compare(ic, icd, &res));
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_compare(ic, ic, &res));
  CHECK(res == MPI_IDENT);
  CHECK_MPI(MPI_Comm_compare(ic, local, &res));
  CHECK(res == MPI_UNEQUAL);
  {
    int a = 1, b = 2, x = 0, y = 0;
    MPI_Request q[2];
    CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 3, ic, &q[0]));
    CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, 0, 3, icd, &q[1]));
    if (lr == 0) {
      for (int j = 0; j < rs; ++j) {
        CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, j, 3, icd, MPI_STATUS_IGNORE));
        CHECK(y == 2);
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, j, 3, ic, MPI_STATUS_IGNORE));
        CHECK(x == 1);
      }
    }
    MPI_Status qs[2];
    CHECK_MPI(MPI_Waitall(2, q, qs));
  }
  all_to_all_across(icd, 20);
  CHECK_MPI(MPI_Barrier(icd));

  /* merge: low group first; swapped; equal high gives one agreed order. */
  MPI_Comm m;
  CHECK_MPI(MPI_Intercomm_merge(ic, g == 1, &m));
  check_merged(m, 0);
  CHECK_MPI(MPI_Comm_free(&m));
  CHECK_MPI(MPI_Intercomm_merge(icd, g == 0, &m));
  check_merged(m, 1);
  CHECK_MPI(MPI_Comm_free(&m));
  CHECK_MPI(MPI_Intercomm_merge(ic, 1, &m));
  {
    /* Whichever group comes first, everybody agrees: rank 0 of m tells all. */
    int r, first = -1;
    CHECK_MPI(MPI_Comm_rank(m, &r));
    if (r == 0) first = g;
    if (r == 0)
      for (int q = 1; q < wsize; ++q) CHECK_MPI(MPI_Send(&first, 1, MPI_INT, q, 1, m));
    else
      CHECK_MPI(MPI_Recv(&first, 1, MPI_INT, 0, 1, m, MPI_STATUS_IGNORE));
    check_merged(m, first);
  }
  CHECK_MPI(MPI_Comm_free(&m));

  /* split on an intercommunicator: colour = local rank parity on both sides. */
  MPI_Comm sp;
  CHECK_MPI(MPI_Comm_split(ic, lr % 2, -lr, &sp));
  {
    const int mine = (ls - lr % 2 + 1) / 2, theirs = (rs - lr % 2 + 1) / 2;
    if (theirs == 0) {
      CHECK(sp == MPI_COMM_NULL);
    } else {
      int a, b, c;
      CHECK_MPI(MPI_Comm_test_inter(sp, &flag));
      CHECK(flag == 1);
      CHECK_MPI(MPI_Comm_size(sp, &a));
      CHECK_MPI(MPI_Comm_remote_size(sp, &b));
      CHECK_MPI(MPI_Comm_rank(sp, &c));
      CHECK(a == mine && b == theirs);
      int expect = 0;
      for (int q = lr + 2; q < ls; q += 2) ++expect; /* reversed keys */
      CHECK(c == expect);
      all_to_all_across(sp, 30);
      CHECK_MPI(MPI_Barrier(sp));
      CHECK_MPI(MPI_Comm_free(&sp));
    }
  }
  /* MPI_UNDEFINED on one side only: nobody gets a communicator. */
  CHECK_MPI(MPI_Comm_split(ic, g == 0 ? MPI_UNDEFINED : 0, 0, &sp));
  CHECK(sp == MPI_COMM_NULL);

  /* create on an intercommunicator: each side keeps all but its last rank
   * (a side of one keeps itself). */
  {
    MPI_Group lgrp, sub;
    CHECK_MPI(MPI_Comm_group(ic, &lgrp));
    int keep = ls > 1 ? ls - 1 : 1, rkeep = rs > 1 ? rs - 1 : 1;
    int rr[8];
    for (int i = 0; i < keep; ++i) rr[i] = i;
    CHECK_MPI(MPI_Group_incl(lgrp, keep, rr, &sub));
    MPI_Comm cr;
    CHECK_MPI(MPI_Comm_create(ic, sub, &cr));
    if (lr >= keep) {
      CHECK(cr == MPI_COMM_NULL);
    } else {
      int a, b;
      CHECK_MPI(MPI_Comm_size(cr, &a));
      CHECK_MPI(MPI_Comm_remote_size(cr, &b));
      CHECK(a == keep && b == rkeep);
      all_to_all_across(cr, 40);
      CHECK_MPI(MPI_Comm_free(&cr));
    }
    /* The empty group on one side: MPI_COMM_NULL everywhere. */
    CHECK_MPI(MPI_Comm_create(ic, g == 0 ? MPI_GROUP_EMPTY : lgrp, &cr));
    CHECK(cr == MPI_COMM_NULL);
    CHECK_MPI(MPI_Group_free(&sub));
    CHECK_MPI(MPI_Group_free(&lgrp));
  }

  /* A second intercommunicator over a dup of WORLD with other leaders. */
  MPI_Comm peer, ic2;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &peer));
  const int my_leader = ls - 1; /* the last rank of each group leads */
  const int remote_leader_world = world_of(other, group_size(other) - 1);
  CHECK_MPI(MPI_Intercomm_create(local, my_leader, peer, remote_leader_world, 0, &ic2));
  CHECK_MPI(MPI_Comm_compare(ic, ic2, &res));
  CHECK(res == MPI_CONGRUENT);
  all_to_all_across(ic2, 50);
  CHECK_MPI(MPI_Comm_free(&ic2));
  CHECK_MPI(MPI_Comm_free(&peer));

  CHECK_MPI(MPI_Comm_free(&icd));
  CHECK_MPI(MPI_Comm_free(&ic));
  CHECK(ic == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_free(&local));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
