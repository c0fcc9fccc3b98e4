/* Persistent collectives of more than 2^31 elements (MPI-4.1 large counts):
 * MPI_Bcast_init_c of 2^31 + 7 MPI_CHARs from rank 1, started twice with
 * other data each time; then MPI_Allreduce_init_c in place over the same
 * count of MPI_UINT8_Ts with MPI_BOR, rank 0 holding a pattern and rank 1
 * zeros (both end with the pattern), started twice (the second start leaves
 * it as it is). np 2 only: about 4.3 GB of memory in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  MPI_Request r;
  CHECK_MPI(MPI_Bcast_init_c(buf, kHuge, MPI_CHAR, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int round = 0; round < 2; round++) {
    if (rank == 1) huge_fill(buf, kHuge, 5 + round);
    else memset(buf, 0, (size_t)kHuge);
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    huge_verify(buf, kHuge, 5 + round);
  }
  CHECK_MPI(MPI_Request_free(&r));

  if (rank == 0) huge_fill(buf, kHuge, 9);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Allreduce_init_c(MPI_IN_PLACE, buf, kHuge, MPI_UINT8_T, MPI_BOR, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int round = 0; round < 2; round++) {
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    huge_verify(buf, kHuge, 9);
  }
  CHECK_MPI(MPI_Request_free(&r));
  free(buf);
  MPI_Finalize();
  return 0;
}
