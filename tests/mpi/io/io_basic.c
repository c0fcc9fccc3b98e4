/* Basic file manipulation and explicit-offset access (MPI-3.1 13.2, 13.4.2):
 * MPI_File_open on MPI_COMM_WORLD and MPI_COMM_SELF, write_at/read_at of each
 * rank's own block with MPI_Get_count on the status, get_amode, get_group,
 * get_size/set_size (grow and shrink)/preallocate, sync, reads past the end
 * of file (short counts), close and delete. */
#include "io_common.h"

#define N 16 /* ints per rank */

static int value(int r, int i) { return r * 1000 + i + 1; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("basic", base);
  io_name(path, base, ".world");

  /* 13.2.1: collective open; the handle is valid until MPI_File_close. */
  MPI_File fh = MPI_FILE_NULL;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK(fh != MPI_FILE_NULL);

  /* 13.2.7: get_amode returns the access mode given to open. */
  int amode = -1;
  CHECK_MPI(MPI_File_get_amode(fh, &amode));
  CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR));

  /* 13.2.7: get_group returns a duplicate of the group of the communicator
   * used to open the file, which the user frees. */
  MPI_Group fgroup = MPI_GROUP_NULL, wgroup = MPI_GROUP_NULL;
  int cmp = -1;
  CHECK_MPI(MPI_File_get_group(fh, &fgroup));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wgroup));
  CHECK_MPI(MPI_Group_compare(fgroup, wgroup, &cmp));
  CHECK(cmp == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&fgroup));
  CHECK_MPI(MPI_Group_free(&wgroup));

  /* A new file is empty. */
  MPI_Offset fsize = -1;
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every rank looked before anyone writes */

  /* 13.4.2: each rank writes its own block at an explicit byte offset (the
   * default view is a byte stream); the status counts what was written. */
  int buf[N], in[2 * N];
  for (int i = 0; i < N; ++i) buf[i] = value(rank, i);
  MPI_Status st;
  const MPI_Offset block = N * sizeof(int);
  CHECK_MPI(MPI_File_write_at(fh, rank * block, buf, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N);
  int elems = -1;
  CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &elems));
  CHECK(elems == N);

  /* 13.6.1: sync-barrier-sync makes the other ranks' writes visible. */
  io_sync_barrier(fh, MPI_COMM_WORLD);
  int peer = (rank + 1) % size;
  CHECK_MPI(MPI_File_read_at(fh, peer * block, in, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N);
  for (int i = 0; i < N; ++i) CHECK(in[i] == value(peer, i));
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == size * block);

  /* Reading across the end of file returns what is there: a short count
   * (13.4.1: the status reports the amount actually read). */
  CHECK_MPI(MPI_File_read_at(fh, (size - 1) * block + block / 2, in, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N / 2);
  for (int i = 0; i < N / 2; ++i) CHECK(in[i] == value(size - 1, N / 2 + i));
  CHECK_MPI(MPI_File_read_at(fh, size * block + 100, in, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 0);

  /* 13.2.4 set_size (collective): growing makes the file that long, with
   * earlier data unaffected (the new bytes are undefined, not checked). */
  const MPI_Offset grown = size * block + 1000;
  /* 13.6.9: size changes are writes and get_size (like any read) conflicts
   * with them, so every rank finishes the reads above before anyone resizes. */
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_size(fh, grown));
  io_sync_barrier(fh, MPI_COMM_WORLD); /* 13.6.9: set_size counts as a write */
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == grown);
  CHECK_MPI(MPI_File_read_at(fh, rank * block, in, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N);
  for (int i = 0; i < N; ++i) CHECK(in[i] == value(rank, i));

  /* Shrinking truncates at size: half of the last rank's block survives. */
  const MPI_Offset shrunk = (size - 1) * block + block / 2;
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_size(fh, shrunk));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == shrunk);
  CHECK_MPI(MPI_File_read_at(fh, (size - 1) * block, in, 2 * N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N / 2);
  for (int i = 0; i < N / 2; ++i) CHECK(in[i] == value(size - 1, i));

  /* 13.2.5 preallocate (collective): a size at most the current one leaves
   * the size unchanged; a larger one makes the file that large. */
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_preallocate(fh, shrunk / 2));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == shrunk);
  const MPI_Offset prealloc = shrunk + 4096;
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_preallocate(fh, prealloc));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == prealloc);
  CHECK_MPI(MPI_File_read_at(fh, (size - 1) * block, in, N / 2, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N / 2);
  for (int i = 0; i < N / 2; ++i) CHECK(in[i] == value(size - 1, i));

  /* 13.2.2: close sets the handle to MPI_FILE_NULL. 13.2.3: delete is not
   * collective; one rank deletes, the others wait for it. */
  CHECK_MPI(MPI_File_close(&fh));
  CHECK(fh == MPI_FILE_NULL);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK(access(path, F_OK) != 0);

  /* MPI_COMM_SELF: every rank opens its own file independently. */
  char own[IO_PATH_MAX], suffix[32];
  snprintf(suffix, sizeof suffix, ".self%d", rank);
  io_name(own, base, suffix);
  CHECK_MPI(MPI_File_open(MPI_COMM_SELF, own, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_get_group(fh, &fgroup));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &wgroup));
  CHECK_MPI(MPI_Group_compare(fgroup, wgroup, &cmp));
  CHECK(cmp == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&fgroup));
  CHECK_MPI(MPI_Group_free(&wgroup));
  CHECK_MPI(MPI_File_write_at(fh, 8, buf, N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N);
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == 8 + block);
  CHECK_MPI(MPI_File_read_at(fh, 8, in, 2 * N, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == N);
  for (int i = 0; i < N; ++i) CHECK(in[i] == value(rank, i));
  CHECK_MPI(MPI_File_close(&fh));
  CHECK(fh == MPI_FILE_NULL);
  CHECK_MPI(MPI_File_delete(own, MPI_INFO_NULL));
  CHECK(access(own, F_OK) != 0);

  MPI_Finalize();
  return 0;
}
