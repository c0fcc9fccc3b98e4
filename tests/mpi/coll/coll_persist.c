/* Persistent collectives (MPI-4.0 §6.12, §8.8): every MPI_*_init on
 * MPI_COMM_WORLD, started three times with new data each epoch and completed
 * by a different wait/test form each time; MPI_Startall of several; a
 * derived datatype freed after _init; MPI_Request_free of an inactive
 * request; the intercommunicator forms; the neighbourhood forms on a ring;
 * bad arguments caught at _init (MPI_ERRORS_RETURN). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* Completes *r in the way chosen by `how` (the epoch number). */
static void complete(MPI_Request *r, int how) {
  MPI_Status st;
  int flag = 0, idx = -1, outcount = 0, indices[1];
  switch (how % 9) {
    case 0: CHECK_MPI(MPI_Wait(r, &st)); break;
    case 1: while (!flag) CHECK_MPI(MPI_Test(r, &flag, &st)); break;
    case 2: CHECK_MPI(MPI_Waitall(1, r, &st)); break;
    case 3: CHECK_MPI(MPI_Waitany(1, r, &idx, &st)); CHECK(idx == 0); break;
    case 4: CHECK_MPI(MPI_Waitsome(1, r, &outcount, indices, &st)); CHECK(outcount == 1 && indices[0] == 0); break;
    case 5: while (!flag) CHECK_MPI(MPI_Testall(1, r, &flag, &st)); break;
    case 6: while (!flag) CHECK_MPI(MPI_Testany(1, r, &idx, &flag, &st)); CHECK(idx == 0); break;
    case 7:
      while (!outcount) CHECK_MPI(MPI_Testsome(1, r, &outcount, indices, &st));
      CHECK(outcount == 1);
      break;
    case 8:
      while (!flag) CHECK_MPI(MPI_Request_get_status(*r, &flag, &st));
      CHECK_MPI(MPI_Wait(r, &st)); /* makes it inactive */
      break;
  }
  CHECK(*r != MPI_REQUEST_NULL); /* persistent: the handle stays */
  /* Inactive now: waiting again returns at once with an empty status. */
  CHECK_MPI(MPI_Wait(r, &st));
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
  flag = 0;
  CHECK_MPI(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
  CHECK(flag);
}

static void run(MPI_Request *r, int epoch) {
  CHECK_MPI(MPI_Start(r));
  complete(r, epoch);
}

#define EPOCHS 3
#define N 5 /* elements per block */

static void test_rooted(int root) {
  MPI_Request r;
  int *sb = malloc(sizeof(int) * N * size), *rb = malloc(sizeof(int) * N * size);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);

  /* Bcast */
  CHECK_MPI(MPI_Bcast_init(sb, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = rank == root ? 100 * e + i : -1;
    run(&r, e);
    for (int i = 0; i < N; ++i) CHECK(sb[i] == 100 * e + i);
  }
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(r == MPI_REQUEST_NULL);

  /* Gather */
  CHECK_MPI(MPI_Gather_init(sb, N, MPI_INT, rb, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = 1000 * e + 10 * rank + i;
    memset(rb, -1, sizeof(int) * N * size);
    run(&r, e + 1);
    if (rank == root)
      for (int p = 0; p < size; ++p)
        for (int i = 0; i < N; ++i) CHECK(rb[p * N + i] == 1000 * e + 10 * p + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Gatherv: rank p sends p % 3 + 1 elements, placed in reverse order. The
   * arrays are changed after _init (the request keeps its own copy). */
  int total = 0;
  for (int p = size - 1; p >= 0; --p) {
    counts[p] = p % 3 + 1;
    displs[p] = total;
    total += counts[p];
  }
  CHECK_MPI(MPI_Gatherv_init(sb, rank % 3 + 1, MPI_INT, rb, counts, displs, MPI_INT, root, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &r));
  int *saved_counts = malloc(sizeof(int) * size), *saved_displs = malloc(sizeof(int) * size);
  memcpy(saved_counts, counts, sizeof(int) * size);
  memcpy(saved_displs, displs, sizeof(int) * size);
  memset(counts, 0, sizeof(int) * size);
  memset(displs, 0, sizeof(int) * size);
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < 3; ++i) sb[i] = 1000 * e + 10 * rank + i;
    memset(rb, -1, sizeof(int) * N * size);
    run(&r, e + 2);
    if (rank == root)
      for (int p = 0; p < size; ++p)
        for (int i = 0; i < saved_counts[p]; ++i) CHECK(rb[saved_displs[p] + i] == 1000 * e + 10 * p + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Scatter */
  CHECK_MPI(MPI_Scatter_init(sb, N, MPI_INT, rb, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N * size; ++i) sb[i] = rank == root ? 7 * e + i : -1;
    run(&r, e + 3);
    for (int i = 0; i < N; ++i) CHECK(rb[i] == 7 * e + rank * N + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Scatterv with the saved counts and displacements */
  CHECK_MPI(MPI_Scatterv_init(sb, saved_counts, saved_displs, MPI_INT, rb, rank % 3 + 1, MPI_INT, root,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N * size; ++i) sb[i] = rank == root ? 3 * e + i : -1;
    run(&r, e + 4);
    for (int i = 0; i < rank % 3 + 1; ++i) CHECK(rb[i] == 3 * e + saved_displs[rank] + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Reduce: sum and a non-commutative-safe check (max) */
  CHECK_MPI(MPI_Reduce_init(sb, rb, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = rank + e + i;
    run(&r, e + 5);
    if (rank == root)
      for (int i = 0; i < N; ++i) CHECK(rb[i] == size * (size - 1) / 2 + size * (e + i));
  }
  CHECK_MPI(MPI_Request_free(&r));
  free(sb);
  free(rb);
  free(counts);
  free(displs);
  free(saved_counts);
  free(saved_displs);
}

static void test_all(void) {
  MPI_Request r;
  const int n = size;
  int *sb = malloc(sizeof(int) * N * n), *rb = malloc(sizeof(int) * N * n);
  int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n), *rc = malloc(sizeof(int) * n),
      *rd = malloc(sizeof(int) * n);
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * n);

  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 9; ++e) run(&r, e);
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Allgather_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = 100 * rank + e + i;
    run(&r, e + 6);
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < N; ++i) CHECK(rb[p * N + i] == 100 * p + e + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Allgatherv in place */
  int total = 0;
  for (int p = 0; p < n; ++p) {
    rc[p] = p % 2 + 1;
    rd[p] = total;
    total += rc[p];
  }
  CHECK_MPI(MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rb, rc, rd, MPI_INT, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < rc[rank]; ++i) rb[rd[rank] + i] = 50 * rank + e + i;
    run(&r, e + 7);
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < rc[p]; ++i) CHECK(rb[rd[p] + i] == 50 * p + e + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Alltoall_init(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < N; ++i) sb[p * N + i] = 1000 * rank + 10 * p + i + e;
    run(&r, e + 8);
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < N; ++i) CHECK(rb[p * N + i] == 1000 * p + 10 * rank + i + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Alltoallv: to p, (rank + p) % 3 elements */
  int st = 0, rt = 0;
  for (int p = 0; p < n; ++p) {
    sc[p] = (rank + p) % 3;
    sd[p] = st;
    st += sc[p];
    rc[p] = (p + rank) % 3;
    rd[p] = rt;
    rt += rc[p];
  }
  CHECK_MPI(MPI_Alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < sc[p]; ++i) sb[sd[p] + i] = 1000 * rank + 10 * p + i + e;
    run(&r, e);
    for (int p = 0; p < n; ++p)
      for (int i = 0; i < rc[p]; ++i) CHECK(rb[rd[p] + i] == 1000 * p + 10 * rank + i + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Alltoallw with byte displacements and a derived type freed after _init */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  for (int p = 0; p < n; ++p) {
    sc[p] = 1;
    sd[p] = (int)(p * 2 * sizeof(int));
    rc[p] = 1;
    rd[p] = (int)(p * 2 * sizeof(int));
    types[p] = pair;
  }
  CHECK_MPI(MPI_Alltoallw_init(sb, sc, sd, types, rb, rc, rd, types, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Type_free(&pair));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int p = 0; p < n; ++p) {
      sb[2 * p] = 100 * rank + p + e;
      sb[2 * p + 1] = -(100 * rank + p + e);
    }
    run(&r, e + 1);
    for (int p = 0; p < n; ++p) CHECK(rb[2 * p] == 100 * p + rank + e && rb[2 * p + 1] == -(100 * p + rank + e));
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Allreduce_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = rank * e + i;
    run(&r, e + 2);
    for (int i = 0; i < N; ++i) CHECK(rb[i] == e * n * (n - 1) / 2 + n * i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  for (int p = 0; p < n; ++p) rc[p] = p % 2 + 1;
  total = 0;
  for (int p = 0; p < n; ++p) total += rc[p];
  CHECK_MPI(MPI_Reduce_scatter_init(sb, rb, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < total; ++i) sb[i] = i + e;
    run(&r, e + 3);
    int off = 0;
    for (int p = 0; p < rank; ++p) off += rc[p];
    for (int i = 0; i < rc[rank]; ++i) CHECK(rb[i] == n * (off + i + e));
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Reduce_scatter_block_init(sb, rb, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < 2 * n; ++i) sb[i] = rank * 1000 + i + e;
    run(&r, e + 4);
    for (int i = 0; i < 2; ++i) CHECK(rb[i] == (n - 1) * 1000 + 2 * rank + i + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Scan_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = rank + i + e;
    run(&r, e + 5);
    for (int i = 0; i < N; ++i) CHECK(rb[i] == rank * (rank + 1) / 2 + (rank + 1) * (i + e));
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Exscan_init(sb, rb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < N; ++i) sb[i] = rank + i + e;
    run(&r, e + 6);
    if (rank > 0)
      for (int i = 0; i < N; ++i) CHECK(rb[i] == (rank - 1) * rank / 2 + rank * (i + e));
  }
  CHECK_MPI(MPI_Request_free(&r));

  free(sb);
  free(rb);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(types);
}

/* Several persistent collectives and a persistent point-to-point pair in one
 * MPI_Startall, completed by MPI_Waitall; the array order is the same
 * everywhere (the standard's condition for starting collectives together). */
static void test_startall(void) {
  int a[4], b[4] = {0, 0, 0, 0}, c = rank, d = -1, s = 0;
  MPI_Request rs[4];
  CHECK_MPI(MPI_Bcast_init(a, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rs[0]));
  CHECK_MPI(MPI_Allreduce_init(&c, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &rs[1]));
  CHECK_MPI(MPI_Send_init(&c, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &rs[2]));
  CHECK_MPI(MPI_Recv_init(&d, 1, MPI_INT, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &rs[3]));
  for (int e = 0; e < 4; ++e) {
    for (int i = 0; i < 4; ++i) a[i] = rank == 0 ? e * 10 + i : -1;
    c = rank + e;
    CHECK_MPI(MPI_Startall(4, rs));
    CHECK_MPI(MPI_Waitall(4, rs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < 4; ++i) CHECK(a[i] == e * 10 + i);
    CHECK(s == size * (size - 1) / 2 + size * e);
    CHECK(d == (rank + size - 1) % size + e);
  }
  for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Request_free(&rs[i]));
  /* Blocking and nonblocking collectives between a start and its wait. */
  int x = rank, y = -1, z = -1;
  MPI_Request p, nb;
  CHECK_MPI(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &p));
  for (int e = 0; e < 3; ++e) {
    x = rank + e;
    CHECK_MPI(MPI_Start(&p));
    CHECK_MPI(MPI_Allreduce(&x, &z, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ibcast(b, 4, MPI_INT, 0, MPI_COMM_WORLD, &nb));
    CHECK_MPI(MPI_Wait(&p, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&nb, MPI_STATUS_IGNORE));
    CHECK(y == size - 1 + e && z == e);
  }
  CHECK_MPI(MPI_Request_free(&p));
}

/* Intercommunicator forms: the even and the odd ranks of the world. */
static void test_inter(void) {
  if (size < 2) return;
  MPI_Comm local, inter;
  const int color = rank % 2;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, &inter));
  int lrank, rsize;
  MPI_Comm_rank(local, &lrank);
  MPI_Comm_remote_size(inter, &rsize);
  MPI_Request r;
  int v[3], *all = malloc(sizeof(int) * 3 * (size_t)rsize), sum[3];

  /* Bcast from local rank 0 of the even group to the odd group. */
  const int root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  CHECK_MPI(MPI_Bcast_init(v, 3, MPI_INT, root, inter, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < 3; ++i) v[i] = root == MPI_ROOT ? 40 + e + i : -1;
    run(&r, e);
    if (color == 1)
      for (int i = 0; i < 3; ++i) CHECK(v[i] == 40 + e + i);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Allgather: each side gets the other group's blocks. */
  CHECK_MPI(MPI_Allgather_init(v, 3, MPI_INT, all, 3, MPI_INT, inter, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < 3; ++i) v[i] = 100 * color + 10 * lrank + i + e;
    run(&r, e + 1);
    for (int p = 0; p < rsize; ++p)
      for (int i = 0; i < 3; ++i) CHECK(all[3 * p + i] == 100 * (1 - color) + 10 * p + i + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* Allreduce: the sum over the remote group. */
  CHECK_MPI(MPI_Allreduce_init(v, sum, 3, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < 3; ++i) v[i] = lrank + i + e;
    run(&r, e + 2);
    for (int i = 0; i < 3; ++i) CHECK(sum[i] == rsize * (rsize - 1) / 2 + rsize * (i + e));
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* MPI_IN_PLACE is refused on an intercommunicator, at _init. */
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  int cls;
  MPI_Error_class(MPI_Allreduce_init(MPI_IN_PLACE, sum, 3, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_BUFFER);

  /* Barrier */
  CHECK_MPI(MPI_Barrier_init(inter, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) run(&r, e + 3);
  CHECK_MPI(MPI_Request_free(&r));
  free(all);
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&local));
}

/* Neighbourhood forms on a periodic ring: left and right neighbours. */
static void test_neighbor(void) {
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  int me, left, right;
  MPI_Comm_rank(ring, &me);
  CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
  MPI_Request r;
  int sb[4], rb[4], sc[2] = {1, 2}, sd[2] = {0, 1}, rc[2] = {2, 1}, rd[2] = {0, 2};
  MPI_Aint sdw[2] = {0, sizeof(int)}, rdw[2] = {0, 2 * sizeof(int)};
  MPI_Datatype tw[2] = {MPI_INT, MPI_INT};

  CHECK_MPI(MPI_Neighbor_allgather_init(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    sb[0] = 10 * me + e;
    run(&r, e);
    CHECK(rb[0] == 10 * left + e && rb[1] == 10 * right + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  const int gc[2] = {1, 1}, gd[2] = {1, 0};
  CHECK_MPI(MPI_Neighbor_allgatherv_init(sb, 1, MPI_INT, rb, gc, gd, MPI_INT, ring, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    sb[0] = 10 * me + e;
    run(&r, e + 1);
    CHECK(rb[1] == 10 * left + e && rb[0] == 10 * right + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Neighbor_alltoall_init(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    sb[0] = 100 * me + e;      /* to the left */
    sb[1] = 100 * me + 50 + e; /* to the right */
    run(&r, e + 2);
    /* from the left: what it sent right; from the right: what it sent left */
    CHECK(rb[0] == 100 * left + 50 + e && rb[1] == 100 * right + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* v form: 1 element to the left, 2 to the right; receive 2 from the left, 1 from the right */
  CHECK_MPI(MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ring, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    sb[0] = 100 * me + e;
    sb[1] = 100 * me + 1 + e;
    sb[2] = 100 * me + 2 + e;
    run(&r, e + 3);
    CHECK(rb[0] == 100 * left + 1 + e && rb[1] == 100 * left + 2 + e && rb[2] == 100 * right + e);
  }
  CHECK_MPI(MPI_Request_free(&r));

  CHECK_MPI(MPI_Neighbor_alltoallw_init(sb, sc, sdw, tw, rb, rc, rdw, tw, ring, MPI_INFO_NULL, &r));
  for (int e = 0; e < EPOCHS; ++e) {
    sb[0] = 100 * me + e;
    sb[1] = 100 * me + 1 + e;
    sb[2] = 100 * me + 2 + e;
    run(&r, e + 4);
    CHECK(rb[0] == 100 * left + 1 + e && rb[1] == 100 * left + 2 + e && rb[2] == 100 * right + e);
  }
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Comm_free(&ring));
}

/* Large data (the segment's by-address and the schedules' rendezvous paths). */
static void test_large(void) {
  const int n = 65536;
  int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n),
      *g = malloc(sizeof(int) * (size_t)n * (size_t)size);
  MPI_Request r[3];
  CHECK_MPI(MPI_Bcast_init(a, n, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
  CHECK_MPI(MPI_Allreduce_init(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
  CHECK_MPI(MPI_Allgather_init(b, n, MPI_INT, g, n, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]));
  for (int e = 0; e < EPOCHS; ++e) {
    for (int i = 0; i < n; ++i) a[i] = rank == size - 1 ? i + e : -1;
    run(&r[0], e);
    for (int i = 0; i < n; ++i) CHECK(a[i] == i + e);
    run(&r[1], e + 1);
    for (int i = 0; i < n; ++i) CHECK(b[i] == size * (i + e));
    run(&r[2], e + 2);
    for (int p = 0; p < size; ++p) CHECK(g[(size_t)p * n + 7] == size * (7 + e));
  }
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Request_free(&r[i]));
  free(a);
  free(b);
  free(g);
}

/* Bad arguments are reported by the _init call, on the calling rank. */
static void test_errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request r = MPI_REQUEST_NULL;
  int v[2] = {0, 0}, cls;
  CHECK(MPI_Bcast_init(v, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &r) != MPI_SUCCESS);
  CHECK(r == MPI_REQUEST_NULL);
  MPI_Error_class(MPI_Bcast_init(v, 1, MPI_INT, size, MPI_COMM_WORLD, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_ROOT);
  MPI_Error_class(MPI_Allreduce_init(v, v + 1, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Allreduce_init(v, v + 1, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_OP);
  MPI_Error_class(MPI_Barrier_init(MPI_COMM_WORLD, (MPI_Info)0x5eed, &r), &cls);
  CHECK(cls == MPI_ERR_INFO);
  MPI_Error_class(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COMM);
  MPI_Error_class(MPI_Gather_init(v, 1, MPI_DATATYPE_NULL, v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_TYPE);
  MPI_Error_class(MPI_Neighbor_allgather_init(v, 1, MPI_INT, v, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY);
  MPI_Error_class(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL), &cls);
  CHECK(cls == MPI_ERR_ARG);
  /* Starting an active request, freeing an active one. */
  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&r));
  /* A nonblocking collective's request is not persistent. */
  CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &r));
  MPI_Error_class(MPI_Start(&r), &cls);
  CHECK(cls == MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  test_rooted(0);
  test_rooted(size - 1);
  test_all();
  test_startall();
  test_inter();
  test_neighbor();
  test_large();
  test_errors();
  /* A request never started, freed at once. */
  MPI_Request r;
  CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  MPI_Finalize();
  return 0;
}
