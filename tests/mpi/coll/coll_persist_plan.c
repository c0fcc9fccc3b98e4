/* Persistent collectives planned once (MPI-4.0 §6.12; lib/coll/persistent_plan.hpp):
 * many starts of one request with new buffer contents each time, at sizes
 * that take the plan (small), the by-address forms and the schedules
 * (large); MPI_IN_PLACE forms; a derived datatype; a non-commutative user
 * op (rank order); MPI_Startall of mixed collectives; persistent starts
 * interleaved with blocking and nonblocking collectives on the same
 * communicator; an MPI_Start followed by point-to-point that the other ranks
 * need before they start (MPI_Start must not wait for them); MPI_Request_free
 * of inactive requests after many starts; requests on a dup'd
 * communicator, and on one whose segment attaches after their _init. The same program runs with every family forced to messages
 * (coll_persist_plan_messages). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

#define STARTS 60

static void run(MPI_Request *r) {
  CHECK_MPI(MPI_Start(r));
  CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

/* Value of element i of rank p's data in epoch e. */
static int val(int p, int i, int e) { return (p + 1) * 1000 + i * 7 + e * 13; }

/* Bcast, reduce, allreduce, scan, exscan of n ints, root `root`, many starts. */
static void test_vectors(MPI_Comm comm, int n, int root) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  int *b = malloc(sizeof(int) * (size_t)n), *s = malloc(sizeof(int) * (size_t)n);
  int *red = malloc(sizeof(int) * (size_t)n), *all = malloc(sizeof(int) * (size_t)n);
  int *sc = malloc(sizeof(int) * (size_t)n), *ex = malloc(sizeof(int) * (size_t)n);
  MPI_Request r[5];
  CHECK_MPI(MPI_Bcast_init(b, n, MPI_INT, root, comm, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Reduce_init(s, red, n, MPI_INT, MPI_SUM, root, comm, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Allreduce_init(s, all, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Scan_init(s, sc, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[3]));
  CHECK_MPI(MPI_Exscan_init(s, ex, n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[4]));
  for (int e = 0; e < STARTS; ++e) {
    for (int i = 0; i < n; ++i) {
      b[i] = me == root ? val(root, i, e) : -1;
      s[i] = val(me, i, e);
      red[i] = all[i] = sc[i] = ex[i] = -1;
    }
    if (e % 3 == 0) {
      for (int q = 0; q < 5; ++q) run(&r[q]);
    } else {
      CHECK_MPI(MPI_Startall(5, r));
      CHECK_MPI(MPI_Waitall(5, r, MPI_STATUSES_IGNORE));
    }
    for (int i = 0; i < n; ++i) {
      int total = 0, upto = 0;
      for (int p = 0; p < np; ++p) total += val(p, i, e);
      for (int p = 0; p <= me; ++p) upto += val(p, i, e);
      CHECK(b[i] == val(root, i, e));
      if (me == root) CHECK(red[i] == total);
      CHECK(all[i] == total);
      CHECK(sc[i] == upto);
      if (me > 0) CHECK(ex[i] == upto - val(me, i, e));
    }
  }
  for (int q = 0; q < 5; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  CHECK(r[0] == MPI_REQUEST_NULL);
  free(b);
  free(s);
  free(red);
  free(all);
  free(sc);
  free(ex);
}

/* Allgather, alltoall, gather, scatter of blocks of n ints. */
static void test_blocks(MPI_Comm comm, int n, int root) {
  int me, np;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &np);
  const size_t all = (size_t)n * (size_t)np;
  int *snd = malloc(sizeof(int) * all), *ag = malloc(sizeof(int) * all), *a2a = malloc(sizeof(int) * all);
  int *g = malloc(sizeof(int) * all), *sc = malloc(sizeof(int) * (size_t)n);
  MPI_Request r[4];
  CHECK_MPI(MPI_Allgather_init(snd, n, MPI_INT, ag, n, MPI_INT, comm, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Alltoall_init(snd, n, MPI_INT, a2a, n, MPI_INT, comm, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Gather_init(snd, n, MPI_INT, g, n, MPI_INT, root, comm, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Scatter_init(snd, n, MPI_INT, sc, n, MPI_INT, root, comm, MPI_INFO_NULL, &r[3]));
  for (int e = 0; e < STARTS; ++e) {
    /* snd: block d (for destination d) element i = val(me, d * n + i, e). */
    for (size_t i = 0; i < all; ++i) {
      snd[i] = val(me, (int)i, e);
      ag[i] = a2a[i] = g[i] = -1;
    }
    for (int i = 0; i < n; ++i) sc[i] = -1;
    if (e % 2) {
      for (int q = 0; q < 4; ++q) run(&r[q]);
    } else {
      CHECK_MPI(MPI_Startall(4, r));
      CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
    }
    for (int p = 0; p < np; ++p)
      for (int i = 0; i < n; ++i) {
        CHECK(ag[p * n + i] == val(p, i, e));          /* p's first block */
        CHECK(a2a[p * n + i] == val(p, me * n + i, e)); /* p's block for me */
        if (me == root) CHECK(g[p * n + i] == val(p, i, e));
      }
    for (int i = 0; i < n; ++i) CHECK(sc[i] == val(root, me * n + i, e));
  }
  for (int q = 0; q < 4; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  free(snd);
  free(ag);
  free(a2a);
  free(g);
  free(sc);
}

/* MPI_IN_PLACE forms: allreduce, allgather, alltoall, gather and scatter at
 * the root, reduce at the root, scan. */
static void test_in_place(int n) {
  const size_t all = (size_t)n * (size_t)size;
  int *v = malloc(sizeof(int) * (size_t)n), *ag = malloc(sizeof(int) * all), *a2a = malloc(sizeof(int) * all);
  int *g = malloc(sizeof(int) * all), *sc = malloc(sizeof(int) * all), *rd = malloc(sizeof(int) * (size_t)n);
  int *scan = malloc(sizeof(int) * (size_t)n);
  const int root = size - 1;
  MPI_Request r[7];
  CHECK_MPI(MPI_Allreduce_init(MPI_IN_PLACE, v, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &r[1]));
  CHECK_MPI(MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &r[2]));
  if (rank == root) {
    CHECK_MPI(MPI_Gather_init(MPI_IN_PLACE, n, MPI_INT, g, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]));
    CHECK_MPI(MPI_Scatter_init(sc, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]));
    CHECK_MPI(MPI_Reduce_init(MPI_IN_PLACE, rd, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[5]));
  } else {
    CHECK_MPI(MPI_Gather_init(g + (size_t)rank * n, n, MPI_INT, NULL, 0, MPI_INT, root, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r[3]));
    CHECK_MPI(MPI_Scatter_init(NULL, 0, MPI_INT, sc + (size_t)rank * n, n, MPI_INT, root, MPI_COMM_WORLD,
                               MPI_INFO_NULL, &r[4]));
    CHECK_MPI(MPI_Reduce_init(rd, NULL, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r[5]));
  }
  CHECK_MPI(MPI_Scan_init(MPI_IN_PLACE, scan, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[6]));
  for (int e = 0; e < STARTS / 2; ++e) {
    for (int i = 0; i < n; ++i) v[i] = rd[i] = scan[i] = val(rank, i, e);
    for (size_t i = 0; i < all; ++i) ag[i] = a2a[i] = g[i] = sc[i] = -1;
    for (int i = 0; i < n; ++i) {
      ag[(size_t)rank * n + i] = val(rank, i, e);
      g[(size_t)rank * n + i] = val(rank, i, e);
    }
    for (size_t i = 0; i < all; ++i) {
      a2a[i] = val(rank, (int)i, e);
      if (rank == root) sc[i] = val(root, (int)i, e);
    }
    CHECK_MPI(MPI_Startall(7, r));
    CHECK_MPI(MPI_Waitall(7, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) {
      int total = 0, upto = 0;
      for (int p = 0; p < size; ++p) total += val(p, i, e);
      for (int p = 0; p <= rank; ++p) upto += val(p, i, e);
      CHECK(v[i] == total);
      if (rank == root) CHECK(rd[i] == total);
      CHECK(scan[i] == upto);
      CHECK(sc[(size_t)rank * n + i] == val(root, rank * n + i, e));
    }
    for (int p = 0; p < size; ++p)
      for (int i = 0; i < n; ++i) {
        CHECK(ag[(size_t)p * n + i] == val(p, i, e));
        CHECK(a2a[(size_t)p * n + i] == val(p, rank * n + i, e));
        if (rank == root) CHECK(g[(size_t)p * n + i] == val(p, i, e));
      }
  }
  for (int q = 0; q < 7; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  free(v);
  free(ag);
  free(a2a);
  free(g);
  free(sc);
  free(rd);
  free(scan);
}

/* A non-commutative, associative op: (value, digits) pairs concatenated in
 * rank order, so any other fold order gives another number. */
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

static void test_user_op(void) {
  MPI_Datatype pair;
  MPI_Op op;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_LONG_LONG, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Op_create(concat, 0, &op));
  cat mine[2], all[2], sc[2];
  MPI_Request r[2];
  CHECK_MPI(MPI_Allreduce_init(mine, all, 2, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Scan_init(mine, sc, 2, pair, op, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Type_free(&pair)); /* the requests keep it */
  for (int e = 0; e < STARTS / 2; ++e) {
    for (int i = 0; i < 2; ++i) mine[i] = (cat){(rank + e + i) % 9 + 1, 1};
    CHECK_MPI(MPI_Startall(2, r));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 2; ++i) {
      long long want = 0;
      for (int p = 0; p < size && p < 18; ++p) {
        want = want * 10 + (p + e + i) % 9 + 1;
        if (p == rank) CHECK(sc[i].v == want && sc[i].digits == p + 1);
      }
      CHECK(all[i].v == want && all[i].digits == size);
    }
  }
  CHECK_MPI(MPI_Request_free(&r[0]));
  CHECK_MPI(MPI_Request_free(&r[1]));
  /* An op freed after _init: the start fails with MPI_ERR_OP on every path
   * (a local error: every rank sees it, nobody communicates), the request
   * stays inactive and can be freed. */
  CHECK_MPI(MPI_Allreduce_init(mine, all, 1, MPI_LONG_LONG, op, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Op_free(&op));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls = MPI_SUCCESS;
  MPI_Error_class(MPI_Start(&r[0]), &cls);
  CHECK(cls == MPI_ERR_OP);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Request_free(&r[0]));
}

/* A derived datatype (every other int) for bcast, allgather and alltoall. */
static void test_derived(int n) {
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  const size_t span = (size_t)2 * n;
  int *b = malloc(sizeof(int) * span), *snd = malloc(sizeof(int) * span * size);
  int *ag = malloc(sizeof(int) * (size_t)n * size), *a2a = malloc(sizeof(int) * (size_t)n * size);
  MPI_Request r[3];
  MPI_Aint lb, extent;
  MPI_Type_get_extent(every_other, &lb, &extent);
  CHECK_MPI(MPI_Bcast_init(b, 1, every_other, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Allgather_init(snd, 1, every_other, ag, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  /* alltoall: sends one every_other per destination, each (2n - 1) ints apart. */
  CHECK_MPI(MPI_Alltoall_init(snd, 1, every_other, a2a, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
  CHECK_MPI(MPI_Type_free(&every_other));
  const int stride = (int)(extent / (MPI_Aint)sizeof(int)); /* 2n - 1 */
  for (int e = 0; e < STARTS / 2; ++e) {
    for (size_t i = 0; i < span; ++i) b[i] = rank == 0 ? val(0, (int)i, e) : -1;
    for (size_t i = 0; i < span * size; ++i) snd[i] = val(rank, (int)i, e);
    for (size_t i = 0; i < (size_t)n * size; ++i) ag[i] = a2a[i] = -1;
    CHECK_MPI(MPI_Startall(3, r));
    CHECK_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) {
      CHECK(b[2 * i] == val(0, 2 * i, e));
      if (rank != 0 && 2 * i + 1 < (int)span) CHECK(b[2 * i + 1] == -1);
      for (int p = 0; p < size; ++p) {
        CHECK(ag[p * n + i] == val(p, 2 * i, e));
        CHECK(a2a[p * n + i] == val(p, rank * stride + 2 * i, e));
      }
    }
  }
  for (int q = 0; q < 3; ++q) CHECK_MPI(MPI_Request_free(&r[q]));
  free(b);
  free(snd);
  free(ag);
  free(a2a);
}

/* Persistent starts between blocking and nonblocking collectives on one
 * communicator: all ranks start them in the same order (§6.12). */
static void test_interleaved(MPI_Comm comm) {
  int x = 0, y = 0, z = 0, w = 0;
  MPI_Request p, nb;
  CHECK_MPI(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &p));
  for (int e = 0; e < STARTS; ++e) {
    x = rank + e;
    CHECK_MPI(MPI_Start(&p));
    int one = 1;
    CHECK_MPI(MPI_Iallreduce(&one, &z, 1, MPI_INT, MPI_SUM, comm, &nb));
    CHECK_MPI(MPI_Allreduce(&one, &w, 1, MPI_INT, MPI_MAX, comm));
    CHECK(w == 1);
    if (e % 2) {
      CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
    } else {
      MPI_Request both[2] = {p, nb};
      CHECK_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
      p = both[0];
    }
    CHECK(z == size);
    CHECK(y == size * (size - 1) / 2 + size * e);
  }
  CHECK_MPI(MPI_Request_free(&p));
}

/* MPI_Start returns without the others: rank i starts, then passes a token
 * along the ranks; rank i + 1 starts only once it has the token. */
static void test_start_is_local(void) {
  int v = 0, sum = 0, token = 0, b = 0;
  MPI_Request ar, br;
  CHECK_MPI(MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar));
  CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &br));
  for (int e = 0; e < 10; ++e) {
    v = rank;
    if (rank == 0) b = e;
    if (rank > 0) CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, e, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Start(&ar));
    CHECK_MPI(MPI_Start(&br));
    if (rank + 1 < size) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, rank + 1, e, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&ar, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&br, MPI_STATUS_IGNORE));
    CHECK(sum == size * (size - 1) / 2);
    CHECK(b == e);
  }
  CHECK_MPI(MPI_Request_free(&ar));
  CHECK_MPI(MPI_Request_free(&br));
}

/* A barrier request started many times, freed inactive; a dup'd communicator's requests. */
static void test_barrier_and_dup(void) {
  MPI_Request r;
  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 4 * STARTS; ++e) {
    CHECK_MPI(MPI_Start(&r));
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
  }
  CHECK_MPI(MPI_Request_free(&r));
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  test_vectors(dup, 3, size / 2);
  test_interleaved(dup);
  CHECK_MPI(MPI_Comm_free(&dup));
}

/* A communicator whose segment attaches only at its first blocking
 * collective (MPI_Intercomm_merge's): requests made before that start the
 * nonblocking form, those after it take the plan, made at that start. */
static void test_late_segment(void) {
  if (size < 2) return;
  const int color = rank % 2;
  MPI_Comm half, inter, merged;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
  CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : 1, 77, &inter));
  CHECK_MPI(MPI_Intercomm_merge(inter, color, &merged));
  int me, np, b = 0, v = 0, sum = 0;
  MPI_Comm_rank(merged, &me);
  MPI_Comm_size(merged, &np);
  MPI_Request r[2];
  CHECK_MPI(MPI_Bcast_init(&b, 1, MPI_INT, 0, merged, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, merged, MPI_INFO_NULL, &r[1]));
  for (int e = 0; e < 20; ++e) {
    if (e == 10) { /* the first blocking collective: attaches the segment */
      int one = 1, all = 0;
      CHECK_MPI(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, merged));
      CHECK(all == np);
    }
    b = me == 0 ? e : -1;
    v = me + e;
    CHECK_MPI(MPI_Startall(2, r));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(b == e);
    CHECK(sum == np * (np - 1) / 2 + np * e);
  }
  CHECK_MPI(MPI_Request_free(&r[0]));
  CHECK_MPI(MPI_Request_free(&r[1]));
  CHECK_MPI(MPI_Comm_free(&merged));
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&half));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* 1 int and 200 ints: planned; 20000 ints (80 KB): by address or a schedule. */
  const int counts[] = {1, 200, 20000};
  for (int c = 0; c < 3; ++c) {
    test_vectors(MPI_COMM_WORLD, counts[c], c % size);
    test_blocks(MPI_COMM_WORLD, counts[c] > 1000 ? counts[c] / 4 : counts[c], (c + 1) % size);
    test_in_place(counts[c] > 1000 ? counts[c] / 4 : counts[c]);
    test_derived(counts[c] > 1000 ? counts[c] / 4 : counts[c]);
  }
  test_user_op();
  test_interleaved(MPI_COMM_WORLD);
  test_start_is_local();
  test_barrier_and_dup();
  test_late_segment();
  MPI_Finalize();
  return 0;
}
