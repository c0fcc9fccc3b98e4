/* A collective of more than 2^31 elements (MPI-4.1 large counts): MPI_Bcast_c
 * of 2^31 + 7 MPI_CHARs from rank 0, then from rank 1 with MPI_Ibcast_c.
 * np 2 only: about 4.3 GB of memory in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  if (rank == 0) huge_fill(buf, kHuge, 3);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Bcast_c(buf, kHuge, MPI_CHAR, 0, MPI_COMM_WORLD));
  huge_verify(buf, kHuge, 3);
  if (rank == 1) huge_fill(buf, kHuge, 4);
  MPI_Request r;
  CHECK_MPI(MPI_Ibcast_c(buf, kHuge, MPI_CHAR, 1, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  huge_verify(buf, kHuge, 4);
  free(buf);
  MPI_Finalize();
  return 0;
}
