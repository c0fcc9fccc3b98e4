/* I/O errors under the default file error handler, MPI_ERRORS_RETURN
 * (MPI-3.1 13.7): the calls return codes whose classes (MPI_Error_class,
 * table 13.4 of 13.8) name the problem, and the program goes on. Where the
 * standard names no class for a case, any of the plausible classes listed
 * is accepted (NOTES.md records what MPICH and Open MPI return). Errors on
 * MPI_FILE_NULL: io_file_null; collective accesses the amode forbids:
 * io_errors_coll. */
#include "io_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX], missing[IO_PATH_MAX], nodir[IO_PATH_MAX];
  io_base_name("errors", base);
  io_name(path, base, ".data");
  io_name(missing, base, ".missing");
  io_name(nodir, base, ".nodir/file");
  MPI_File fh = MPI_FILE_NULL;
  MPI_Status st;
  int buf[4] = {1, 2, 3, 4};
  const MPI_Comm w = MPI_COMM_WORLD;

  /* Opening a file that does not exist without MPI_MODE_CREATE. */
  CHECK_ERR_CLASS(MPI_File_open(w, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE,
                  MPI_ERR_IO);
  CHECK_ERR_CLASS(MPI_File_open(w, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE,
                  MPI_ERR_IO);
  /* Creating one in a directory that does not exist. */
  CHECK_ERR_CLASS(MPI_File_open(w, nodir, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh),
                  MPI_ERR_NO_SUCH_FILE, MPI_ERR_BAD_FILE, MPI_ERR_IO);

  /* 13.2.1: exactly one of RDONLY, RDWR, WRONLY; CREATE or EXCL with RDONLY
   * and SEQUENTIAL with RDWR are erroneous: MPI_ERR_AMODE ("error related to
   * the amode passed to MPI_FILE_OPEN"). Nothing may be created. */
  const int bad_amodes[] = {
      MPI_MODE_RDONLY | MPI_MODE_CREATE,
      MPI_MODE_RDONLY | MPI_MODE_EXCL,
      MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_CREATE,
      MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_CREATE,
      MPI_MODE_CREATE, /* none of the three */
      MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL | MPI_MODE_CREATE,
  };
  for (int k = 0; k < (int)(sizeof bad_amodes / sizeof bad_amodes[0]); ++k)
    CHECK_ERR_CLASS(MPI_File_open(w, missing, bad_amodes[k], MPI_INFO_NULL, &fh), MPI_ERR_AMODE);
  CHECK_MPI(MPI_Barrier(w));
  if (rank == 0) CHECK(access(missing, F_OK) != 0);

  /* 13.2.3: "If the file does not exist, MPI_FILE_DELETE raises an error in
   * the class MPI_ERR_NO_SUCH_FILE." */
  CHECK_ERR_CLASS(MPI_File_delete(missing, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE);

  /* Make the file, with 4 ints in it. */
  CHECK_MPI(MPI_File_open(w, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, buf, 4, MPI_INT, &st));

  /* On a good handle: a negative count (MPI_ERR_COUNT); a seek to a
   * negative position, erroneous by 13.4.3 with no class named: ringmpi
   * reports MPI_ERR_ARG (an invalid argument of no other class, 8.4), and
   * exactly that is checked. The handle stays usable after each error. */
  CHECK_ERR_CLASS(MPI_File_write_at(fh, 0, buf, -1, MPI_INT, &st), MPI_ERR_COUNT);
  CHECK_ERR_CLASS(MPI_File_read_at(fh, 0, buf, -1, MPI_INT, &st), MPI_ERR_COUNT);
  CHECK_ERR_CLASS(MPI_File_write(fh, buf, -1, MPI_INT, &st), MPI_ERR_COUNT);
  CHECK_ERR_CLASS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
  CHECK_ERR_CLASS(MPI_File_seek(fh, -100, MPI_SEEK_CUR), MPI_ERR_ARG);
  CHECK_ERR_CLASS(MPI_File_seek(fh, -100000, MPI_SEEK_END), MPI_ERR_ARG);
  /* 13.8: an unknown data representation in set_view (collective). */
  CHECK_ERR_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no_such_datarep", MPI_INFO_NULL),
                  MPI_ERR_UNSUPPORTED_DATAREP);
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_seek(fh, 2, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 2);
  CHECK_MPI(MPI_File_close(&fh));

  /* MPI_MODE_EXCL on a file that exists. */
  CHECK_ERR_CLASS(MPI_File_open(w, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
                  MPI_ERR_FILE_EXISTS, MPI_ERR_IO);

  /* Writing a file opened MPI_MODE_RDONLY fails: 13.2.1 gives the access
   * modes "identical semantics to their POSIX counterparts" (write(2) on an
   * O_RDONLY descriptor fails). No class is named; accepted are the classes
   * about access rights and the amode, and MPI_ERR_IO. */
  CHECK_MPI(MPI_File_open(w, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
#define NO_WRITE MPI_ERR_READ_ONLY, MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_IO
  CHECK_ERR_CLASS(MPI_File_write_at(fh, 0, buf, 1, MPI_INT, &st), NO_WRITE);
  CHECK_ERR_CLASS(MPI_File_write(fh, buf, 1, MPI_INT, &st), NO_WRITE);
  CHECK_ERR_CLASS(MPI_File_write_shared(fh, buf, 1, MPI_INT, &st), NO_WRITE);
  int in[4] = {0, 0, 0, 0};
  CHECK_MPI(MPI_File_read_at(fh, 0, in, 4, MPI_INT, &st)); /* reading works */
  CHECK(io_count(&st, MPI_INT) == 4 && in[0] == 1 && in[3] == 4);
  CHECK_MPI(MPI_File_close(&fh));

  /* Reading a file opened MPI_MODE_WRONLY fails likewise (read(2) on an
   * O_WRONLY descriptor fails). */
  CHECK_MPI(MPI_File_open(w, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
#define NO_READ MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_IO
  CHECK_ERR_CLASS(MPI_File_read_at(fh, 0, in, 1, MPI_INT, &st), NO_READ);
  CHECK_ERR_CLASS(MPI_File_read(fh, in, 1, MPI_INT, &st), NO_READ);
  CHECK_ERR_CLASS(MPI_File_read_shared(fh, in, 1, MPI_INT, &st), NO_READ);
  CHECK_MPI(MPI_File_close(&fh));

  CHECK_MPI(MPI_Barrier(w));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
