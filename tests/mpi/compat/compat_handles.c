/* Handle conversions (MPI_*_c2f / MPI_*_f2c) round-trip every handle kind,
 * and the converted handle is usable: a request converted and back is waited
 * on, a message handle from MPI_Improbe is received through. Also
 * MPI_Status_set_elements_x / MPI_Get_elements_x / MPI_Get_count. */
#include <mpi.h>
#include <stdlib.h>

#include "check.h"

static void convert_handles(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Group g;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
  MPI_Group g2 = MPI_Group_f2c(MPI_Group_c2f(g));
  CHECK(g2 == g);
  int gsize = -1;
  CHECK_MPI(MPI_Group_size(g2, &gsize));
  CHECK(gsize == size);
  CHECK_MPI(MPI_Group_free(&g2));
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL);
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);

  MPI_Op op = MPI_Op_f2c(MPI_Op_c2f(MPI_SUM));
  CHECK(op == MPI_SUM);
  CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL);

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "key", "value"));
  MPI_Info info2 = MPI_Info_f2c(MPI_Info_c2f(info));
  CHECK(info2 == info);
  int nkeys = 0;
  CHECK_MPI(MPI_Info_get_nkeys(info2, &nkeys));
  CHECK(nkeys == 1);
  CHECK_MPI(MPI_Info_free(&info2));
  CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);

  CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
  CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) == MPI_ERRHANDLER_NULL);
  CHECK(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL);
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);

  /* A live request and a live message handle survive the round trip. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = 1000 + rank, in = -1, got = -1;
  MPI_Request sreq;
  CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sreq));
  MPI_Fint fsreq = MPI_Request_c2f(sreq);
  MPI_Message msg = MPI_MESSAGE_NULL;
  int flag = 0;
  while (!flag) CHECK_MPI(MPI_Improbe(left, 7, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE));
  MPI_Message msg2 = MPI_Message_f2c(MPI_Message_c2f(msg));
  CHECK(msg2 == msg);
  MPI_Status st;
  CHECK_MPI(MPI_Mrecv(&in, 1, MPI_INT, &msg2, &st));
  CHECK(msg2 == MPI_MESSAGE_NULL);
  CHECK(in == 1000 + left);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &got));
  CHECK(got == 1);
  /* The status through its Fortran form (MPI-3.1 §17.2.5) and back. */
  MPI_Fint fst[MPI_F_STATUS_SIZE];
  MPI_Status back;
  CHECK_MPI(MPI_Status_c2f(&st, fst));
  CHECK(fst[MPI_F_SOURCE] == left && fst[MPI_F_TAG] == 7);
  CHECK_MPI(MPI_Status_f2c(fst, &back));
  CHECK(back.MPI_SOURCE == left && back.MPI_TAG == 7);
  CHECK_MPI(MPI_Get_count(&back, MPI_INT, &got));
  CHECK(got == 1);
  MPI_Request sreq2 = MPI_Request_f2c(fsreq);
  CHECK(sreq2 == sreq);
  CHECK_MPI(MPI_Wait(&sreq2, MPI_STATUS_IGNORE));
  CHECK(sreq2 == MPI_REQUEST_NULL);
}

static void status_elements_x(void) {
  MPI_Status st;
  MPI_Count n = -1;
  int c = -1;
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_DOUBLE, (MPI_Count)5));
  CHECK_MPI(MPI_Get_elements_x(&st, MPI_DOUBLE, &n));
  CHECK(n == 5);
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &c));
  CHECK(c == 5);
  CHECK_MPI(MPI_Get_elements_x(&st, MPI_CHAR, &n));
  CHECK(n == 5 * (MPI_Count)sizeof(double));

  /* Elements of a derived type: 2 ints per pair, 3 elements = 1.5 pairs. */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Status_set_elements_x(&st, pair, (MPI_Count)3));
  CHECK_MPI(MPI_Get_elements_x(&st, pair, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Get_count(&st, pair, &c));
  CHECK(c == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements_x(&st, MPI_INT, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Type_free(&pair));

  /* A count beyond int range is representable in the status. */
  const MPI_Count big = (MPI_Count)3 << 31;
  CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
  CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &n));
  CHECK(n == big);
  CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &c));
  CHECK(c == MPI_UNDEFINED);

  /* A negative count is MPI_ERR_COUNT. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Status_set_elements_x(&st, MPI_INT, (MPI_Count)-1), cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT);
  /* MPI_STATUS_IGNORE holds no status to convert: MPI_ERR_ARG. */
  MPI_Fint f[MPI_F_STATUS_SIZE];
  MPI_Error_class(MPI_Status_c2f(MPI_STATUS_IGNORE, f), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  convert_handles();
  status_elements_x();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
