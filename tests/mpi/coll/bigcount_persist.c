/* The large-count forms of the persistent collectives (MPI_*_init_c, MPI-4.1
 * annex A): each one started twice gives what its int form gives, with the
 * v and w forms' MPI_Count counts and MPI_Aint displacements. Every form
 * takes counts beyond INT_MAX (one element of a contiguous type per block),
 * started here with a zero-size type (the same path at no memory cost;
 * bigcount_huge_persist* move real data), the reductions with a user op
 * and the reduce-scatters beyond INT_MAX in pieces of 2^30 elements (also
 * the nonblocking forms). A negative count is MPI_ERR_COUNT.
 * mpi4py 4.x calls these whenever mpi.h declares them. */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void start_twice(MPI_Request* r, void (*reset)(void), void (*verify)(void)) {
  for (int round = 0; round < 2; ++round) {
    reset();
    CHECK_MPI(MPI_Start(r));
    CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
    verify();
  }
  CHECK_MPI(MPI_Request_free(r));
}

enum { K = 3 };
static int sbuf[64 * K], rbuf[64 * K];

static void reset_bufs(void) {
  for (int i = 0; i < 64 * K; ++i) {
    sbuf[i] = rank * 1000 + i;
    rbuf[i] = -1;
  }
}
/* Every rank sent sbuf[j*K .. j*K+K) to rank j (alltoall family) or
 * sbuf[0 .. K) to everyone (gather family). */
static void check_gathered(void) {
  for (int r = 0; r < size; ++r)
    for (int k = 0; k < K; ++k) CHECK(rbuf[r * K + k] == r * 1000 + k);
}
static void check_alltoall(void) {
  for (int r = 0; r < size; ++r)
    for (int k = 0; k < K; ++k) CHECK(rbuf[r * K + k] == r * 1000 + rank * K + k);
}
static void check_bcast(void) {
  for (int k = 0; k < K; ++k) CHECK(sbuf[k] == 0 * 1000 + k);
}
static void check_root_gathered(void) {
  if (rank == 0) check_gathered();
}
static void check_scattered(void) {
  for (int k = 0; k < K; ++k) CHECK(rbuf[k] == 0 * 1000 + rank * K + k);
}
static void check_allreduce(void) {
  for (int k = 0; k < K; ++k) CHECK(rbuf[k] == 1000 * (size * (size - 1) / 2) + size * k);
}
static void check_reduce(void) {
  if (rank == 0) check_allreduce();
}
static void check_scan(void) {
  for (int k = 0; k < K; ++k) CHECK(rbuf[k] == 1000 * (rank * (rank + 1) / 2) + (rank + 1) * k);
}
static void check_exscan(void) {
  if (rank > 0)
    for (int k = 0; k < K; ++k) CHECK(rbuf[k] == 1000 * (rank * (rank - 1) / 2) + rank * k);
}
static void check_reduce_scatter(void) {
  for (int k = 0; k < K; ++k) CHECK(rbuf[k] == 1000 * (size * (size - 1) / 2) + size * (rank * K + k));
}
/* Ring neighbours of a periodic 1-d Cartesian communicator: the left one first. */
static int left, right;
static void check_neighbor_allgather(void) {
  for (int k = 0; k < K; ++k) {
    CHECK(rbuf[k] == left * 1000 + k);
    CHECK(rbuf[K + k] == right * 1000 + k);
  }
}
static void check_neighbor_alltoall(void) {
  /* Block 0 went to the left neighbour, block 1 to the right one. */
  for (int k = 0; k < K; ++k) {
    CHECK(rbuf[k] == left * 1000 + K + k);
    CHECK(rbuf[K + k] == right * 1000 + k);
  }
}

static void check_untouched(void) {
  for (int i = 0; i < 64 * K; ++i) CHECK(rbuf[i] == -1 && sbuf[i] == rank * 1000 + i);
}

/* A user op on the zero-size type: called on pieces of at most 2^30 elements. */
static void piece_len(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)in;
  (void)inout;
  (void)type;
  CHECK(*len > 0 && *len <= (1 << 30));
}

static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; i++) ((int*)inout)[i] += ((int*)in)[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request r;
  MPI_Count* counts = malloc(sizeof(MPI_Count) * size);
  MPI_Aint* displs = malloc(sizeof(MPI_Aint) * size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * size);
  MPI_Aint* bdispls = malloc(sizeof(MPI_Aint) * size);
  for (int i = 0; i < size; ++i) {
    counts[i] = K;
    displs[i] = (MPI_Aint)i * K;
    bdispls[i] = (MPI_Aint)(i * K * sizeof(int));
    types[i] = MPI_INT;
  }

  CHECK_MPI(MPI_Bcast_init_c(sbuf, K, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_bcast);
  CHECK_MPI(MPI_Gather_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_root_gathered);
  CHECK_MPI(MPI_Gatherv_init_c(sbuf, K, MPI_INT, rbuf, counts, displs, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_root_gathered);
  CHECK_MPI(MPI_Scatter_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_scattered);
  CHECK_MPI(MPI_Scatterv_init_c(sbuf, counts, displs, MPI_INT, rbuf, K, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_scattered);
  CHECK_MPI(MPI_Allgather_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_gathered);
  CHECK_MPI(MPI_Allgatherv_init_c(sbuf, K, MPI_INT, rbuf, counts, displs, MPI_INT, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_gathered);
  CHECK_MPI(MPI_Alltoall_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_alltoall);
  CHECK_MPI(MPI_Alltoallv_init_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_alltoall);
  CHECK_MPI(MPI_Alltoallw_init_c(sbuf, counts, bdispls, types, rbuf, counts, bdispls, types, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_alltoall);
  CHECK_MPI(MPI_Reduce_init_c(sbuf, rbuf, K, MPI_INT, MPI_SUM, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_reduce);
  CHECK_MPI(MPI_Allreduce_init_c(sbuf, rbuf, K, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_allreduce);
  CHECK_MPI(MPI_Reduce_scatter_init_c(sbuf, rbuf, counts, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_reduce_scatter);
  CHECK_MPI(MPI_Reduce_scatter_block_init_c(sbuf, rbuf, K, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_reduce_scatter);
  CHECK_MPI(MPI_Scan_init_c(sbuf, rbuf, K, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_scan);
  CHECK_MPI(MPI_Exscan_init_c(sbuf, rbuf, K, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_exscan);

  /* Neighbourhood forms on a periodic ring (at np 1 and 2 both neighbours may be the same rank). */
  MPI_Comm ring;
  int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(w, 1, dims, periods, 0, &ring));
  CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
  MPI_Count nc[2] = {K, K};
  MPI_Aint nd[2] = {0, K}, nb[2] = {0, K * sizeof(int)};
  MPI_Datatype nt[2] = {MPI_INT, MPI_INT};
  CHECK_MPI(MPI_Neighbor_allgather_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_neighbor_allgather);
  CHECK_MPI(MPI_Neighbor_allgatherv_init_c(sbuf, K, MPI_INT, rbuf, nc, nd, MPI_INT, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_neighbor_allgather);
  CHECK_MPI(MPI_Neighbor_alltoall_init_c(sbuf, K, MPI_INT, rbuf, K, MPI_INT, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_neighbor_alltoall);
  CHECK_MPI(MPI_Neighbor_alltoallv_init_c(sbuf, nc, nd, MPI_INT, rbuf, nc, nd, MPI_INT, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_neighbor_alltoall);
  CHECK_MPI(MPI_Neighbor_alltoallw_init_c(sbuf, nc, nb, nt, rbuf, nc, nb, nt, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_neighbor_alltoall);

  /* Beyond INT_MAX every form makes its request (never started here with
   * MPI_INT; bigcount_huge_persist* move such data). */
  MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  const MPI_Count big = (MPI_Count)INT_MAX + 1;
  int cls;
  /* A reduction with a predefined op: one element of a contiguous type; with
   * a user op: pieces of 2^30 elements (one schedule) at each start. */
  CHECK_MPI(MPI_Allreduce_init_c(sbuf, rbuf, big, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  MPI_Op user_op;
  CHECK_MPI(MPI_Op_create(user_sum, 1, &user_op));
  CHECK_MPI(MPI_Allreduce_init_c(sbuf, rbuf, big, MPI_INT, user_op, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Reduce_init_c(sbuf, rbuf, big, MPI_INT, user_op, 0, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  MPI_Op_free(&user_op);
  counts[size - 1] = big;
  CHECK_MPI(MPI_Allgatherv_init_c(sbuf, K, MPI_INT, rbuf, counts, displs, MPI_INT, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Gather_init_c(sbuf, K, MPI_INT, rbuf, big, MPI_INT, 0, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  nc[1] = big;
  CHECK_MPI(MPI_Neighbor_alltoallw_init_c(sbuf, nc, nb, nt, rbuf, nc, nb, nt, ring, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  nc[1] = K;
  /* A reduce-scatter whose counts sum beyond INT_MAX: pieces at each start. */
  CHECK_MPI(MPI_Reduce_scatter_init_c(sbuf, rbuf, counts, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Request_free(&r));
  counts[size - 1] = K;

  /* Counts beyond INT_MAX of a zero-size type: the large-count path of every
   * form (a contiguous type of `big` elements per block) at no memory cost,
   * each started twice. */
  MPI_Datatype none;
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &none));
  CHECK_MPI(MPI_Type_commit(&none));
  MPI_Count bigs[64];
  MPI_Aint zeros[64];
  MPI_Datatype nones[64];
  CHECK(size <= 64);
  for (int i = 0; i < 64; ++i) { /* also the two ring neighbours at np 1 */
    bigs[i] = big;
    zeros[i] = 0;
    nones[i] = none;
  }
  CHECK_MPI(MPI_Bcast_init_c(sbuf, big, none, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Gather_init_c(sbuf, big, none, rbuf, big, none, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Scatter_init_c(sbuf, big, none, rbuf, big, none, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Allgather_init_c(sbuf, big, none, rbuf, big, none, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Alltoall_init_c(sbuf, big, none, rbuf, big, none, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Gatherv_init_c(sbuf, big, none, rbuf, bigs, zeros, none, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Scatterv_init_c(sbuf, bigs, zeros, none, rbuf, big, none, 0, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Allgatherv_init_c(sbuf, big, none, rbuf, bigs, zeros, none, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Alltoallv_init_c(sbuf, bigs, zeros, none, rbuf, bigs, zeros, none, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Alltoallw_init_c(sbuf, bigs, zeros, nones, rbuf, bigs, zeros, nones, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Neighbor_allgather_init_c(sbuf, big, none, rbuf, big, none, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Neighbor_allgatherv_init_c(sbuf, big, none, rbuf, bigs, zeros, none, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Neighbor_alltoall_init_c(sbuf, big, none, rbuf, big, none, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Neighbor_alltoallv_init_c(sbuf, bigs, zeros, none, rbuf, bigs, zeros, none, ring, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Neighbor_alltoallw_init_c(sbuf, bigs, zeros, nones, rbuf, bigs, zeros, nones, ring, MPI_INFO_NULL, &r));
  /* The request holds its types: freeing the caller's handle changes nothing. */
  CHECK_MPI(MPI_Type_free(&none));
  start_twice(&r, reset_bufs, check_untouched);

  /* The reductions beyond INT_MAX of the zero-size type: with a user op in
   * pieces of at most 2^30 elements (piece_len checks each call's length),
   * nonblocking and persistent, the reduce-scatters in place too. */
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &none));
  CHECK_MPI(MPI_Type_commit(&none));
  MPI_Op pieces_op;
  CHECK_MPI(MPI_Op_create(piece_len, 1, &pieces_op));
  CHECK_MPI(MPI_Iallreduce_c(sbuf, rbuf, big, none, pieces_op, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Ireduce_c(sbuf, rbuf, big, none, pieces_op, size - 1, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Iscan_c(sbuf, rbuf, big, none, pieces_op, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Iexscan_c(sbuf, rbuf, big, none, pieces_op, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Ireduce_scatter_c(MPI_IN_PLACE, rbuf, bigs, none, pieces_op, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Ireduce_scatter_block_c(sbuf, rbuf, big, none, MPI_SUM, w, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Reduce_scatter_c(MPI_IN_PLACE, rbuf, bigs, none, MPI_SUM, w));
  CHECK_MPI(MPI_Allreduce_init_c(MPI_IN_PLACE, rbuf, big, none, pieces_op, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Exscan_init_c(sbuf, rbuf, big, none, pieces_op, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Reduce_scatter_init_c(sbuf, rbuf, bigs, none, pieces_op, w, MPI_INFO_NULL, &r));
  start_twice(&r, reset_bufs, check_untouched);
  if (size >= 2) { /* an intercommunicator (even ranks, odd ranks): pieces of the whole vector */
    MPI_Comm half, inter;
    CHECK_MPI(MPI_Comm_split(w, rank % 2, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, w, 1 - rank % 2, 5, &inter));
    MPI_Count each[64];
    for (int i = 0; i < 64; ++i) each[i] = i == 0 ? 2 * big : 0; /* both groups: 2 big in all */
    CHECK_MPI(MPI_Ireduce_scatter_c(sbuf, rbuf, each, none, pieces_op, inter, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Reduce_scatter_c(sbuf, rbuf, each, none, MPI_SUM, inter));
    CHECK_MPI(MPI_Reduce_scatter_init_c(sbuf, rbuf, each, none, pieces_op, inter, MPI_INFO_NULL, &r));
    start_twice(&r, reset_bufs, check_untouched);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
  }
  CHECK_MPI(MPI_Reduce_scatter_block_init_c(MPI_IN_PLACE, rbuf, big, none, MPI_SUM, w, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Type_free(&none));
  start_twice(&r, reset_bufs, check_untouched);
  CHECK_MPI(MPI_Op_free(&pieces_op));

  /* A negative count is MPI_ERR_COUNT, and no request. */
  MPI_Error_class(MPI_Bcast_init_c(sbuf, -1, MPI_INT, 0, w, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  r = MPI_REQUEST_NULL;
  MPI_Error_class(MPI_Allgather_init_c(sbuf, -1, MPI_INT, rbuf, K, MPI_INT, w, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Alltoall_init_c(sbuf, K, MPI_INT, rbuf, -1, MPI_INT, w, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  counts[0] = -1;
  MPI_Error_class(MPI_Alltoallv_init_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, w,
                                       MPI_INFO_NULL, &r),
                  &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Allgatherv_init_c(sbuf, K, MPI_INT, rbuf, counts, displs, MPI_INT, w, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Reduce_scatter_init_c(sbuf, rbuf, counts, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  counts[0] = K;
  nc[0] = -1;
  MPI_Error_class(MPI_Neighbor_alltoallv_init_c(sbuf, nc, nd, MPI_INT, rbuf, nc, nd, MPI_INT, ring, MPI_INFO_NULL, &r),
                  &cls);
  CHECK(cls == MPI_ERR_COUNT);
  MPI_Error_class(MPI_Neighbor_alltoallw_init_c(sbuf, nc, nb, nt, rbuf, nc, nb, nt, ring, MPI_INFO_NULL, &r), &cls);
  CHECK(cls == MPI_ERR_COUNT);
  CHECK(r == MPI_REQUEST_NULL);

  MPI_Comm_free(&ring);
  free(counts);
  free(displs);
  free(types);
  free(bdispls);
  MPI_Finalize();
  return 0;
}
