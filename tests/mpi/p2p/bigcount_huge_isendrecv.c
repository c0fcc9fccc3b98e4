/* MPI_Isendrecv_replace_c of more than 2^31 bytes (MPI-4.1 large counts):
 * its packed copy of the outgoing data goes as one element of a contiguous
 * type of that many bytes. Rank 0 sends 2^31 + 7 MPI_CHARs to rank 1 and
 * receives 16 bytes from it in their place; every byte is checked on both
 * sides. Then both with MPI_PROC_NULL on one side (no copy). np 2 only:
 * about 6.4 GB of memory at the peak (rank 0's buffer and its copy, rank
 * 1's buffer). */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = huge_alloc();
  unsigned char small[16];
  MPI_Request r;
  MPI_Status st;
  MPI_Count n;
  if (rank == 0) {
    huge_fill(buf, kHuge, 3);
    CHECK_MPI(MPI_Isendrecv_replace_c(buf, kHuge, MPI_CHAR, 1, 7, 1, 8, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
    CHECK(n == 16 && st.MPI_SOURCE == 1 && st.MPI_TAG == 8);
    for (int i = 0; i < 16; ++i) {
      CHECK(buf[i] == 0xEE);
      buf[i] = huge_byte(i, 3);
    }
    huge_verify_all(buf, kHuge, 3); /* the rest is as it was */
  } else {
    memset(buf, 0, (size_t)kHuge);
    memset(small, 0xEE, sizeof small);
    CHECK_MPI(MPI_Irecv_c(buf, kHuge, MPI_CHAR, 0, 7, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Send_c(small, 16, MPI_CHAR, 0, 8, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
    CHECK(n == kHuge);
    huge_verify_all(buf, kHuge, 3);
  }
  /* One way, each side MPI_PROC_NULL on the other part: 1 sends back to 0. */
  if (rank == 1) huge_fill(buf, kHuge, 4);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Isendrecv_replace_c(buf, kHuge, MPI_CHAR, rank == 1 ? 0 : MPI_PROC_NULL, 9,
                                    rank == 0 ? 1 : MPI_PROC_NULL, 9, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  huge_verify_all(buf, kHuge, 4);
  free(buf);
  MPI_Finalize();
  return 0;
}
