/* Persistent collectives of two ranks by messages (coll/persistent_plan.hpp,
 * PairPlan): at np 2 with a core each, small data takes the blocking call's
 * pair messages, one internal message each way, sent by MPI_Start and taken
 * by the wait straight from the ring or by a posted receive. Checked here:
 * - the path is taken where the blocking call takes messages (counters);
 * - persistent starts mixed with blocking and nonblocking collectives of the
 *   same family on the same communicator, waited in either order, two
 *   requests of one family started together and waited in reverse order;
 * - a user message queued ahead of the persistent one in the same ring (the
 *   wait posts a receive), and behind it;
 * - a message above the eager limit (rendezvous) below the pair limit;
 * - MPI_IN_PLACE (allreduce, scan, allgather, alltoall, gather and scatter at
 *   either root) and derived datatypes on the sending and receiving sides;
 * - reduce at either root and exscan (messages for persistent requests,
 *   although the blocking calls keep the segment) with a non-commutative op;
 * - a start is local: rank 0 starts, then needs rank 1's point-to-point.
 * At other rank counts the same program runs the segment plans. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

#define STARTS 40

static int val(int p, int i, int e) { return (p + 1) * 1000 + i * 7 + e * 13; }

static MPI_Count counter(const char *name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

/* Where a blocking 4-byte bcast of two ranks takes messages, a persistent one does too. */
static void test_path(void) {
  int b = 0;
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  const MPI_Count m0 = counter("coll_bcast_messages");
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD));
  const int blocking_by_messages = counter("coll_bcast_messages") == m0 + 1;
  const MPI_Count m1 = counter("coll_bcast_messages");
  for (int e = 0; e < 5; ++e) {
    b = rank == 0 ? e : -1;
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(b == e);
  }
  if (size == 2 && blocking_by_messages) CHECK(counter("coll_bcast_messages") == m1 + 5);
  if (size == 2 && rank == 0 && !blocking_by_messages) printf("# np 2 without the two-rank messages (oversubscribed?)\n");
  CHECK_MPI(MPI_Request_free(&r));
}

/* Persistent bcast and allreduce among blocking and nonblocking ones. */
static void test_mixed(MPI_Comm comm) {
  int pb[4], pb2[4], bb[4], nbb[4], x = 0, y = 0;
  MPI_Request p, p2, pa, nb;
  CHECK_MPI(MPI_Bcast_init(pb, 4, MPI_INT, 0, comm, MPI_INFO_NULL, &p));
  CHECK_MPI(MPI_Bcast_init(pb2, 4, MPI_INT, size - 1, comm, MPI_INFO_NULL, &p2));
  CHECK_MPI(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &pa));
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < 4; ++i) {
      pb[i] = rank == 0 ? val(0, i, e) : -1;
      pb2[i] = rank == size - 1 ? val(9, i, e) : -1;
      bb[i] = rank == 0 ? val(1, i, e) : -1;
      nbb[i] = rank == 0 ? val(2, i, e) : -1;
    }
    x = rank + e;
    CHECK_MPI(MPI_Start(&p));
    CHECK_MPI(MPI_Start(&pa));
    CHECK_MPI(MPI_Bcast(bb, 4, MPI_INT, 0, comm)); /* the same family, blocking, between start and wait */
    CHECK_MPI(MPI_Start(&p2));
    CHECK_MPI(MPI_Ibcast(nbb, 4, MPI_INT, 0, comm, &nb));
    int one = 1;
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, comm));
    CHECK(one == size);
    if (e % 3 == 0) { /* reverse order of the starts */
      CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&p2, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&pa, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
    } else if (e % 3 == 1) {
      MPI_Request all[4] = {p, pa, p2, nb};
      CHECK_MPI(MPI_Waitall(4, all, MPI_STATUSES_IGNORE));
      p = all[0];
      pa = all[1];
      p2 = all[2];
    } else {
      int flag = 0;
      while (!flag) CHECK_MPI(MPI_Test(&p2, &flag, MPI_STATUS_IGNORE));
      MPI_Request rest[3] = {p, pa, nb};
      CHECK_MPI(MPI_Waitall(3, rest, MPI_STATUSES_IGNORE));
      p = rest[0];
      pa = rest[1];
    }
    for (int i = 0; i < 4; ++i) {
      CHECK(pb[i] == val(0, i, e));
      CHECK(pb2[i] == val(9, i, e));
      CHECK(bb[i] == val(1, i, e));
      CHECK(nbb[i] == val(2, i, e));
    }
    CHECK(y == size * (size - 1) / 2 + size * e);
  }
  CHECK_MPI(MPI_Request_free(&p));
  CHECK_MPI(MPI_Request_free(&p2));
  CHECK_MPI(MPI_Request_free(&pa));
}

/* A user message from rank 0 to rank 1 ahead of (odd epochs) or behind
 * (even epochs) the persistent bcast's message in the same ring. */
static void test_user_message_around(void) {
  if (size < 2) return;
  int b[2] = {0, 0}, m = 0;
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init(b, 2, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < STARTS; ++e) {
    b[0] = rank == 0 ? e : -1;
    b[1] = rank == 0 ? -e : -1;
    if (rank == 0) {
      if (e % 2) CHECK_MPI(MPI_Send(&e, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Start(&r));
      if (!(e % 2)) CHECK_MPI(MPI_Send(&e, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_Start(&r));
      if (rank == 1 && e % 4 >= 2) { /* the user message received before the wait, or after it */
        CHECK_MPI(MPI_Recv(&m, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(m == e);
      }
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
      if (rank == 1 && e % 4 < 2) {
        CHECK_MPI(MPI_Recv(&m, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(m == e);
      }
    }
    CHECK(b[0] == e && b[1] == -e);
  }
  CHECK_MPI(MPI_Request_free(&r));
}

/* 200 KiB: above the eager limit, below the two-rank bcast limit. */
static void test_large_bcast(void) {
  const int n = 200 * 1024 / (int)sizeof(int);
  int *b = malloc(sizeof(int) * (size_t)n);
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init(b, n, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 6; ++e) {
    for (int i = 0; i < n; ++i) b[i] = rank == size - 1 ? val(3, i, e) : -1;
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) CHECK(b[i] == val(3, i, e));
  }
  CHECK_MPI(MPI_Request_free(&r));
  free(b);
}

/* MPI_IN_PLACE everywhere it is allowed, roots 0 and size - 1. */
static void test_in_place(int n) {
  const size_t all = (size_t)n * (size_t)size;
  int *ar = malloc(sizeof(int) * (size_t)n), *sc = malloc(sizeof(int) * (size_t)n);
  int *ag = malloc(sizeof(int) * all), *a2a = malloc(sizeof(int) * all);
  int *g = malloc(sizeof(int) * all), *s = malloc(sizeof(int) * all);
  for (int root = 0; root < size; root += size > 1 ? size - 1 : 1) {
    MPI_Request r[6];
    CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, ar, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Scan_init(MPI_IN_PLACE, sc, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
    CHECK_MPI(MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                 &r[2]));
    CHECK_MPI(MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                &r[3]));
    if (rank == root) {
      CHECK_MPI(MPI_Gather_init(MPI_IN_PLACE, n, MPI_INT, g, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]));
      CHECK_MPI(MPI_Scatter_init(s, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[5]));
    } else {
      CHECK_MPI(MPI_Gather_init(g + (size_t)rank * n, n, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &r[4]));
      CHECK_MPI(MPI_Scatter_init(NULL, 0, MPI_INT, s + (size_t)rank * n, n, MPI_INT, root, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r[5]));
    }
    for (int e = 0; e < STARTS / 2; ++e) {
      for (int i = 0; i < n; ++i) ar[i] = sc[i] = val(rank, i, e);
      for (int p = 0; p < size; ++p)
        for (int i = 0; i < n; ++i) {
          const size_t at = (size_t)p * n + i;
          ag[at] = p == rank ? val(rank, i, e) : -1;
          a2a[at] = val(rank, p * n + i, e);
          g[at] = p == rank ? val(rank, i, e) : -1;
          s[at] = rank == root ? val(root, p * n + i, e) : -1;
        }
      CHECK_MPI(MPI_Startall(6, r));
      CHECK_MPI(MPI_Waitall(6, r, MPI_STATUSES_IGNORE));
      for (int i = 0; i < n; ++i) {
        int sum = 0, part = 0;
        for (int p = 0; p < size; ++p) {
          sum += val(p, i, e);
          if (p <= rank) part += val(p, i, e);
        }
        CHECK(ar[i] == sum);
        CHECK(sc[i] == part);
        CHECK(s[(size_t)rank * n + i] == val(root, rank * n + i, e));
        for (int p = 0; p < size; ++p) {
          CHECK(ag[(size_t)p * n + i] == val(p, i, e));
          CHECK(a2a[(size_t)p * n + i] == val(p, rank * n + i, e));
          if (rank == root) CHECK(g[(size_t)p * n + i] == val(p, i, e));
        }
      }
    }
    for (int q = 0; q < 6; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
    if (size == 1) break;
  }
  free(ar);
  free(sc);
  free(ag);
  free(a2a);
  free(g);
  free(s);
}

/* Derived types: every other int, on the root's side of gather (receive)
 * and scatter (send), on a member's side of both, and in bcast, allgather
 * and alltoall (send and receive). */
static void test_derived(int n) {
  MPI_Datatype eo, eo_r;
  CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &eo));
  CHECK_MPI(MPI_Type_create_resized(eo, 0, (MPI_Aint)(2 * n * (int)sizeof(int)), &eo_r));
  CHECK_MPI(MPI_Type_commit(&eo_r));
  CHECK_MPI(MPI_Type_free(&eo));
  const int root = size - 1;
  const size_t span = (size_t)2 * n * size; /* size blocks of eo_r */
  int *rootbuf = malloc(sizeof(int) * span), *mine = malloc(sizeof(int) * 2 * (size_t)n);
  int *plain = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * 2 * (size_t)n);
  int *ag = malloc(sizeof(int) * span), *a2a_s = malloc(sizeof(int) * span), *a2a_r = malloc(sizeof(int) * span);
  MPI_Request r[5];
  if (rank == root) {
    CHECK_MPI(MPI_Gather_init(plain, n, MPI_INT, rootbuf, 1, eo_r, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Scatter_init(rootbuf, 1, eo_r, mine, 1, eo_r, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  } else {
    CHECK_MPI(MPI_Gather_init(mine, 1, eo_r, NULL, 0, eo_r, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    CHECK_MPI(MPI_Scatter_init(NULL, 0, eo_r, plain, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  }
  CHECK_MPI(MPI_Bcast_init(b, 1, eo_r, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Allgather_init(mine, 1, eo_r, ag, 1, eo_r, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
  CHECK_MPI(MPI_Alltoall_init(a2a_s, 1, eo_r, a2a_r, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]));
  CHECK_MPI(MPI_Type_free(&eo_r)); /* the requests keep it */
  for (int e = 0; e < STARTS / 2; ++e) {
    for (size_t i = 0; i < span; ++i) {
      rootbuf[i] = rank == root ? val(root, (int)i, e) : -1;
      ag[i] = a2a_r[i] = -1;
      a2a_s[i] = val(rank, (int)i, e);
    }
    for (int i = 0; i < 2 * n; ++i) {
      mine[i] = val(rank, i, e);
      b[i] = rank == 0 ? val(0, i, e) : -1;
    }
    for (int i = 0; i < n; ++i) plain[i] = rank == root ? val(root, 2 * i, e) : -1;
    /* gather first (reads plain/mine), then scatter (writes them): separate epochs */
    CHECK_MPI(MPI_Start(&r[0]));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    if (rank == root)
      for (int p = 0; p < size; ++p)
        for (int i = 0; i < n; ++i) {
          CHECK(rootbuf[(size_t)p * 2 * n + 2 * i] == val(p, 2 * i, e));
          CHECK(rootbuf[(size_t)p * 2 * n + 2 * i + 1] == val(root, p * 2 * n + 2 * i + 1, e));
        }
    CHECK_MPI(MPI_Startall(4, r + 1));
    CHECK_MPI(MPI_Waitall(4, r + 1, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) {
      /* scatter: the root's block `rank` after the gather above */
      const int want = val(rank, 2 * i, e);
      if (rank == root)
        CHECK(mine[2 * i] == want);
      else
        CHECK(plain[i] == want);
      CHECK(b[2 * i] == val(0, 2 * i, e));
      if (rank != 0) CHECK(b[2 * i + 1] == -1);
      for (int p = 0; p < size; ++p) {
        CHECK(ag[(size_t)p * 2 * n + 2 * i] == val(p, 2 * i, e));
        CHECK(ag[(size_t)p * 2 * n + 2 * i + 1] == -1);
        CHECK(a2a_r[(size_t)p * n + i] == val(p, rank * 2 * n + 2 * i, e));
      }
    }
  }
  for (int q = 0; q < 5; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  free(rootbuf);
  free(mine);
  free(plain);
  free(b);
  free(ag);
  free(a2a_s);
  free(a2a_r);
}

/* Digits concatenated: non-commutative, so the operands' order shows. */
typedef struct {
  long long v, digits;
} cat;
static void concat(void *in, void *inout, int *len, MPI_Datatype *t) {
  (void)t;
  cat *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) {
    long long p = 1;
    for (long long d = 0; d < b[i].digits; ++d) p *= 10;
    b[i].v = a[i].v * p + b[i].v;
    b[i].digits += a[i].digits;
  }
}

/* Reduce at either root (in place there) and exscan, with a
 * non-commutative op, and MPI_SUM on 1000 ints (4 KB). */
static void test_reductions(void) {
  if (size > 12) return;
  MPI_Datatype pair;
  MPI_Op op;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_LONG_LONG, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Op_create(concat, 0, &op));
  enum { N = 1000 };
  cat mine[3], red0[3], red1[3], ex[3];
  int *big = malloc(sizeof(int) * N), *bigx = malloc(sizeof(int) * N);
  MPI_Request r[4];
  const int last = size - 1;
  CHECK_MPI(MPI_Reduce_init(mine, red0, 3, pair, op, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Reduce_init(rank == last ? MPI_IN_PLACE : (void *)red1, red1, 3, pair, op, last, MPI_COMM_WORLD,
                            MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Exscan_init(mine, ex, 3, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Exscan_init(big, bigx, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
  CHECK_MPI(MPI_Type_free(&pair));
  for (int e = 0; e < STARTS / 2; ++e) {
    for (int i = 0; i < 3; ++i) mine[i] = red1[i] = (cat){(rank + e + i) % 9 + 1, 1};
    for (int i = 0; i < N; ++i) big[i] = val(rank, i, e);
    CHECK_MPI(MPI_Startall(4, r));
    CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 3; ++i) {
      long long want = 0, before = 0;
      for (int p = 0; p < size; ++p) {
        if (p == rank) before = want;
        want = want * 10 + (p + e + i) % 9 + 1;
      }
      if (rank == 0) CHECK(red0[i].v == want && red0[i].digits == size);
      if (rank == last) CHECK(red1[i].v == want && red1[i].digits == size);
      if (rank > 0) CHECK(ex[i].v == before && ex[i].digits == rank);
    }
    if (rank > 0)
      for (int i = 0; i < N; ++i) {
        int sum = 0;
        for (int p = 0; p < rank; ++p) sum += val(p, i, e);
        CHECK(bigx[i] == sum);
      }
  }
  for (int q = 0; q < 4; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  CHECK_MPI(MPI_Op_free(&op));
  free(big);
  free(bigx);
}

/* MPI_Start returns without the peer: rank 0 starts a gather, scan and
 * allgather, then needs rank 1's message, which rank 1 sends before it
 * starts its own. */
static void test_start_is_local(void) {
  if (size < 2) return;
  int v = 0, g[64], sc = 0, ag[64], token = 0;
  MPI_Request r[3];
  CHECK_MPI(MPI_Gather_init(&v, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Scan_init(&v, &sc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Allgather_init(&v, 1, MPI_INT, ag, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
  for (int e = 0; e < 10; ++e) {
    v = rank + e;
    if (rank == 0) {
      CHECK_MPI(MPI_Startall(3, r));
      CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, e, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else {
      if (rank == 1) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, e, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Startall(3, r));
    }
    CHECK_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    int part = 0;
    for (int p = 0; p <= rank; ++p) part += p + e;
    CHECK(sc == part);
    for (int p = 0; p < size && p < 64; ++p) {
      CHECK(ag[p] == p + e);
      if (rank == 0) CHECK(g[p] == p + e);
    }
  }
  for (int q = 0; q < 3; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) {
    MPI_Finalize();
    return 0;
  }
  test_path();
  test_mixed(MPI_COMM_WORLD);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  test_mixed(dup);
  CHECK_MPI(MPI_Comm_free(&dup));
  test_user_message_around();
  test_large_bcast();
  test_in_place(1);
  test_in_place(600); /* 2400 B blocks: scatter above its 2 KiB two-rank limit, the others below their 8 KiB */
  test_derived(1);
  test_derived(100);
  test_reductions();
  test_start_is_local();
  MPI_Finalize();
  return 0;
}
