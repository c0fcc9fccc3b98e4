/* A v collective with a block of more than 2^31 elements (MPI-4.1 large
 * counts): MPI_Gatherv_c of 2^31 + 7 MPI_CHARs from rank 1 to rank 0 (the
 * per-peer blocks of the all-to-all-w schedule, the block one element of a
 * contiguous type), then MPI_Iscatterv_c of them back. np 2 only: about
 * 4.3 GB of memory in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  const MPI_Count counts[2] = {0, kHuge};
  const MPI_Aint displs[2] = {0, 0};
  if (rank == 1) huge_fill(buf, kHuge, 9);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Gatherv_c(buf, rank == 1 ? kHuge : 0, MPI_CHAR, buf, counts, displs, MPI_CHAR, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    huge_verify(buf, kHuge, 9);
    huge_fill(buf, kHuge, 10);
  }
  MPI_Request r;
  CHECK_MPI(MPI_Iscatterv_c(buf, counts, displs, MPI_CHAR, rank == 0 ? MPI_IN_PLACE : buf, rank == 1 ? kHuge : 0,
                            MPI_CHAR, 0, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  if (rank == 1) huge_verify(buf, kHuge, 10);
  free(buf);
  MPI_Finalize();
  return 0;
}
