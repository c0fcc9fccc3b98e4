/* Intercommunicator collectives (MPI-3.1 §5.2.2), blocking and nonblocking,
 * between two groups of different sizes: group A (world ranks 0..na-1) and
 * group B (the rest). Every rooted one in both directions, with MPI_ROOT and
 * MPI_PROC_NULL; every all-to-all and reduction checked against values
 * computed from the remote group; MPI_Scan refused with MPI_ERR_COMM, a bad
 * root with MPI_ERR_ROOT; the merged intracommunicator used afterwards. */
#include <stdlib.h>

#include "check.h"
#include "either_form.h"

static int nb; /* 1: the nonblocking forms, completed by MPI_Wait */


static int val(int g, int r) { return 1000 * g + 10 * r + 1; }

static void run(MPI_Comm ic, int g, int lr, int nl, int nr) {
  int *rbuf = malloc(sizeof(int) * (size_t)(nl * nr + 4 * (nl + nr) + 8)); /* reduce_scatter: nl * nr */
  int *sbuf = malloc(sizeof(int) * (size_t)(nl * nr + 4 * (nl + nr) + 8));
  int cnt[64], dsp[64], bdsp[64];
  MPI_Datatype types[64];

  /* Bcast from A's rank 0, then from B's last rank. */
  for (int dir = 0; dir < 2; ++dir) {
    const int rg = dir; /* the root's group */
    const int rroot = dir == 0 ? 0 : (g == 1 ? nl - 1 : nr - 1);
    int root = g == rg ? (lr == rroot ? MPI_ROOT : MPI_PROC_NULL) : rroot;
    int b[3] = {-1, -1, -1};
    if (root == MPI_ROOT) b[0] = 7 + dir, b[1] = 8, b[2] = 9;
    CHECK_MPI(DO(MPI_Bcast, MPI_Ibcast, b, 3, MPI_INT, root, ic));
    if (g != rg) CHECK(b[0] == 7 + dir && b[1] == 8 && b[2] == 9);
    if (root == MPI_PROC_NULL) CHECK(b[0] == -1);
  }

  /* Gather / Gatherv / Scatter / Scatterv rooted at A's rank 0. */
  {
    const int root = g == 0 ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int mine = val(g, lr);
    for (int i = 0; i < nr; ++i) rbuf[i] = -1;
    CHECK_MPI(DO(MPI_Gather, MPI_Igather, &mine, 1, MPI_INT, rbuf, 1, MPI_INT, root, ic));
    if (root == MPI_ROOT)
      for (int j = 0; j < nr; ++j) CHECK(rbuf[j] == val(1, j));
    for (int j = 0; j < nr; ++j) cnt[j] = 1, dsp[j] = nr - 1 - j;
    CHECK_MPI(DO(MPI_Gatherv, MPI_Igatherv, &mine, 1, MPI_INT, rbuf, cnt, dsp, MPI_INT, root, ic));
    if (root == MPI_ROOT)
      for (int j = 0; j < nr; ++j) CHECK(rbuf[nr - 1 - j] == val(1, j));
    for (int j = 0; j < nr; ++j) sbuf[j] = 5 * j + 2;
    int got = -1;
    CHECK_MPI(DO(MPI_Scatter, MPI_Iscatter, sbuf, 1, MPI_INT, &got, 1, MPI_INT, root, ic));
    if (g == 1) CHECK(got == 5 * lr + 2);
    CHECK_MPI(DO(MPI_Scatterv, MPI_Iscatterv, sbuf, cnt, dsp, MPI_INT, &got, 1, MPI_INT, root, ic));
    if (g == 1) CHECK(got == 5 * (nl - 1 - lr) + 2);
  }

  /* Allgather(v): the remote group's values, in remote rank order. */
  {
    int mine = val(g, lr);
    CHECK_MPI(DO(MPI_Allgather, MPI_Iallgather, &mine, 1, MPI_INT, rbuf, 1, MPI_INT, ic));
    for (int j = 0; j < nr; ++j) CHECK(rbuf[j] == val(1 - g, j));
    for (int j = 0; j < nr; ++j) cnt[j] = 1, dsp[j] = nr - 1 - j;
    CHECK_MPI(DO(MPI_Allgatherv, MPI_Iallgatherv, &mine, 1, MPI_INT, rbuf, cnt, dsp, MPI_INT, ic));
    for (int j = 0; j < nr; ++j) CHECK(rbuf[nr - 1 - j] == val(1 - g, j));
  }

  /* Alltoall(v,w): block j goes to remote rank j. */
  {
    for (int j = 0; j < nr; ++j) sbuf[j] = 100000 * g + 100 * lr + j;
    CHECK_MPI(DO(MPI_Alltoall, MPI_Ialltoall, sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, ic));
    for (int j = 0; j < nr; ++j) CHECK(rbuf[j] == 100000 * (1 - g) + 100 * j + lr);
    for (int j = 0; j < nr; ++j) cnt[j] = 1, dsp[j] = j, bdsp[j] = (int)sizeof(int) * (nr - 1 - j), types[j] = MPI_INT;
    CHECK_MPI(DO(MPI_Alltoallv, MPI_Ialltoallv, sbuf, cnt, dsp, MPI_INT, rbuf, cnt, dsp, MPI_INT, ic));
    for (int j = 0; j < nr; ++j) CHECK(rbuf[j] == 100000 * (1 - g) + 100 * j + lr);
    CHECK_MPI(DO(MPI_Alltoallw, MPI_Ialltoallw, sbuf, cnt, bdsp, types, rbuf, cnt, bdsp, types, ic));
    for (int j = 0; j < nr; ++j) CHECK(rbuf[nr - 1 - j] == 100000 * (1 - g) + 100 * j + (nl - 1 - lr));
  }

  /* Reduce to B's rank 0; Allreduce: each group gets the other's sum. */
  {
    int remote_sum = 0, remote_max = 0;
    for (int j = 0; j < nr; ++j) remote_sum += val(1 - g, j), remote_max = val(1 - g, j) > remote_max ? val(1 - g, j) : remote_max;
    const int root = g == 1 ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int mine = val(g, lr), r = -1;
    CHECK_MPI(DO(MPI_Reduce, MPI_Ireduce, &mine, &r, 1, MPI_INT, MPI_SUM, root, ic));
    if (root == MPI_ROOT) CHECK(r == remote_sum);
    CHECK_MPI(DO(MPI_Allreduce, MPI_Iallreduce, &mine, &r, 1, MPI_INT, MPI_SUM, ic));
    CHECK(r == remote_sum);
    CHECK_MPI(DO(MPI_Allreduce, MPI_Iallreduce, &mine, &r, 1, MPI_INT, MPI_MAX, ic));
    CHECK(r == remote_max);
  }

  /* Reduce_scatter(_block): vectors of nA*nB elements; group A ranks get nB each, B ranks nA each. */
  {
    const int total = nl * nr, rc = nr;
    for (int k = 0; k < total; ++k) sbuf[k] = val(g, lr) * (k + 1);
    int remote_sum = 0;
    for (int j = 0; j < nr; ++j) remote_sum += val(1 - g, j);
    for (int k = 0; k < rc; ++k) rbuf[k] = -1;
    CHECK_MPI(DO(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, sbuf, rbuf, rc, MPI_INT, MPI_SUM, ic));
    for (int k = 0; k < rc; ++k) CHECK(rbuf[k] == remote_sum * (lr * rc + k + 1));
    for (int i = 0; i < nl; ++i) cnt[i] = rc;
    CHECK_MPI(DO(MPI_Reduce_scatter, MPI_Ireduce_scatter, sbuf, rbuf, cnt, MPI_INT, MPI_SUM, ic));
    for (int k = 0; k < rc; ++k) CHECK(rbuf[k] == remote_sum * (lr * rc + k + 1));
  }

  if (nb) {
    MPI_Request r;
    CHECK_MPI(MPI_Ibarrier(ic, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Barrier(ic));
  }
  free(rbuf);
  free(sbuf);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2 && size <= 64);
  const int na = size / 3 > 0 ? size / 3 : 1;
  const int g = rank < na ? 0 : 1;
  MPI_Comm local, ic;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g, rank, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, g == 0 ? na : 0, 42, &ic));
  int lr, nl, nr;
  MPI_Comm_rank(ic, &lr);
  MPI_Comm_size(ic, &nl);
  MPI_Comm_remote_size(ic, &nr);
  CHECK(nl == (g == 0 ? na : size - na) && nr == size - nl);

  for (nb = 0; nb < 2; ++nb) run(ic, g, lr, nl, nr);

  /* Errors: scan is not defined on intercommunicators; a bad root. */
  MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
  int x = 1, y, cls;
  MPI_Error_class(MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, ic), &cls);
  CHECK(cls == MPI_ERR_COMM);
  MPI_Request q;
  MPI_Error_class(MPI_Iexscan(&x, &y, 1, MPI_INT, MPI_SUM, ic, &q), &cls);
  CHECK(cls == MPI_ERR_COMM);
  MPI_Error_class(MPI_Bcast(&x, 1, MPI_INT, g == 0 ? -7 : nr, ic), &cls);
  CHECK(cls == MPI_ERR_ROOT);

  /* The merged intracommunicator: A first. */
  MPI_Comm merged;
  CHECK_MPI(MPI_Intercomm_merge(ic, g, &merged));
  int mr, sum = 0;
  MPI_Comm_rank(merged, &mr);
  CHECK(mr == rank);
  MPI_Request r;
  CHECK_MPI(MPI_Iallreduce(&mr, &sum, 1, MPI_INT, MPI_SUM, merged, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(sum == size * (size - 1) / 2);

  MPI_Comm_free(&merged);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
