/* Collective data access that the access mode forbids (MPI-3.1 13.2.1: the
 * modes RDONLY, RDWR, WRONLY have "identical semantics to their POSIX
 * counterparts", so writing through a read-only handle and reading through a
 * write-only one fail): write_at_all, write_all, write_ordered on a file
 * opened MPI_MODE_RDONLY and read_at_all, read_all, read_ordered on one
 * opened MPI_MODE_WRONLY return an error on every rank, and the file is
 * unchanged. Open MPI 4.1.4 returns MPI_SUCCESS here at 3 or more ranks
 * (NOTES.md). Independent calls: io_errors. */
#include "io_common.h"

#define NO_WRITE MPI_ERR_READ_ONLY, MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_IO
#define NO_READ MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_IO

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("errcoll", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st;

  /* One int per rank, value rank + 1. */
  int one = rank + 1, x = -5;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_write_at(fh, rank * sizeof(int), &one, 1, MPI_INT, &st));
  CHECK_MPI(MPI_File_close(&fh)); /* close and reopen: consistent (13.6.1) */

  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
  CHECK_ERR_CLASS(MPI_File_write_at_all(fh, rank * sizeof(int), &x, 1, MPI_INT, &st), NO_WRITE);
  CHECK_MPI(MPI_File_seek(fh, rank * sizeof(int), MPI_SEEK_SET));
  CHECK_ERR_CLASS(MPI_File_write_all(fh, &x, 1, MPI_INT, &st), NO_WRITE);
  CHECK_ERR_CLASS(MPI_File_write_ordered(fh, &x, 1, MPI_INT, &st), NO_WRITE);
  /* Nothing was written. */
  int *all = malloc(size * sizeof(int));
  CHECK(all != NULL);
  CHECK_MPI(MPI_File_read_at(fh, 0, all, size, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == size);
  for (int r = 0; r < size; ++r) CHECK(all[r] == r + 1);
  CHECK_MPI(MPI_File_close(&fh));

  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
  CHECK_ERR_CLASS(MPI_File_read_at_all(fh, 0, &x, 1, MPI_INT, &st), NO_READ);
  CHECK_ERR_CLASS(MPI_File_read_all(fh, &x, 1, MPI_INT, &st), NO_READ);
  CHECK_ERR_CLASS(MPI_File_read_ordered(fh, &x, 1, MPI_INT, &st), NO_READ);
  CHECK_MPI(MPI_File_close(&fh));

  free(all);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
