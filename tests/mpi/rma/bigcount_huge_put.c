/* One-sided transfers of more than 2^31 elements (MPI-4.1 large counts):
 * rank 0 puts 2^31 + 7 MPI_CHARs into rank 1's window (MPI_Win_allocate_c)
 * with MPI_Put_c, then gets them back with MPI_Get_c. np 2 only: about
 * 4.3 GB of memory in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* mem = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_c(rank == 1 ? (MPI_Aint)kHuge : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  unsigned char* buf = rank == 0 ? huge_alloc() : NULL;
  if (rank == 0) huge_fill(buf, kHuge, 5);
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) CHECK_MPI(MPI_Put_c(buf, kHuge, MPI_CHAR, 1, 0, kHuge, MPI_CHAR, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 1) {
    huge_verify(mem, kHuge, 5);
    huge_fill(mem, kHuge, 6);
  }
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) CHECK_MPI(MPI_Get_c(buf, kHuge, MPI_CHAR, 1, 0, kHuge, MPI_CHAR, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) huge_verify(buf, kHuge, 6);
  CHECK_MPI(MPI_Win_free(&win));
  free(buf);
  MPI_Finalize();
  return 0;
}
