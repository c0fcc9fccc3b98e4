/* The large-count (_c) collectives of MPI-4.1 with counts that fit an int:
 * each blocking and nonblocking form, the v and w forms (in place too), the
 * reductions and the neighbourhood collectives give what the int form gives
 * on the same input. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

enum { K = 3 };  /* elements per block */

static int* ints(int n, int seed) {
  int* p = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; ++i) p[i] = seed < 0 ? -1 : seed * 1000 + i;
  return p;
}

#define same(a, b, n) CHECK(memcmp((a), (b), sizeof(int) * (size_t)(n)) == 0)

static void wait_or_not(MPI_Request* r) {
  if (r) CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
}

/* The rooted and all-to-all non-v forms. */
static void uniform_forms(int nb) {
  const int n = size * K;
  for (int root = 0; root < size; root += (size > 2 ? size - 1 : 1)) {
    MPI_Request rq, *r = nb ? &rq : NULL;
    int *a = ints(n, rank + 1), *b = ints(n, rank + 1);
    /* Bcast */
    if (nb) CHECK_MPI(MPI_Ibcast_c(a, n, MPI_INT, root, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Bcast_c(a, n, MPI_INT, root, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD));
    same(a, b, n);
    /* Gather, and in place at the root */
    int *s = ints(K, rank + 7), *ga = ints(n, -1), *gb = ints(n, -1);
    if (nb) CHECK_MPI(MPI_Igather_c(s, K, MPI_INT, ga, K, MPI_INT, root, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Gather_c(s, K, MPI_INT, ga, K, MPI_INT, root, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Gather(s, K, MPI_INT, gb, K, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root) same(ga, gb, n);
    memset(ga, 0xff, sizeof(int) * (size_t)n);
    if (rank == root) memcpy(ga + root * K, s, sizeof(int) * K);
    CHECK_MPI(MPI_Gather_c(rank == root ? MPI_IN_PLACE : s, K, MPI_INT, ga, K, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root) same(ga, gb, n);
    /* Scatter */
    int *sa = ints(K, -1), *sb = ints(K, -1);
    if (nb) CHECK_MPI(MPI_Iscatter_c(gb, K, MPI_INT, sa, K, MPI_INT, root, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Scatter_c(gb, K, MPI_INT, sa, K, MPI_INT, root, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Scatter(gb, K, MPI_INT, sb, K, MPI_INT, root, MPI_COMM_WORLD));
    same(sa, sb, K);
    same(sa, s, K);
    free(a), free(b), free(s), free(ga), free(gb), free(sa), free(sb);
  }
  MPI_Request rq, *r = nb ? &rq : NULL;
  int *s = ints(n, rank + 3), *a = ints(n, -1), *b = ints(n, -1);
  /* Allgather, and in place */
  if (nb) CHECK_MPI(MPI_Iallgather_c(s, K, MPI_INT, a, K, MPI_INT, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Allgather_c(s, K, MPI_INT, a, K, MPI_INT, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Allgather(s, K, MPI_INT, b, K, MPI_INT, MPI_COMM_WORLD));
  same(a, b, n);
  memset(a, 0, sizeof(int) * (size_t)n);
  memcpy(a + rank * K, s, sizeof(int) * K);
  CHECK_MPI(MPI_Allgather_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, K, MPI_INT, MPI_COMM_WORLD));
  same(a, b, n);
  /* Alltoall, and in place */
  if (nb) CHECK_MPI(MPI_Ialltoall_c(s, K, MPI_INT, a, K, MPI_INT, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Alltoall_c(s, K, MPI_INT, a, K, MPI_INT, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Alltoall(s, K, MPI_INT, b, K, MPI_INT, MPI_COMM_WORLD));
  same(a, b, n);
  memcpy(a, s, sizeof(int) * (size_t)n);
  CHECK_MPI(MPI_Alltoall_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, K, MPI_INT, MPI_COMM_WORLD));
  same(a, b, n);
  free(s), free(a), free(b);
}

/* The v and w forms: rank j's block has j + 1 elements, placed in reverse
 * order with a gap of one element. */
static void vector_forms(int nb) {
  MPI_Count* cc = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint* dc = malloc(sizeof(MPI_Aint) * (size_t)size);
  MPI_Aint* bdc = malloc(sizeof(MPI_Aint) * (size_t)size);
  int* ci = malloc(sizeof(int) * (size_t)size);
  int* di = malloc(sizeof(int) * (size_t)size);
  int* bdi = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype* ty = malloc(sizeof(MPI_Datatype) * (size_t)size);
  int total = 0;
  for (int j = size - 1; j >= 0; --j) {
    cc[j] = ci[j] = j + 1;
    dc[j] = di[j] = total;
    bdc[j] = bdi[j] = total * (int)sizeof(int);
    ty[j] = MPI_INT;
    total += j + 2;
  }
  const int mine = rank + 1;
  MPI_Request rq, *r = nb ? &rq : NULL;
  for (int root = 0; root < size; root += (size > 2 ? size - 1 : 1)) {
    int *s = ints(mine, rank + 5), *a = ints(total, -1), *b = ints(total, -1);
    if (nb) CHECK_MPI(MPI_Igatherv_c(s, mine, MPI_INT, a, cc, dc, MPI_INT, root, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Gatherv_c(s, mine, MPI_INT, a, cc, dc, MPI_INT, root, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Gatherv(s, mine, MPI_INT, b, ci, di, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root) same(a, b, total);
    memset(a, 0xff, sizeof(int) * (size_t)total);
    if (rank == root) memcpy(a + di[root], s, sizeof(int) * (size_t)mine);
    CHECK_MPI(MPI_Gatherv_c(rank == root ? MPI_IN_PLACE : s, mine, MPI_INT, a, cc, dc, MPI_INT, root,
                            MPI_COMM_WORLD));
    if (rank == root) same(a, b, total);
    int *x = ints(mine, -1), *y = ints(mine, -1);
    if (nb) CHECK_MPI(MPI_Iscatterv_c(b, cc, dc, MPI_INT, x, mine, MPI_INT, root, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Scatterv_c(b, cc, dc, MPI_INT, x, mine, MPI_INT, root, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Scatterv(b, ci, di, MPI_INT, y, mine, MPI_INT, root, MPI_COMM_WORLD));
    same(x, y, mine);
    same(x, s, mine);
    CHECK_MPI(MPI_Scatterv_c(b, cc, dc, MPI_INT, rank == root ? MPI_IN_PLACE : x, mine, MPI_INT, root,
                             MPI_COMM_WORLD));
    same(x, s, mine);
    free(s), free(a), free(b), free(x), free(y);
  }
  int *s = ints(mine, rank + 9), *a = ints(total, -1), *b = ints(total, -1);
  if (nb) CHECK_MPI(MPI_Iallgatherv_c(s, mine, MPI_INT, a, cc, dc, MPI_INT, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Allgatherv_c(s, mine, MPI_INT, a, cc, dc, MPI_INT, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Allgatherv(s, mine, MPI_INT, b, ci, di, MPI_INT, MPI_COMM_WORLD));
  same(a, b, total);
  memset(a, 0xff, sizeof(int) * (size_t)total);
  memcpy(a + di[rank], s, sizeof(int) * (size_t)mine);
  CHECK_MPI(MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, cc, dc, MPI_INT, MPI_COMM_WORLD));
  for (int j = 0; j < size; ++j) same(a + di[j], b + di[j], ci[j]);
  /* Alltoallv / alltoallw: everyone sends j + 1 elements to j; receives
   * rank + 1 from each, at (rank + 2) * j. */
  {
    MPI_Count* rcc = malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint* rdc = malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Aint* rbdc = malloc(sizeof(MPI_Aint) * (size_t)size);
    int* rci = malloc(sizeof(int) * (size_t)size);
    int* rdi = malloc(sizeof(int) * (size_t)size);
    int* rbdi = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; ++j) {
      rcc[j] = rci[j] = mine;
      rdc[j] = rdi[j] = (rank + 2) * j;
      rbdc[j] = rbdi[j] = (rank + 2) * j * (int)sizeof(int);
    }
    const int rtotal = (rank + 2) * size;
    int *src = ints(total, rank + 11), *ra = ints(rtotal, -1), *rb = ints(rtotal, -1);
    if (nb) CHECK_MPI(MPI_Ialltoallv_c(src, cc, dc, MPI_INT, ra, rcc, rdc, MPI_INT, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Alltoallv_c(src, cc, dc, MPI_INT, ra, rcc, rdc, MPI_INT, MPI_COMM_WORLD));
    wait_or_not(r);
    CHECK_MPI(MPI_Alltoallv(src, ci, di, MPI_INT, rb, rci, rdi, MPI_INT, MPI_COMM_WORLD));
    same(ra, rb, rtotal);
    memset(ra, 0xff, sizeof(int) * (size_t)rtotal);
    if (nb) CHECK_MPI(MPI_Ialltoallw_c(src, cc, bdc, ty, ra, rcc, rbdc, ty, MPI_COMM_WORLD, r));
    else CHECK_MPI(MPI_Alltoallw_c(src, cc, bdc, ty, ra, rcc, rbdc, ty, MPI_COMM_WORLD));
    wait_or_not(r);
    same(ra, rb, rtotal);
    /* In place: symmetric counts (k elements between every pair). */
    for (int j = 0; j < size; ++j) {
      rcc[j] = rci[j] = 2;
      rdc[j] = rdi[j] = 3 * j;
      rbdc[j] = 3 * j * (int)sizeof(int);
    }
    int *ia = ints(3 * size, rank + 13), *ib = ints(3 * size, rank + 13);
    CHECK_MPI(MPI_Alltoallv_c(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, ia, rcc, rdc, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, ib, rci, rdi, MPI_INT, MPI_COMM_WORLD));
    same(ia, ib, 3 * size);
    free(ia);
    ia = ints(3 * size, rank + 13);
    CHECK_MPI(MPI_Alltoallw_c(MPI_IN_PLACE, NULL, NULL, NULL, ia, rcc, rbdc, ty, MPI_COMM_WORLD));
    same(ia, ib, 3 * size);
    free(ia), free(ib), free(src), free(ra), free(rb);
    free(rcc), free(rdc), free(rbdc), free(rci), free(rdi), free(rbdi);
  }
  free(s), free(a), free(b);
  free(cc), free(dc), free(bdc), free(ci), free(di), free(bdi), free(ty);
}

static void reductions(int nb) {
  const int n = size * K;
  MPI_Request rq, *r = nb ? &rq : NULL;
  int *s = ints(n, rank + 1), *a = ints(n, -1), *b = ints(n, -1);
  const int root = size - 1;
  if (nb) CHECK_MPI(MPI_Ireduce_c(s, a, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Reduce_c(s, a, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Reduce(s, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
  if (rank == root) same(a, b, n);
  if (nb) CHECK_MPI(MPI_Iallreduce_c(s, a, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Allreduce_c(s, a, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Allreduce(s, b, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  same(a, b, n);
  memcpy(a, s, sizeof(int) * (size_t)n);
  CHECK_MPI(MPI_Allreduce_c(MPI_IN_PLACE, a, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  same(a, b, n);
  MPI_Count* rc = malloc(sizeof(MPI_Count) * (size_t)size);
  int* rci = malloc(sizeof(int) * (size_t)size);
  int rtotal = 0;
  for (int j = 0; j < size; ++j) rtotal += (rc[j] = rci[j] = j % 3 + 1);
  int* big = ints(rtotal, rank + 2);
  if (nb) CHECK_MPI(MPI_Ireduce_scatter_c(big, a, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Reduce_scatter_c(big, a, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Reduce_scatter(big, b, rci, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  same(a, b, rci[rank]);
  if (nb) CHECK_MPI(MPI_Ireduce_scatter_block_c(s, a, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Reduce_scatter_block_c(s, a, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Reduce_scatter_block(s, b, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  same(a, b, K);
  if (nb) CHECK_MPI(MPI_Iscan_c(s, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Scan_c(s, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Scan(s, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  same(a, b, n);
  if (nb) CHECK_MPI(MPI_Iexscan_c(s, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, r));
  else CHECK_MPI(MPI_Exscan_c(s, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  wait_or_not(r);
  CHECK_MPI(MPI_Exscan(s, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (rank > 0) same(a, b, n);
  free(s), free(a), free(b), free(rc), free(rci), free(big);
}

/* Neighbourhood collectives on a periodic ring (a rank's two neighbours). */
static void neighbourhood(int nb) {
  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
  MPI_Request rq, *r = nb ? &rq : NULL;
  int *s = ints(2 * K, rank + 1), *a = ints(2 * K, -1), *b = ints(2 * K, -1);
  if (nb) CHECK_MPI(MPI_Ineighbor_allgather_c(s, K, MPI_INT, a, K, MPI_INT, ring, r));
  else CHECK_MPI(MPI_Neighbor_allgather_c(s, K, MPI_INT, a, K, MPI_INT, ring));
  wait_or_not(r);
  CHECK_MPI(MPI_Neighbor_allgather(s, K, MPI_INT, b, K, MPI_INT, ring));
  same(a, b, 2 * K);
  if (nb) CHECK_MPI(MPI_Ineighbor_alltoall_c(s, K, MPI_INT, a, K, MPI_INT, ring, r));
  else CHECK_MPI(MPI_Neighbor_alltoall_c(s, K, MPI_INT, a, K, MPI_INT, ring));
  wait_or_not(r);
  CHECK_MPI(MPI_Neighbor_alltoall(s, K, MPI_INT, b, K, MPI_INT, ring));
  same(a, b, 2 * K);
  const MPI_Count cc[2] = {1, 2};
  const MPI_Aint dc[2] = {3, 0}, bdc[2] = {12, 0};
  const int ci[2] = {1, 2}, di[2] = {3, 0};
  const MPI_Aint bdi[2] = {12, 0};
  const MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
  /* allgatherv: each neighbour's block of 2 lands at 3 (left) and 0 (right). */
  const MPI_Count gc[2] = {2, 2};
  const int gi[2] = {2, 2};
  memset(a, 0, sizeof(int) * 2 * K);
  memset(b, 0, sizeof(int) * 2 * K);
  if (nb) CHECK_MPI(MPI_Ineighbor_allgatherv_c(s, 2, MPI_INT, a, gc, dc, MPI_INT, ring, r));
  else CHECK_MPI(MPI_Neighbor_allgatherv_c(s, 2, MPI_INT, a, gc, dc, MPI_INT, ring));
  wait_or_not(r);
  CHECK_MPI(MPI_Neighbor_allgatherv(s, 2, MPI_INT, b, gi, di, MPI_INT, ring));
  same(a, b, 2 * K);
  /* alltoallv / alltoallw: 1 element to the left, 2 to the right; so 2 from
   * the left and 1 from the right. */
  const MPI_Count rc[2] = {2, 1};
  const int ri[2] = {2, 1};
  const MPI_Aint rd[2] = {0, 4}, rbd[2] = {0, 16};
  const int rdi[2] = {0, 4};
  if (size > 2) {  /* below np 3 both neighbours are one rank, and these counts would not pair up */
    memset(a, 0, sizeof(int) * 2 * K);
    memset(b, 0, sizeof(int) * 2 * K);
    if (nb) CHECK_MPI(MPI_Ineighbor_alltoallv_c(s, cc, dc, MPI_INT, a, rc, rd, MPI_INT, ring, r));
    else CHECK_MPI(MPI_Neighbor_alltoallv_c(s, cc, dc, MPI_INT, a, rc, rd, MPI_INT, ring));
    wait_or_not(r);
    CHECK_MPI(MPI_Neighbor_alltoallv(s, ci, di, MPI_INT, b, ri, rdi, MPI_INT, ring));
    same(a, b, 2 * K);
    memset(a, 0, sizeof(int) * 2 * K);
    if (nb) CHECK_MPI(MPI_Ineighbor_alltoallw_c(s, cc, bdc, ty, a, rc, rbd, ty, ring, r));
    else CHECK_MPI(MPI_Neighbor_alltoallw_c(s, cc, bdc, ty, a, rc, rbd, ty, ring));
    wait_or_not(r);
    memset(b, 0, sizeof(int) * 2 * K);
    CHECK_MPI(MPI_Neighbor_alltoallw(s, ci, bdi, ty, b, ri, rbd, ty, ring));
    same(a, b, 2 * K);
  }
  free(s), free(a), free(b);
  MPI_Comm_free(&ring);
}

static void piece_len(void* in, void* inout, MPI_Count* len, MPI_Datatype* type) {
  (void)in;
  (void)inout;
  (void)type;
  CHECK(*len > 0 && *len <= ((MPI_Count)1 << 30));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int nb = 0; nb < 2; ++nb) {
    uniform_forms(nb);
    vector_forms(nb);
    reductions(nb);
    neighbourhood(nb);
  }
  /* A nonblocking reduction of more than INT_MAX elements with a user op runs
   * as one schedule of reductions of 2^30 elements (the blocking one in
   * chunks): here of a zero-size type (no memory), piece_len checking the
   * length of each call; bigcount_huge_ireduce moves real data. */
  MPI_Op op;
  CHECK_MPI(MPI_Op_create_c(piece_len, 1, &op));
  MPI_Datatype none;
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &none));
  CHECK_MPI(MPI_Type_commit(&none));
  MPI_Request q;
  int x = 0, y = 0;
  CHECK_MPI(MPI_Iallreduce_c(&x, &y, (MPI_Count)1 << 32, none, op, MPI_COMM_WORLD, &q));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Iscan_c(&x, &y, (MPI_Count)1 << 32, none, op, MPI_COMM_WORLD, &q));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Type_free(&none));
  MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
