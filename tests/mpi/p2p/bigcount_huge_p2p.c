/* A message of more than 2^31 elements really moves (MPI-4.1 large counts):
 * 2^31 + 7 MPI_CHARs from rank 0 to rank 1 with MPI_Send_c / MPI_Recv_c,
 * then back with MPI_Isend_c / MPI_Irecv_c. The status's count: MPI_Get_count
 * and MPI_Get_elements answer MPI_UNDEFINED (it does not fit an int), their
 * _c forms the exact count. np 2 only: about 4.3 GB of memory in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  MPI_Status st;
  if (rank == 0) {
    huge_fill(buf, kHuge, 1);
    CHECK_MPI(MPI_Send_c(buf, kHuge, MPI_CHAR, 1, 5, MPI_COMM_WORLD));
  } else {
    memset(buf, 0, (size_t)kHuge);
    CHECK_MPI(MPI_Recv_c(buf, kHuge, MPI_CHAR, 0, 5, MPI_COMM_WORLD, &st));
    huge_verify(buf, kHuge, 1);
    int n = 0;
    CHECK_MPI(MPI_Get_count(&st, MPI_CHAR, &n));
    CHECK(n == MPI_UNDEFINED);
    CHECK_MPI(MPI_Get_elements(&st, MPI_CHAR, &n));
    CHECK(n == MPI_UNDEFINED);
    MPI_Count nc = 0;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &nc));
    CHECK(nc == kHuge);
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_CHAR, &nc));
    CHECK(nc == kHuge);
  }
  /* Back, nonblocking: rank 1 sends a pattern of another salt. */
  MPI_Request r;
  if (rank == 1) {
    huge_fill(buf, kHuge, 2);
    CHECK_MPI(MPI_Isend_c(buf, kHuge, MPI_CHAR, 0, 6, MPI_COMM_WORLD, &r));
  } else {
    CHECK_MPI(MPI_Irecv_c(buf, kHuge, MPI_CHAR, 1, 6, MPI_COMM_WORLD, &r));
  }
  CHECK_MPI(MPI_Wait(&r, &st));
  if (rank == 0) {
    huge_verify(buf, kHuge, 2);
    MPI_Count nc = 0;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &nc));
    CHECK(nc == kHuge);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
