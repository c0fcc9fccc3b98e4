/* Zero counts mixed with real data in every collective family (issue 36,
 * point 6): blocking, nonblocking and persistent forms, the v and w forms
 * with all counts zero and with some ranks' blocks empty and others not, in
 * place, on intracommunicators (MPI_COMM_WORLD and a duplicate) and an
 * intercommunicator. Every zero-count call is followed by real calls of the
 * same family whose data is checked, and a nonblocking real call is kept in
 * flight across the zero ones, so that a zero call that skipped a sequence
 * number, a schedule tag or a message on one rank but not on its partners
 * shows as wrong data or a hang. Buffers that a zero call names are checked
 * untouched. The counter coll_zero_byte grows by exactly the number of
 * calls whose arguments tell every rank that nothing moves (the uniform
 * forms with count 0, MPI_Allgatherv with all recvcounts 0, MPI_Gatherv and
 * MPI_Scatterv on two ranks when the non-root's block is empty) on
 * intracommunicators; it stays under mpiexec --check (argument "check").
 * meson runs it at np 1, 2, 3, 5 and with each family forced to the
 * segment, to messages and to schedules (RINGMPI_COLL_<FAMILY>), so every
 * algorithm meets the zero case. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "../counter.h"

enum { MAXP = 16, UNTOUCHED = -77 };

static int check_mode;
static long long skipped; /* calls expected to return at once (coll_zero_byte) */
static int seq;           /* changes the data of every real call */

/* A block size that is 0 for some (i, j) and not for others. */
static int mixed(int i, int j) { return (i + 2 * j + seq) % 3; }

static void wait_done(MPI_Request* r) {
  CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
  CHECK(*r == MPI_REQUEST_NULL);
}

/* MPI_Gatherv and MPI_Scatterv on two ranks (these helpers run on
 * intracommunicators) return at once when the one block that would travel,
 * the non-root's (`pair`), is empty: both ranks know it. */
static void pair_skip(int n, int pair) {
  if (n == 2 && pair == 0 && !check_mode) ++skipped;
}

/* Gatherv from root with rank i's block counts[i] long (counts known at the
 * root; a member knows its own). Checks what arrived. */
static void gatherv_checked(MPI_Comm comm, int root, const int* counts, int in_place, int nonblocking) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int displs[MAXP], total = 0;
  for (int i = 0; i < n; ++i) {
    displs[i] = total;
    total += counts[i] + 1; /* a gap of one element after each block: untouched */
  }
  int* recv = malloc(sizeof(int) * (size_t)(total + 1));
  int send[8];
  for (int i = 0; i < total + 1; ++i) recv[i] = UNTOUCHED;
  for (int k = 0; k < counts[me]; ++k) send[k] = 1000 * seq + 10 * me + k;
  if (in_place && me == root)
    for (int k = 0; k < counts[me]; ++k) recv[displs[me] + k] = send[k];
  const void* sb = in_place && me == root ? MPI_IN_PLACE : (const void*)send;
  if (nonblocking) {
    MPI_Request r;
    CHECK_MPI(MPI_Igatherv(sb, counts[me], MPI_INT, recv, counts, displs, MPI_INT, root, comm, &r));
    wait_done(&r);
  } else {
    CHECK_MPI(MPI_Gatherv(sb, counts[me], MPI_INT, recv, counts, displs, MPI_INT, root, comm));
  }
  pair_skip(n, counts[1 - root % 2]);
  if (me == root) {
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < counts[i]; ++k) CHECK(recv[displs[i] + k] == 1000 * seq + 10 * i + k);
      CHECK(recv[displs[i] + counts[i]] == UNTOUCHED);
    }
  } else {
    for (int i = 0; i < total + 1; ++i) CHECK(recv[i] == UNTOUCHED);
  }
  free(recv);
}

static void scatterv_checked(MPI_Comm comm, int root, const int* counts, int in_place, int nonblocking) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int displs[MAXP], total = 0;
  for (int i = 0; i < n; ++i) {
    displs[i] = total;
    total += counts[i];
  }
  int* send = malloc(sizeof(int) * (size_t)(total + 1));
  int recv[9];
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < counts[i]; ++k) send[displs[i] + k] = 1000 * seq + 10 * i + k;
  for (int k = 0; k < 9; ++k) recv[k] = UNTOUCHED;
  void* rb = in_place && me == root ? MPI_IN_PLACE : (void*)recv;
  if (nonblocking) {
    MPI_Request r;
    CHECK_MPI(MPI_Iscatterv(send, counts, displs, MPI_INT, rb, counts[me], MPI_INT, root, comm, &r));
    wait_done(&r);
  } else {
    CHECK_MPI(MPI_Scatterv(send, counts, displs, MPI_INT, rb, counts[me], MPI_INT, root, comm));
  }
  pair_skip(n, counts[1 - root % 2]);
  const int got = in_place && me == root ? 0 : counts[me];
  for (int k = 0; k < got; ++k) CHECK(recv[k] == 1000 * seq + 10 * me + k);
  for (int k = got; k < 9; ++k) CHECK(recv[k] == UNTOUCHED);
  free(send);
}

static void allgatherv_checked(MPI_Comm comm, const int* counts, int in_place, int nonblocking) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int displs[MAXP], total = 0, all_zero = 1;
  for (int i = 0; i < n; ++i) {
    displs[i] = total;
    total += counts[i] + 1;
    all_zero = all_zero && counts[i] == 0;
  }
  int* recv = malloc(sizeof(int) * (size_t)total);
  int send[8];
  for (int i = 0; i < total; ++i) recv[i] = UNTOUCHED;
  for (int k = 0; k < counts[me]; ++k) send[k] = recv[displs[me] + k] = 1000 * seq + 10 * me + k;
  const void* sb = in_place ? MPI_IN_PLACE : (const void*)send;
  if (nonblocking) {
    MPI_Request r;
    CHECK_MPI(MPI_Iallgatherv(sb, counts[me], MPI_INT, recv, counts, displs, MPI_INT, comm, &r));
    if (all_zero && !check_mode) {
      int flag = 0;
      CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE)); /* complete at its start */
      CHECK(flag && r == MPI_REQUEST_NULL);
    } else {
      wait_done(&r);
    }
  } else {
    CHECK_MPI(MPI_Allgatherv(sb, counts[me], MPI_INT, recv, counts, displs, MPI_INT, comm));
  }
  if (all_zero && !check_mode) ++skipped;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < counts[i]; ++k) CHECK(recv[displs[i] + k] == 1000 * seq + 10 * i + k);
    CHECK(recv[displs[i] + counts[i]] == UNTOUCHED);
  }
  free(recv);
}

/* Rank i sends f(i, j) ints to rank j; f symmetric where in place. */
static int a2a_count(int i, int j, int zero) { return zero ? 0 : (i + j + seq) % 3; }

static void alltoallv_checked(MPI_Comm comm, int zero, int in_place, int nonblocking, int w) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP], stot = 0, rtot = 0;
  MPI_Datatype types[MAXP];
  for (int j = 0; j < n; ++j) {
    sc[j] = a2a_count(me, j, zero);
    rc[j] = a2a_count(j, me, zero);
    sd[j] = stot;
    rd[j] = rtot;
    stot += sc[j];
    rtot += rc[j] + 1;
    types[j] = MPI_INT;
  }
  int send[3 * MAXP + 1], recv[4 * MAXP + 1];
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < sc[j]; ++k) send[sd[j] + k] = 1000 * seq + 100 * me + 10 * j + k;
  for (int i = 0; i < rtot; ++i) recv[i] = UNTOUCHED;
  if (in_place) /* the outgoing blocks where the incoming ones go (f symmetric) */
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < rc[j]; ++k) recv[rd[j] + k] = 1000 * seq + 100 * me + 10 * j + k;
  const void* sb = in_place ? MPI_IN_PLACE : (const void*)send;
  MPI_Request r = MPI_REQUEST_NULL;
  if (w) {
    int sdb[MAXP], rdb[MAXP];
    for (int j = 0; j < n; ++j) {
      sdb[j] = sd[j] * (int)sizeof(int);
      rdb[j] = rd[j] * (int)sizeof(int);
    }
    if (nonblocking)
      CHECK_MPI(MPI_Ialltoallw(sb, sc, sdb, types, recv, rc, rdb, types, comm, &r));
    else
      CHECK_MPI(MPI_Alltoallw(sb, sc, sdb, types, recv, rc, rdb, types, comm));
  } else if (nonblocking) {
    CHECK_MPI(MPI_Ialltoallv(sb, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm, &r));
  } else {
    CHECK_MPI(MPI_Alltoallv(sb, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, comm));
  }
  if (nonblocking) wait_done(&r);
  for (int j = 0; j < n; ++j) {
    for (int k = 0; k < rc[j]; ++k) CHECK(recv[rd[j] + k] == 1000 * seq + 100 * j + 10 * me + k);
    CHECK(recv[rd[j] + rc[j]] == UNTOUCHED);
  }
}

/* A real bcast from `root`, checked: after each zero call. */
static void real_bcast(MPI_Comm comm, int root) {
  int me;
  MPI_Comm_rank(comm, &me);
  int v[3] = {-1, -1, -1};
  if (me == root) v[0] = seq, v[1] = 2 * seq, v[2] = 3 * seq;
  CHECK_MPI(MPI_Bcast(v, 3, MPI_INT, root, comm));
  CHECK(v[0] == seq && v[1] == 2 * seq && v[2] == 3 * seq);
}

/* The uniform forms with count 0 (returning at once: counted), each
 * followed by a real call of its family. */
static void uniform_zero(MPI_Comm comm, int root, int nonblocking) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int sb[MAXP], rb[MAXP], zeros[MAXP];
  for (int i = 0; i < MAXP; ++i) sb[i] = rb[i] = UNTOUCHED, zeros[i] = 0;
  const long long k = check_mode ? 0 : 1;
  MPI_Request q[11];
  int m = 0;
#define ZERO(blocking_call, nb_call)           \
  do {                                         \
    if (nonblocking)                           \
      CHECK_MPI(nb_call);                      \
    else                                       \
      CHECK_MPI(blocking_call);                \
    skipped += k;                              \
  } while (0)
  ZERO(MPI_Bcast(rb, 0, MPI_INT, root, comm), MPI_Ibcast(rb, 0, MPI_INT, root, comm, &q[m++]));
  ZERO(MPI_Gather(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm),
       MPI_Igather(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm, &q[m++]));
  ZERO(MPI_Scatter(sb, 0, MPI_INT, me == root ? MPI_IN_PLACE : rb, 0, MPI_INT, root, comm),
       MPI_Iscatter(sb, 0, MPI_INT, me == root ? MPI_IN_PLACE : rb, 0, MPI_INT, root, comm, &q[m++]));
  ZERO(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, rb, 0, MPI_INT, comm),
       MPI_Iallgather(MPI_IN_PLACE, 0, MPI_INT, rb, 0, MPI_INT, comm, &q[m++]));
  ZERO(MPI_Alltoall(sb, 0, MPI_INT, rb, 0, MPI_INT, comm), MPI_Ialltoall(sb, 0, MPI_INT, rb, 0, MPI_INT, comm, &q[m++]));
  ZERO(MPI_Reduce(sb, rb, 0, MPI_INT, MPI_SUM, root, comm), MPI_Ireduce(sb, rb, 0, MPI_INT, MPI_SUM, root, comm, &q[m++]));
  ZERO(MPI_Allreduce(MPI_IN_PLACE, rb, 0, MPI_INT, MPI_MAX, comm),
       MPI_Iallreduce(MPI_IN_PLACE, rb, 0, MPI_INT, MPI_MAX, comm, &q[m++]));
  ZERO(MPI_Scan(sb, rb, 0, MPI_INT, MPI_SUM, comm), MPI_Iscan(sb, rb, 0, MPI_INT, MPI_SUM, comm, &q[m++]));
  ZERO(MPI_Exscan(sb, rb, 0, MPI_INT, MPI_SUM, comm), MPI_Iexscan(sb, rb, 0, MPI_INT, MPI_SUM, comm, &q[m++]));
  ZERO(MPI_Reduce_scatter(sb, rb, zeros, MPI_INT, MPI_SUM, comm),
       MPI_Ireduce_scatter(sb, rb, zeros, MPI_INT, MPI_SUM, comm, &q[m++]));
  ZERO(MPI_Reduce_scatter_block(sb, rb, 0, MPI_INT, MPI_SUM, comm),
       MPI_Ireduce_scatter_block(sb, rb, 0, MPI_INT, MPI_SUM, comm, &q[m++]));
#undef ZERO
  for (int i = 0; i < m; ++i) {
    int flag = 0;
    CHECK_MPI(MPI_Test(&q[i], &flag, MPI_STATUS_IGNORE));
    if (!check_mode) CHECK(flag);
    if (!flag) wait_done(&q[i]);
  }
  for (int i = 0; i < MAXP; ++i) CHECK(sb[i] == UNTOUCHED && rb[i] == UNTOUCHED);
  /* Real ones of the same families. */
  real_bcast(comm, root);
  int v = me + seq, s = 0;
  CHECK_MPI(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, comm));
  CHECK(s == n * (n - 1) / 2 + n * seq);
  CHECK_MPI(MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, comm));
  CHECK(s == me * (me + 1) / 2 + (me + 1) * seq);
  int g[MAXP];
  CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, g, 1, MPI_INT, comm));
  for (int i = 0; i < n; ++i) CHECK(g[i] == i + seq);
}

/* Persistent forms: zero-count requests started many times between real
 * persistent and blocking calls. */
static void persistent(MPI_Comm comm, int root) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int zeros[MAXP], displs[MAXP], mc[MAXP], md[MAXP], tot = 0;
  int sb[4 * MAXP], rb[4 * MAXP], v = 0, g[MAXP];
  for (int i = 0; i < n; ++i) {
    zeros[i] = displs[i] = 0;
    mc[i] = (i + root) % 2; /* gatherv: every other rank sends one int */
    md[i] = tot;
    tot += mc[i];
  }
  for (int i = 0; i < 4 * MAXP; ++i) sb[i] = rb[i] = UNTOUCHED;
  MPI_Request z[6], real[2];
  CHECK_MPI(MPI_Bcast_init(rb, 0, MPI_INT, root, comm, MPI_INFO_NULL, &z[0]));
  CHECK_MPI(MPI_Gatherv_init(sb, 0, MPI_INT, rb, zeros, displs, MPI_INT, root, comm, MPI_INFO_NULL, &z[1]));
  CHECK_MPI(MPI_Scatterv_init(sb, zeros, displs, MPI_INT, rb, 0, MPI_INT, root, comm, MPI_INFO_NULL, &z[2]));
  CHECK_MPI(MPI_Allgatherv_init(sb, 0, MPI_INT, rb, zeros, displs, MPI_INT, comm, MPI_INFO_NULL, &z[3]));
  CHECK_MPI(MPI_Alltoallv_init(sb, zeros, displs, MPI_INT, rb, zeros, displs, MPI_INT, comm, MPI_INFO_NULL, &z[4]));
  CHECK_MPI(MPI_Allreduce_init(sb, rb, 0, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &z[5]));
  int gv[MAXP];
  CHECK_MPI(MPI_Gatherv_init(&v, mc[me], MPI_INT, gv, mc, md, MPI_INT, root, comm, MPI_INFO_NULL, &real[0]));
  CHECK_MPI(MPI_Allgather_init(&v, 1, MPI_INT, g, 1, MPI_INT, comm, MPI_INFO_NULL, &real[1]));
  for (int it = 0; it < 4; ++it, ++seq) {
    v = 100 * seq + me;
    for (int i = 0; i < 6; ++i) {
      CHECK_MPI(MPI_Start(&z[i]));
      if (i == 2) CHECK_MPI(MPI_Start(&real[0])); /* a real one in flight among them */
    }
    CHECK_MPI(MPI_Waitall(6, z, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Startall(6, z));
    CHECK_MPI(MPI_Waitall(6, z, MPI_STATUSES_IGNORE));
    /* Each start of the zero bcast, allgatherv and allreduce returned at once
     * (twice each), and on two ranks the zero gatherv's and scatterv's too. */
    if (!check_mode) skipped += n == 2 ? 10 : 6;
    CHECK_MPI(MPI_Start(&real[1]));
    CHECK_MPI(MPI_Waitall(2, real, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) CHECK(g[i] == 100 * seq + i);
    if (me == root)
      for (int i = 0; i < n; ++i)
        if (mc[i]) CHECK(gv[md[i]] == 100 * seq + i);
    real_bcast(comm, (root + it) % n);
  }
  for (int i = 0; i < 6; ++i) CHECK_MPI(MPI_Request_free(&z[i]));
  for (int i = 0; i < 2; ++i) CHECK_MPI(MPI_Request_free(&real[i]));
  for (int i = 0; i < 4 * MAXP; ++i) CHECK(sb[i] == UNTOUCHED && rb[i] == UNTOUCHED);
}

static void intra(MPI_Comm comm) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int zeros[MAXP], counts[MAXP];
  for (int i = 0; i < n; ++i) zeros[i] = 0;
  /* A real nonblocking collective in flight across everything below. */
  int a = me + 1, b = 0;
  MPI_Request pending;
  CHECK_MPI(MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, comm, &pending));
  for (int root = 0; root < n; ++root) {
    for (int nb = 0; nb < 2; ++nb)
      for (int in_place = 0; in_place < 2; ++in_place) {
        gatherv_checked(comm, root, zeros, in_place, nb), ++seq;
        real_bcast(comm, root);
        for (int i = 0; i < n; ++i) counts[i] = mixed(i, root);
        gatherv_checked(comm, root, counts, in_place, nb), ++seq;
        scatterv_checked(comm, root, zeros, in_place, nb), ++seq;
        real_bcast(comm, (root + 1) % n);
        for (int i = 0; i < n; ++i) counts[i] = mixed(i, root);
        scatterv_checked(comm, root, counts, in_place, nb), ++seq;
        /* Every block empty but the root's own (nothing crosses). */
        for (int i = 0; i < n; ++i) counts[i] = i == root ? 2 : 0;
        gatherv_checked(comm, root, counts, in_place, nb), ++seq;
        scatterv_checked(comm, root, counts, in_place, nb), ++seq;
        gatherv_checked(comm, root, (int[MAXP]){1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, in_place, nb),
            ++seq;
      }
    uniform_zero(comm, root, 0), ++seq;
    uniform_zero(comm, root, 1), ++seq;
  }
  for (int nb = 0; nb < 2; ++nb)
    for (int in_place = 0; in_place < 2; ++in_place) {
      allgatherv_checked(comm, zeros, in_place, nb), ++seq;
      real_bcast(comm, 0);
      for (int i = 0; i < n; ++i) counts[i] = mixed(i, 0);
      allgatherv_checked(comm, counts, in_place, nb), ++seq;
      for (int i = 0; i < n; ++i) counts[i] = i == n - 1 ? 3 : 0;
      allgatherv_checked(comm, counts, in_place, nb), ++seq;
      for (int w = 0; w < 2; ++w) {
        alltoallv_checked(comm, 1, in_place, nb, w), ++seq;
        real_bcast(comm, n - 1);
        alltoallv_checked(comm, 0, in_place, nb, w), ++seq;
        alltoallv_checked(comm, 1, in_place, nb, w), ++seq;
        alltoallv_checked(comm, 0, in_place, nb, w), ++seq;
      }
    }
  for (int root = 0; root < n; root += 2) persistent(comm, root);
  CHECK_MPI(MPI_Wait(&pending, MPI_STATUS_IGNORE));
  CHECK(b == n * (n + 1) / 2);
  CHECK_MPI(MPI_Barrier(comm));
}

/* Intercommunicator forms: zero counts between real calls (these always
 * communicate: a root group's other ranks pass no count). */
static void inter(MPI_Comm world) {
  int wr, wn;
  MPI_Comm_rank(world, &wr);
  MPI_Comm_size(world, &wn);
  if (wn < 2) return;
  const int low = wr < wn / 2;
  MPI_Comm local, ic;
  CHECK_MPI(MPI_Comm_split(world, low, wr, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, world, low ? wn / 2 : 0, 7, &ic));
  int me, rn;
  MPI_Comm_rank(ic, &me);
  MPI_Comm_remote_size(ic, &rn);
  int zeros[MAXP], displs[MAXP], sb[MAXP], rb[MAXP];
  for (int i = 0; i < MAXP; ++i) zeros[i] = displs[i] = 0, sb[i] = rb[i] = UNTOUCHED;
  for (int it = 0; it < 3; ++it, ++seq) {
    /* The low group's rank 0 is the root, then the high group's. */
    for (int from_low = 0; from_low < 2; ++from_low) {
      const int root = low == from_low ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
      MPI_Request r;
      CHECK_MPI(MPI_Bcast(rb, 0, MPI_INT, root, ic));
      CHECK_MPI(MPI_Gatherv(sb, 0, MPI_INT, rb, zeros, displs, MPI_INT, root, ic));
      CHECK_MPI(MPI_Iscatterv(sb, zeros, displs, MPI_INT, rb, 0, MPI_INT, root, ic, &r));
      wait_done(&r);
      CHECK_MPI(MPI_Gather(sb, 0, MPI_INT, rb, 0, MPI_INT, root, ic));
      CHECK_MPI(MPI_Reduce(sb, rb, 0, MPI_INT, MPI_SUM, root, ic));
      /* A real bcast across, checked. */
      int v = root == MPI_ROOT ? 500 + seq : -1;
      CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, ic));
      if (root == 0) CHECK(v == 500 + seq);
    }
    MPI_Request r;
    CHECK_MPI(MPI_Allgatherv(sb, 0, MPI_INT, rb, zeros, displs, MPI_INT, ic));
    CHECK_MPI(MPI_Ialltoallv(sb, zeros, displs, MPI_INT, rb, zeros, displs, MPI_INT, ic, &r));
    wait_done(&r);
    CHECK_MPI(MPI_Allreduce(sb, rb, 0, MPI_INT, MPI_SUM, ic));
    CHECK_MPI(MPI_Alltoall(sb, 0, MPI_INT, rb, 0, MPI_INT, ic));
    /* Real allgather across: each side gets the other group's values. */
    int v = 1000 * seq + wr, got[MAXP];
    CHECK_MPI(MPI_Allgather(&v, 1, MPI_INT, got, 1, MPI_INT, ic));
    for (int i = 0; i < rn; ++i) CHECK(got[i] == 1000 * seq + (low ? wn / 2 + i : i));
  }
  for (int i = 0; i < MAXP; ++i) CHECK(sb[i] == UNTOUCHED && rb[i] == UNTOUCHED);
  CHECK_MPI(MPI_Comm_free(&ic));
  CHECK_MPI(MPI_Comm_free(&local));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size <= MAXP);
  check_mode = argc > 1 && strcmp(argv[1], "check") == 0;
  const long long before = counter("coll_zero_byte");
  intra(MPI_COMM_WORLD);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  intra(dup);
  inter(dup);
  intra(dup); /* still in step after the intercommunicator */
  CHECK_MPI(MPI_Comm_free(&dup));
  if (counter("coll_zero_byte") - before != skipped) fprintf(stderr, "counted %lld expected %lld\n", counter("coll_zero_byte") - before, skipped);
  CHECK(counter("coll_zero_byte") - before == skipped);
  MPI_Finalize();
  return 0;
}
