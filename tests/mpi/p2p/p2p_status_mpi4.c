/* MPI-4.1's status accessors (MPI_Status_get/set_source, _tag, _error) and
 * MPI_Request_get_status_all/_any/_some, which report without freeing. */
#include "check.h"

static int rank, size;

static void accessors(void) {
  MPI_Status st;
  CHECK_MPI(MPI_Status_set_source(&st, 3));
  CHECK_MPI(MPI_Status_set_tag(&st, 44));
  CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TRUNCATE));
  int v;
  CHECK_MPI(MPI_Status_get_source(&st, &v));
  CHECK(v == 3 && st.MPI_SOURCE == 3);
  CHECK_MPI(MPI_Status_get_tag(&st, &v));
  CHECK(v == 44 && st.MPI_TAG == 44);
  CHECK_MPI(MPI_Status_get_error(&st, &v));
  CHECK(v == MPI_ERR_TRUNCATE);
  /* A status from a receive reads back the same way. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int x = rank, y = -1;
  CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &y, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Status_get_source(&st, &v));
  CHECK(v == left);
  CHECK_MPI(MPI_Status_get_tag(&st, &v));
  CHECK(v == 5);
  /* MPI_STATUS_IGNORE holds nothing: MPI_ERR_ARG. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int cls;
  MPI_Error_class(MPI_Status_get_source(MPI_STATUS_IGNORE, &v), &cls);
  CHECK(cls == MPI_ERR_ARG);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void get_status_forms(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int in[3] = {-1, -1, -1};
  MPI_Request reqs[4];
  for (int i = 0; i < 3; ++i)
    CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, 20 + i, MPI_COMM_WORLD, &reqs[i]));
  reqs[3] = MPI_REQUEST_NULL;
  /* Nothing sent yet: not all, none, none complete. */
  int flag = 1, index = -2, outcount = -2, idx[4];
  MPI_Status sts[4], st;
  CHECK_MPI(MPI_Request_get_status_all(4, reqs, &flag, sts));
  CHECK(!flag);
  CHECK_MPI(MPI_Request_get_status_any(4, reqs, &index, &flag, &st));
  CHECK(!flag && index == MPI_UNDEFINED);
  CHECK_MPI(MPI_Request_get_status_some(4, reqs, &outcount, idx, sts));
  CHECK(outcount == 0);
  /* The message of tag 21 only: any/some find request 1, and keep it.
   * (Barriers: no rank sends before its left neighbour has looked.) */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  int v = rank * 7;
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 21, MPI_COMM_WORLD));
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Request_get_status_any(4, reqs, &index, &flag, &st));
  CHECK(index == 1 && st.MPI_SOURCE == left && st.MPI_TAG == 21);
  CHECK(reqs[1] != MPI_REQUEST_NULL); /* not freed */
  CHECK_MPI(MPI_Request_get_status_some(4, reqs, &outcount, idx, sts));
  CHECK(outcount == 1 && idx[0] == 1 && sts[0].MPI_TAG == 21);
  CHECK_MPI(MPI_Request_get_status_all(4, reqs, &flag, sts));
  CHECK(!flag);
  /* The rest: all complete, statuses filled, requests still there. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 20, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 22, MPI_COMM_WORLD));
  flag = 0;
  while (!flag) CHECK_MPI(MPI_Request_get_status_all(4, reqs, &flag, sts));
  for (int i = 0; i < 3; ++i) CHECK(sts[i].MPI_SOURCE == left && sts[i].MPI_TAG == 20 + i && reqs[i] != MPI_REQUEST_NULL);
  CHECK(sts[3].MPI_SOURCE == MPI_ANY_SOURCE && sts[3].MPI_TAG == MPI_ANY_TAG); /* the null request's empty status */
  CHECK_MPI(MPI_Request_get_status_all(4, reqs, &flag, MPI_STATUSES_IGNORE));
  CHECK(flag);
  CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
  for (int i = 0; i < 3; ++i) CHECK(in[i] == left * 7 && reqs[i] == MPI_REQUEST_NULL);
  /* Only null requests: any answers flag true and MPI_UNDEFINED; some MPI_UNDEFINED. */
  CHECK_MPI(MPI_Request_get_status_any(4, reqs, &index, &flag, &st));
  CHECK(flag && index == MPI_UNDEFINED);
  CHECK_MPI(MPI_Request_get_status_some(4, reqs, &outcount, idx, sts));
  CHECK(outcount == MPI_UNDEFINED);
  /* A persistent request at rest counts as inactive. */
  MPI_Request p;
  CHECK_MPI(MPI_Recv_init(&in[0], 1, MPI_INT, left, 30, MPI_COMM_WORLD, &p));
  CHECK_MPI(MPI_Request_get_status_all(1, &p, &flag, sts));
  CHECK(flag);
  CHECK_MPI(MPI_Request_free(&p));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  accessors();
  get_status_forms();
  MPI_Finalize();
  return 0;
}
