/* MPI-IO of more than 2^31 elements (MPI-4.1 large counts): rank 0 writes
 * 2^31 + 7 MPI_CHARs with MPI_File_write_at_all_c (rank 1 writes none),
 * rank 1 reads them all back with MPI_File_read_at_c; the statuses count
 * them (MPI_Get_count_c). The file lives under $TMPDIR (or /tmp) and is
 * deleted. np 2 only: about 4.3 GB of memory and 2.1 GB of disk. */
#include "bigcount_pattern.h"
#include "io_common.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("bigcount_huge", base);
  io_name(path, base, ".data");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  unsigned char* buf = huge_alloc();
  MPI_Status st;
  MPI_Count n = -1;
  if (rank == 0) huge_fill(buf, kHuge, 7);
  CHECK_MPI(MPI_File_write_at_all_c(fh, 0, buf, rank == 0 ? kHuge : 0, MPI_CHAR, &st));
  CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
  CHECK(n == (rank == 0 ? kHuge : 0));
  MPI_Offset fsize = 0;
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == (MPI_Offset)kHuge);
  if (rank == 1) {
    memset(buf, 0, (size_t)kHuge);
    CHECK_MPI(MPI_File_read_at_c(fh, 0, buf, kHuge, MPI_CHAR, &st));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
    CHECK(n == kHuge);
    int ni = 0;
    CHECK_MPI(MPI_Get_count(&st, MPI_CHAR, &ni));
    CHECK(ni == MPI_UNDEFINED);
    huge_verify(buf, kHuge, 7);
  }
  CHECK_MPI(MPI_File_close(&fh));
  free(buf);
  MPI_Finalize();
  return 0;
}
