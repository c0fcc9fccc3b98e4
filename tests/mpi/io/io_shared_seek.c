/* MPI_File_seek_shared with MPI_SEEK_END in a view with a nonzero
 * displacement (MPI-3.1 13.4.4, seek): the end of file is counted in etypes
 * of the view, like the individual pointer's MPI_SEEK_END (13.4.3), so the
 * displacement is not part of it. Open MPI 4.1.4 counts it in (NOTES.md). */
#include "io_common.h"

#define HDR 8 /* bytes of header before the view */
#define N 4   /* ints per rank */

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("sseek", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));

  /* A header through the default view, then through a view of ints after
   * it N ints per rank: HDR + size*N*4 bytes in all. */
  if (rank == 0) {
    char hdr[HDR];
    memset(hdr, 'H', HDR);
    CHECK_MPI(MPI_File_write_at(fh, 0, hdr, HDR, MPI_BYTE, &st));
  }
  CHECK_MPI(MPI_File_set_view(fh, HDR, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  int buf[N];
  for (int i = 0; i < N; ++i) buf[i] = rank * 100 + i;
  CHECK_MPI(MPI_File_write_at(fh, rank * N, buf, N, MPI_INT, &st));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  const MPI_Offset end = size * N; /* end of file, in ints of the view */

  MPI_Offset pos = -1;
  /* The individual pointer, for comparison. */
  CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == end);

  /* The shared pointer: the same position. */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == end);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_File_seek_shared(fh, -1, MPI_SEEK_END));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == end - 1);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    int last = -1;
    CHECK_MPI(MPI_File_read_shared(fh, &last, 1, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == 1 && last == (size - 1) * 100 + N - 1);
  }

  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
