/* The int forms of MPI_Gather and MPI_Scatter with a count that fits an int
 * but whose last block starts beyond INT_MAX elements: at np 3, 2^30 + 3
 * MPI_CHARs per block, so block 2 starts at element 2^31 + 6. Every block
 * must land at its place: the displacements i * count are computed in 64
 * bits, through the _c path (the int forms of MPI_Allgather and
 * MPI_Alltoall take the same path; testing them would need 3 GiB per rank).
 * About 5.4 GB of memory in all. */
#include "bigcount_pattern.h"

static const int kCount = (1 << 30) + 3;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 3);
  const size_t block = (size_t)kCount;
  unsigned char* buf = malloc(block * (rank == 0 ? 3 : 1));
  CHECK(buf != NULL);

  /* Gather to rank 0 (in place there), then scatter other bytes back. */
  huge_fill(buf, kCount, 20 + rank);
  CHECK_MPI(MPI_Gather(rank == 0 ? MPI_IN_PLACE : buf, kCount, MPI_CHAR, buf, kCount, MPI_CHAR, 0, MPI_COMM_WORLD));
  if (rank == 0)
    for (int i = 0; i < 3; ++i) {
      huge_verify(buf + (size_t)i * block, kCount, 20 + i);
      huge_fill(buf + (size_t)i * block, kCount, 30 + i);
    }
  MPI_Request r;
  CHECK_MPI(MPI_Iscatter(buf, kCount, MPI_CHAR, rank == 0 ? MPI_IN_PLACE : buf, kCount, MPI_CHAR, 0, MPI_COMM_WORLD,
                         &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  huge_verify(buf, kCount, 30 + rank);
  free(buf);
  MPI_Finalize();
  return 0;
}
