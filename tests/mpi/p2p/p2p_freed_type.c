/* A receive keeps its datatype alive: a contiguous derived type freed right
 * after MPI_Irecv / MPI_Recv_init, then a message longer than the receive
 * (MPI_ERR_TRUNCATE, whose description reads the type's size). Under
 * AddressSanitizer a read of the freed type fails this test. */
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size >= 2 && rank < 2) {
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    if (rank == 0) {
      CHECK_MPI(MPI_Send(data, 8, MPI_INT, 1, 5, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Send(data, 8, MPI_INT, 1, 6, MPI_COMM_WORLD));
    } else {
      int got[8];
      memset(got, 0, sizeof got);
      MPI_Datatype pair;
      CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
      CHECK_MPI(MPI_Type_commit(&pair));
      MPI_Request r;
      CHECK_MPI(MPI_Irecv(got, 1, pair, 0, 5, MPI_COMM_WORLD, &r));
      CHECK_MPI(MPI_Type_free(&pair));
      CHECK(pair == MPI_DATATYPE_NULL);
      MPI_Status st;
      int e = MPI_Wait(&r, &st);
      int cls = -1;
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_TRUNCATE);
      CHECK(got[0] == 1 && got[1] == 2 && got[2] == 0);
      /* The persistent form. */
      CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
      CHECK_MPI(MPI_Type_commit(&pair));
      CHECK_MPI(MPI_Recv_init(got, 1, pair, 0, 6, MPI_COMM_WORLD, &r));
      CHECK_MPI(MPI_Type_free(&pair));
      CHECK_MPI(MPI_Start(&r));
      e = MPI_Wait(&r, &st);
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_TRUNCATE);
      CHECK_MPI(MPI_Request_free(&r));
    }
  }
  /* A struct of two hindexed types whose first block has length 0 commits and
   * carries the right bytes (the external suite's indexed_misc). */
  int bl[3] = {0, 1, 1};
  MPI_Aint d[3] = {0, 4, 12};
  MPI_Datatype h, st2;
  CHECK_MPI(MPI_Type_create_hindexed(3, bl, d, MPI_INT, &h));
  MPI_Datatype ts[2] = {h, h};
  int sbl[2] = {1, 1};
  MPI_Aint sd[2] = {0, 16};
  CHECK_MPI(MPI_Type_create_struct(2, sbl, sd, ts, &st2));
  CHECK_MPI(MPI_Type_commit(&st2));
  int tsize = 0;
  CHECK_MPI(MPI_Type_size(st2, &tsize));
  CHECK(tsize == 16);
  int src[8] = {10, 11, 12, 13, 14, 15, 16, 17}, dst[4] = {0, 0, 0, 0};
  CHECK_MPI(MPI_Sendrecv(src, 1, st2, rank, 9, dst, 4, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(dst[0] == 11 && dst[1] == 13 && dst[2] == 15 && dst[3] == 17);
  CHECK_MPI(MPI_Type_free(&st2));
  CHECK_MPI(MPI_Type_free(&h));
  MPI_Finalize();
  return 0;
}
