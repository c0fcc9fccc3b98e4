/* Calls on MPI_FILE_NULL (MPI-4.1 14.7, MPI-3.1 13.7): MPI_FILE_NULL is not
 * a file, so every call that takes a file handle is given an invalid one,
 * whose error class the standard names: MPI_ERR_FILE ("Invalid file
 * handle"). It is reported through the default file error handler (the
 * one of MPI_FILE_NULL, initially MPI_ERRORS_RETURN), so each call returns.
 * Detecting an invalid handle is not mandated (2.8), and MPICH 4.0.2 does
 * not detect it in get_atomicity, get_view and get_position (success) nor
 * in sync (MPI_ERR_ARG); ringmpi checks the handle in every call, so each
 * one here must return exactly MPI_ERR_FILE.
 * MPI_File_get_info is left out: Open MPI 4.1.4 aborts the job there. */
#include "io_common.h"

#define BAD(call) CHECK_ERR_CLASS(call, MPI_ERR_FILE)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_File fh = MPI_FILE_NULL;
  MPI_Status st;
  MPI_Request req;
  MPI_Offset off;
  MPI_Group group;
  MPI_Datatype et, ft;
  MPI_Aint ext;
  char rep[MPI_MAX_DATAREP_STRING + 1];
  int buf[2] = {0, 0}, amode, flag;

  BAD(MPI_File_write(fh, buf, 1, MPI_INT, &st));
  BAD(MPI_File_write_at(fh, 0, buf, 1, MPI_INT, &st));
  BAD(MPI_File_read(fh, buf, 1, MPI_INT, &st));
  BAD(MPI_File_read_at(fh, 0, buf, 1, MPI_INT, &st));
  BAD(MPI_File_read_at_all(fh, 0, buf, 1, MPI_INT, &st));
  BAD(MPI_File_write_shared(fh, buf, 1, MPI_INT, &st));
  BAD(MPI_File_iread_at(fh, 0, buf, 1, MPI_INT, &req));
  BAD(MPI_File_get_size(fh, &off));
  BAD(MPI_File_get_amode(fh, &amode));
  BAD(MPI_File_get_group(fh, &group));
  BAD(MPI_File_get_type_extent(fh, MPI_INT, &ext));
  BAD(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  BAD(MPI_File_set_size(fh, 0));
  BAD(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  BAD(MPI_File_get_position_shared(fh, &off));
  BAD(MPI_File_close(&fh));
  CHECK(fh == MPI_FILE_NULL);
  flag = -1;
  BAD(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == -1); /* a failed call leaves its output alone */
  BAD(MPI_File_get_view(fh, &off, &et, &ft, rep));
  BAD(MPI_File_get_position(fh, &off));
  BAD(MPI_File_sync(fh));

  MPI_Finalize();
  return 0;
}
