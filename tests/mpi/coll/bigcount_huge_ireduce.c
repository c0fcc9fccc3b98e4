/* Nonblocking reductions of more than 2^31 elements with a user-defined op
 * (MPI-4.1 large counts): one schedule of reductions of 2^30 elements each,
 * the user function seeing MPI_UINT8_T. MPI_Iallreduce_c in place over
 * 2^31 + 7 bytes with a byte-wise OR, rank 0 holding a pattern and rank 1
 * zeros: both end with the pattern, every byte checked. np 2 only: about
 * 4.3 GB of buffers, and the pieces' operands (about as much again). */
#include "bigcount_pattern.h"

static void byte_or(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_UINT8_T);
  CHECK(*len > 0 && *len <= (1 << 30));
  const unsigned char* a = in;
  unsigned char* b = inout;
  for (int i = 0; i < *len; ++i) b[i] |= a[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  MPI_Op op;
  CHECK_MPI(MPI_Op_create(byte_or, 1, &op));
  if (rank == 0) huge_fill(buf, kHuge, 17);
  else memset(buf, 0, (size_t)kHuge);
  MPI_Request r;
  CHECK_MPI(MPI_Iallreduce_c(MPI_IN_PLACE, buf, kHuge, MPI_UINT8_T, op, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  huge_verify_all(buf, kHuge, 17);
  CHECK_MPI(MPI_Op_free(&op));
  free(buf);
  MPI_Finalize();
  return 0;
}
