/* Count 0 of MPI_DATATYPE_NULL in point-to-point (issue 35). The standard
 * asks for a valid datatype; MPICH checks a buffer's datatype only when its
 * count is positive, and its own tests send and receive (NULL, 0,
 * MPI_DATATYPE_NULL), so the call means an empty message and is accepted:
 * - from or to MPI_PROC_NULL, in every receive and send form: completes at
 *   once, a receive with the empty status (MPI-4.1 §3.11: source
 *   MPI_PROC_NULL, tag MPI_ANY_TAG, count 0);
 * - between two ranks: an empty message, matched by any receive whose
 *   buffer it fits (count 0 whatever the receiver's type);
 * - a positive count of MPI_DATATYPE_NULL is still MPI_ERR_TYPE (MPICH too). */
#include "check.h"

static void empty_status(const MPI_Status* st) {
  int n = -1;
  CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
  CHECK(n == 0);
}

static void expect_type_error(int rc) {
  int cls;
  CHECK(rc != MPI_SUCCESS);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_TYPE);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const MPI_Datatype null = MPI_DATATYPE_NULL;
  MPI_Status st;
  MPI_Request req;

  /* Receives from MPI_PROC_NULL. */
  CHECK_MPI(MPI_Recv(NULL, 0, null, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
  empty_status(&st);
  CHECK_MPI(MPI_Irecv(NULL, 0, null, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  empty_status(&st);
  CHECK_MPI(MPI_Sendrecv(NULL, 0, null, MPI_PROC_NULL, 1, NULL, 0, null, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &st));
  empty_status(&st);
  CHECK_MPI(MPI_Sendrecv_replace(NULL, 0, null, MPI_PROC_NULL, 1, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &st));
  empty_status(&st);
  CHECK_MPI(MPI_Recv_init(NULL, 0, null, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &req));
  for (int round = 0; round < 2; ++round) {
    CHECK_MPI(MPI_Start(&req));
    CHECK_MPI(MPI_Wait(&req, &st));
    empty_status(&st);
  }
  CHECK_MPI(MPI_Request_free(&req));
  MPI_Message msg;
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NO_PROC);
  CHECK_MPI(MPI_Mrecv(NULL, 0, null, &msg, &st));
  empty_status(&st);

  /* Sends to MPI_PROC_NULL, every mode. */
  CHECK_MPI(MPI_Send(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Ssend(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rsend(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Bsend(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Isend(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Send_init(NULL, 0, null, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Start(&req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Request_free(&req));

  /* Between ranks: an empty message around the ring, received once as
   * (NULL, 0, MPI_DATATYPE_NULL) and once into an int buffer. */
  CHECK_MPI(MPI_Sendrecv(NULL, 0, null, right, 5, NULL, 0, null, left, 5, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 5);
  int n = -1;
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 0);
  int got[3] = {7, 7, 7};
  CHECK_MPI(MPI_Isend(NULL, 0, null, right, 6, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Recv(got, 3, MPI_INT, left, 6, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &n));
  CHECK(n == 0 && got[0] == 7 && got[2] == 7);

  /* A positive count of MPI_DATATYPE_NULL is an error, to MPI_PROC_NULL too. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int v = 0;
  expect_type_error(MPI_Recv(&v, 1, null, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
  expect_type_error(MPI_Send(&v, 1, null, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
  expect_type_error(MPI_Irecv(&v, 2, null, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Finalize();
  return 0;
}
