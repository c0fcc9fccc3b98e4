/* The rest of file manipulation (MPI-3.1 13.2): MPI_File_set_info /
 * get_info (which hints come back is the implementation's choice), the
 * access modes MPI_MODE_DELETE_ON_CLOSE (file gone after close),
 * MPI_MODE_APPEND (all file pointers start at the end of file),
 * MPI_MODE_EXCL with MPI_MODE_UNIQUE_OPEN on a new file, and
 * MPI_MODE_SEQUENTIAL with shared-pointer writes; MPI_File_c2f/f2c. */
#include <errno.h>

#include "io_common.h"

#define R 3 /* ints per record */

/* info holds no more than its keys; each key has a value. */
static void look_at(MPI_Info info) {
  int nkeys = -1;
  CHECK(info != MPI_INFO_NULL);
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys >= 0);
  for (int k = 0; k < nkeys; ++k) {
    char key[MPI_MAX_INFO_KEY + 1];
    int len = -1, flag = 0;
    CHECK_MPI(MPI_Info_get_nthkey(info, k, key));
    CHECK_MPI(MPI_Info_get_valuelen(info, key, &len, &flag));
    CHECK(flag && len >= 0);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("misc", base);
  MPI_File fh;
  MPI_Status st;
  MPI_Offset pos = -1, fsize = -1;
  int amode = -1;

  /* 13.2.8: hints at open and with set_info (collective); get_info returns
   * a new info object with the hints in use, which the user frees. The info
   * given to open may be freed at once. */
  io_name(path, base, ".info");
  MPI_Info hints, used = MPI_INFO_NULL;
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "access_style", "write_once"));
  CHECK_MPI(MPI_Info_set(hints, "cb_buffer_size", "65536"));
  CHECK_MPI(MPI_Info_set(hints, "ringmpi_unknown_hint", "ignored"));
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          hints, &fh));
  CHECK_MPI(MPI_Info_free(&hints));
  CHECK_MPI(MPI_File_get_info(fh, &used));
  look_at(used);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "access_style", "read_mostly"));
  CHECK_MPI(MPI_File_set_info(fh, hints));
  CHECK_MPI(MPI_Info_free(&hints));
  CHECK_MPI(MPI_File_get_info(fh, &used));
  look_at(used);
  CHECK_MPI(MPI_Info_free(&used));

  /* c2f/f2c convert both ways. */
  MPI_Fint f = MPI_File_c2f(fh);
  CHECK(MPI_File_f2c(f) == fh);
  CHECK(MPI_File_f2c(MPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL);

  /* 13.2.1 MPI_MODE_DELETE_ON_CLOSE: the file is deleted by the close. */
  CHECK_MPI(MPI_File_write_at(fh, rank * sizeof(int), &rank, 1, MPI_INT, &st));
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    errno = 0;
    CHECK(access(path, F_OK) != 0 && errno == ENOENT);
  }

  /* MPI_MODE_EXCL (with MPI_MODE_UNIQUE_OPEN) on a file that does not exist
   * yet: it is created. */
  io_name(path, base, ".excl");
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path,
                          MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_UNIQUE_OPEN | MPI_MODE_WRONLY,
                          MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_get_amode(fh, &amode));
  CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_UNIQUE_OPEN | MPI_MODE_WRONLY));
  /* 10 ints, written by rank 0: the start of the append test. */
  int ten[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, ten, 10, MPI_INT, &st));
  CHECK_MPI(MPI_File_close(&fh));

  /* MPI_MODE_APPEND: the individual and the shared pointers start at the
   * end of file (10 ints; the default view counts bytes). */
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
  const MPI_Offset end = 10 * sizeof(int);
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == end);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == end);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* all looked before the pointer moves */
  int mine = 100 + rank;
  CHECK_MPI(MPI_File_write_ordered(fh, &mine, 1, MPI_INT, &st)); /* appended in rank order */
  CHECK(io_count(&st, MPI_INT) == 1);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == end + size * (MPI_Offset)sizeof(int));
  int got[2] = {-1, -1};
  CHECK_MPI(MPI_File_read_at(fh, end - sizeof(int) + rank * sizeof(int), got, 2, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 2);
  CHECK(got[0] == (rank == 0 ? 9 : 99 + rank) && got[1] == 100 + rank);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));

  /* MPI_MODE_SEQUENTIAL (with WRONLY: RDWR is not allowed with it): 13.6.2
   * permits only shared-pointer reads and writes, and makes seek_shared and
   * get_position_shared erroneous there; read back after reopening. */
  io_name(path, base, ".seq");
  const int seqmode = MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, seqmode, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_get_amode(fh, &amode));
  CHECK(amode == seqmode);
  int rec[R] = {7777, rank, -rank};
  CHECK_MPI(MPI_File_write_shared(fh, rec, R, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == R);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the shared writes are done */
  CHECK_MPI(MPI_File_write_ordered(fh, &mine, 1, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 1);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  int *all = malloc(size * (R + 1) * sizeof(int)), *seen = calloc(size, sizeof(int));
  CHECK(all != NULL && seen != NULL);
  CHECK_MPI(MPI_File_read_at(fh, 0, all, size * (R + 1), MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == size * (R + 1));
  for (int k = 0; k < size; ++k) { /* every record once, in some order */
    int *r = all + k * R;
    CHECK(r[0] == 7777 && r[1] >= 0 && r[1] < size && r[2] == -r[1] && !seen[r[1]]);
    seen[r[1]] = 1;
  }
  for (int k = 0; k < size; ++k) CHECK(all[size * R + k] == 100 + k); /* rank order */
  free(all);
  free(seen);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK(access(path, F_OK) != 0);

  MPI_Finalize();
  return 0;
}
