/* Persistent collectives by messages on three or more ranks
 * (coll/persistent_messages.hpp): where the blocking call of the same shape
 * goes by messages (the compiled rules: small bcasts, scatters and scans of
 * an oversubscribed communicator), MPI_Bcast_init runs the binomial tree,
 * MPI_Scatter_init the root's sends and MPI_Scan_init / MPI_Exscan_init the
 * chain, planned once. Checked here, at every root and with new data at
 * every start:
 * - the path: persistent starts counted as messages exactly where the
 *   blocking call of that shape is (MPIX_Query_counter);
 * - derived (non-contiguous) datatypes on either side of bcast and scatter,
 *   MPI_IN_PLACE at the scatter root and in scan/exscan;
 * - a non-commutative operation (operands in rank order);
 * - starts mixed with blocking and nonblocking calls of the same family,
 *   two requests of one family started together and waited in reverse;
 * - a start is local: rank 0 starts, then needs rank 1's message.
 * At a rank count with a core each the same program runs the segment plans
 * (the counters then say segment, and the data is checked alike). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

#define STARTS 30

static int val(int p, int i, int e) { return (p + 1) * 1000 + i * 7 + e * 13; }

static MPI_Count counter(const char *name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

/* Whether a blocking call of `family` took messages: the counter moved by one. */
static int blocking_took(const char *name, MPI_Count before) { return counter(name) == before + 1; }

/* bcast of 4 ints at every root, contiguous and as a vector type (every other int). */
static void test_bcast(void) {
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  for (int root = 0; root < size; ++root) {
    int a[4], v[8];
    MPI_Request ra, rv, r2;
    int b2[4];
    CHECK_MPI(MPI_Bcast_init(a, 4, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &ra));
    CHECK_MPI(MPI_Bcast_init(v, 1, vec, root, MPI_COMM_WORLD, MPI_INFO_NULL, &rv));
    CHECK_MPI(MPI_Bcast_init(b2, 4, MPI_INT, (root + 1) % size, MPI_COMM_WORLD, MPI_INFO_NULL, &r2));
    MPI_Count m0 = counter("coll_bcast_messages");
    int bb[4] = {0, 0, 0, 0};
    CHECK_MPI(MPI_Bcast(bb, 4, MPI_INT, root, MPI_COMM_WORLD));
    const int msgs = blocking_took("coll_bcast_messages", m0);
    m0 = counter("coll_bcast_messages");
    for (int e = 0; e < STARTS; ++e) {
      for (int i = 0; i < 4; ++i) {
        a[i] = rank == root ? val(root, i, e) : -1;
        b2[i] = rank == (root + 1) % size ? val(root + 50, i, e) : -1;
      }
      for (int i = 0; i < 8; ++i) v[i] = rank == root ? val(root + 100, i, e) : (i % 2 ? 77 : -1);
      CHECK_MPI(MPI_Start(&ra));
      CHECK_MPI(MPI_Start(&rv));
      CHECK_MPI(MPI_Start(&r2));
      if (e % 2) { /* a blocking one of the same family between start and wait */
        int x = rank == root ? e : -1;
        CHECK_MPI(MPI_Bcast(&x, 1, MPI_INT, root, MPI_COMM_WORLD));
        CHECK(x == e);
      }
      if (e % 3 == 0) {
        CHECK_MPI(MPI_Wait(&r2, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rv, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&ra, MPI_STATUS_IGNORE));
      } else {
        MPI_Request all[3] = {ra, rv, r2};
        CHECK_MPI(MPI_Waitall(3, all, MPI_STATUSES_IGNORE));
      }
      for (int i = 0; i < 4; ++i) {
        CHECK(a[i] == val(root, i, e));
        CHECK(b2[i] == val(root + 50, i, e));
      }
      for (int i = 0; i < 8; ++i) CHECK(v[i] == (i % 2 == 0 || rank == root ? val(root + 100, i, e) : 77));
    }
    /* Each start of the three requests counted where the blocking call takes messages (one rank: no plan). */
    if (size > 1 && msgs) CHECK(counter("coll_bcast_messages") >= m0 + 3 * STARTS);
    if (rank == 0 && root == 0) printf("# np %d: bcast by %s\n", size, msgs ? "messages" : "the segment");
    CHECK_MPI(MPI_Request_free(&ra));
    CHECK_MPI(MPI_Request_free(&rv));
    CHECK_MPI(MPI_Request_free(&r2));
  }
  CHECK_MPI(MPI_Type_free(&vec));
}

/* scatter of 2 ints per member at every root: contiguous, in place at the
 * root, and a vector type at the root's send side. */
static void test_scatter(void) {
  MPI_Datatype vec2;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec2)); /* 2 ints, stride 2 */
  MPI_Datatype blk;
  CHECK_MPI(MPI_Type_create_resized(vec2, 0, 4 * (MPI_Aint)sizeof(int), &blk)); /* member i's block at 4i ints */
  CHECK_MPI(MPI_Type_commit(&blk));
  int *send = malloc(sizeof(int) * 4 * (size_t)size), *sendc = malloc(sizeof(int) * 2 * (size_t)size);
  for (int root = 0; root < size; ++root) {
    int rc[2], rv[2], ri[2];
    MPI_Request pc, pv, pi;
    CHECK_MPI(MPI_Scatter_init(sendc, 2, MPI_INT, rc, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &pc));
    CHECK_MPI(MPI_Scatter_init(send, 1, blk, rv, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &pv));
    if (rank == root)
      CHECK_MPI(MPI_Scatter_init(sendc, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &pi));
    else
      CHECK_MPI(MPI_Scatter_init(NULL, 0, MPI_INT, ri, 2, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &pi));
    MPI_Count m0 = counter("coll_scatter_messages");
    CHECK_MPI(MPI_Scatter(sendc, 2, MPI_INT, rc, 2, MPI_INT, root, MPI_COMM_WORLD));
    const int msgs = blocking_took("coll_scatter_messages", m0);
    m0 = counter("coll_scatter_messages");
    for (int e = 0; e < STARTS; ++e) {
      for (int p = 0; p < size; ++p)
        for (int i = 0; i < 2; ++i) {
          sendc[2 * p + i] = rank == root ? val(p, i, e) : -1;
          send[4 * p + 2 * i] = rank == root ? val(p + 200, i, e) : -1;
          send[4 * p + 2 * i + 1] = -9;
        }
      rc[0] = rc[1] = rv[0] = rv[1] = ri[0] = ri[1] = -1;
      CHECK_MPI(MPI_Start(&pc));
      CHECK_MPI(MPI_Start(&pv));
      CHECK_MPI(MPI_Wait(&pv, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&pc, MPI_STATUS_IGNORE));
      for (int i = 0; i < 2; ++i) {
        CHECK(rc[i] == val(rank, i, e));
        CHECK(rv[i] == val(rank + 200, i, e));
      }
      /* in place: the root's own block stays where it is */
      CHECK_MPI(MPI_Start(&pi));
      CHECK_MPI(MPI_Wait(&pi, MPI_STATUS_IGNORE));
      for (int i = 0; i < 2; ++i) CHECK((rank == root ? sendc[2 * root + i] : ri[i]) == val(rank, i, e));
    }
    if (size > 1 && msgs) CHECK(counter("coll_scatter_messages") >= m0 + 3 * STARTS);
    CHECK_MPI(MPI_Request_free(&pc));
    CHECK_MPI(MPI_Request_free(&pv));
    CHECK_MPI(MPI_Request_free(&pi));
  }
  free(send);
  free(sendc);
  CHECK_MPI(MPI_Type_free(&blk));
  CHECK_MPI(MPI_Type_free(&vec2));
}

/* A non-commutative operation on pairs (a, b): (a1,b1) o (a2,b2) = (a1*a2 mod 1009, a2*b1 + b2 mod 1009),
 * composition of affine maps: associative, not commutative. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  int *x = in, *y = inout;
  for (int i = 0; i < *len; i += 2) {
    const int a = (x[i] * y[i]) % 1009, b = (y[i] * x[i + 1] + y[i + 1]) % 1009;
    y[i] = a;
    y[i + 1] = b;
  }
}

static void expect_prefix(int upto, int e, int out[2]) { /* x0 o ... o x_upto */
  int a = 1, b = 0;
  for (int p = 0; p <= upto; ++p) {
    const int xa = (p + e) % 7 + 2, xb = (3 * p + e) % 11;
    const int na = (a * xa) % 1009, nb = (xa * b + xb) % 1009;
    a = na;
    b = nb;
  }
  out[0] = a;
  out[1] = b;
}

static void test_scan(void) {
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(affine, 0, &op));
  int mine[2], res[2], ex[2], inpl[2], exin[2], sum = 0, sumres = 0;
  MPI_Request s, x, si, xi, ssum;
  CHECK_MPI(MPI_Scan_init(mine, res, 2, MPI_INT, op, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Exscan_init(mine, ex, 2, MPI_INT, op, MPI_COMM_WORLD, MPI_INFO_NULL, &x));
  CHECK_MPI(MPI_Scan_init(MPI_IN_PLACE, inpl, 2, MPI_INT, op, MPI_COMM_WORLD, MPI_INFO_NULL, &si));
  CHECK_MPI(MPI_Exscan_init(MPI_IN_PLACE, exin, 2, MPI_INT, op, MPI_COMM_WORLD, MPI_INFO_NULL, &xi));
  CHECK_MPI(MPI_Scan_init(&sum, &sumres, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ssum));
  MPI_Count m0 = counter("coll_scan_messages");
  int one = 1, pre = 0;
  CHECK_MPI(MPI_Scan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(pre == rank + 1);
  const int msgs = blocking_took("coll_scan_messages", m0);
  m0 = counter("coll_scan_messages");
  for (int e = 0; e < STARTS; ++e) {
    mine[0] = (rank + e) % 7 + 2;
    mine[1] = (3 * rank + e) % 11;
    inpl[0] = exin[0] = mine[0];
    inpl[1] = exin[1] = mine[1];
    sum = rank * e;
    CHECK_MPI(MPI_Start(&s));
    CHECK_MPI(MPI_Start(&x));
    CHECK_MPI(MPI_Start(&ssum));
    MPI_Request nb;
    int nbv = rank, nbr = -1;
    CHECK_MPI(MPI_Iscan(&nbv, &nbr, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &nb));
    CHECK_MPI(MPI_Start(&si));
    CHECK_MPI(MPI_Start(&xi));
    MPI_Request all[4] = {xi, si, x, s};
    CHECK_MPI(MPI_Waitall(4, all, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&ssum, MPI_STATUS_IGNORE));
    int want[2];
    expect_prefix(rank, e, want);
    CHECK(res[0] == want[0] && res[1] == want[1]);
    CHECK(inpl[0] == want[0] && inpl[1] == want[1]);
    if (rank > 0) {
      expect_prefix(rank - 1, e, want);
      CHECK(ex[0] == want[0] && ex[1] == want[1]);
      CHECK(exin[0] == want[0] && exin[1] == want[1]);
    }
    CHECK(nbr == rank * (rank + 1) / 2);
    CHECK(sumres == e * rank * (rank + 1) / 2);
  }
  if (size > 1 && msgs) CHECK(counter("coll_scan_messages") >= m0 + 5 * STARTS);
  if (rank == 0) printf("# np %d: scan by %s\n", size, msgs ? "messages" : "the segment");
  MPI_Request rs[5] = {s, x, si, xi, ssum};
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Request_free(&rs[i]));
  CHECK_MPI(MPI_Op_free(&op));
}

/* A start is local: rank 0 starts its bcast (the root: sends) and only then
 * waits for rank 1's point-to-point message, which rank 1 sends before its
 * own start. */
static void test_local_start(void) {
  if (size < 2) return;
  int b = 0, token = 0;
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 5; ++e) {
    b = rank == 0 ? 40 + e : -1;
    if (rank == 0) {
      CHECK_MPI(MPI_Start(&r));
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(token == e);
    } else {
      if (rank == 1) CHECK_MPI(MPI_Send(&e, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Start(&r));
    }
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(b == 40 + e);
  }
  CHECK_MPI(MPI_Request_free(&r));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  test_bcast();
  test_scatter();
  test_scan();
  test_local_start();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("coll_persist_msgs: OK\n");
  MPI_Finalize();
  return 0;
}
