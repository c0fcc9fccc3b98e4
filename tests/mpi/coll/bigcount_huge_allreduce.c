/* Reductions of more than 2^31 elements (MPI-4.1 large counts):
 * MPI_Allreduce_c in place over 2^31 + 7 MPI_UINT8_Ts with MPI_BOR, rank 0
 * holding the pattern and rank 1 zeros, so both end with the pattern (the
 * blocking form runs in chunks of 2^30 elements); then MPI_Iallreduce_c with
 * MPI_BXOR of the same data, which leaves zeros (the nonblocking form runs
 * on one element of a contiguous type). np 2 only: about 4.3 GB of memory in all. */
#include <stdint.h>

#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  if (rank == 0) huge_fill(buf, kHuge, 8);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Allreduce_c(MPI_IN_PLACE, buf, kHuge, MPI_UINT8_T, MPI_BOR, MPI_COMM_WORLD));
  huge_verify(buf, kHuge, 8);
  MPI_Request r;
  CHECK_MPI(MPI_Iallreduce_c(MPI_IN_PLACE, buf, kHuge, MPI_UINT8_T, MPI_BXOR, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  for (MPI_Count i = 0; i < kHuge; i += 4093) CHECK(buf[i] == 0);
  CHECK(buf[kHuge - 1] == 0);
  free(buf);
  MPI_Finalize();
  return 0;
}
