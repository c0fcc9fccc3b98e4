/* File error handlers (MPI-3.1 8.3.4, 13.7): MPI_File_create_errhandler,
 * set/get_errhandler, call_errhandler; the handler gets the file handle and
 * the error code, and the call returns the code when the handler returns.
 * The default file error handler is the one of MPI_FILE_NULL: initially
 * MPI_ERRORS_RETURN, changed with MPI_File_set_errhandler(MPI_FILE_NULL),
 * given to files opened later, and used (with MPI_FILE_NULL as the handle)
 * for errors with no valid file handle, like MPI_File_open and
 * MPI_File_delete. */
#include "io_common.h"

static int calls = 0;
static MPI_File last_file = MPI_FILE_NULL;
static int last_code = MPI_SUCCESS;

static void handler(MPI_File *fh, int *code, ...) {
  ++calls;
  last_file = *fh;
  last_code = *code;
}

/* The error handler of fh (or the default one, for MPI_FILE_NULL); the
 * reference get_errhandler hands out is freed again. */
static MPI_Errhandler handler_of(MPI_File fh) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL, copy;
  CHECK_MPI(MPI_File_get_errhandler(fh, &eh));
  CHECK(eh != MPI_ERRHANDLER_NULL);
  copy = eh;
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK(eh == MPI_ERRHANDLER_NULL);
  return copy;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char base[IO_PATH_MAX], path[IO_PATH_MAX], path2[IO_PATH_MAX], missing[IO_PATH_MAX];
  io_base_name("errh", base);
  io_name(path, base, ".a");
  io_name(path2, base, ".b");
  io_name(missing, base, ".missing");
  MPI_Status st;
  int buf[1] = {0};

  /* 13.7: the default file error handler is initially MPI_ERRORS_RETURN,
   * and a new file gets it. */
  CHECK(handler_of(MPI_FILE_NULL) == MPI_ERRORS_RETURN);
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK(handler_of(fh) == MPI_ERRORS_RETURN);

  /* A user handler on one file. */
  MPI_Errhandler mine = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_File_create_errhandler(handler, &mine));
  CHECK(mine != MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_File_set_errhandler(fh, mine));
  CHECK(handler_of(fh) == mine);
  CHECK(handler_of(MPI_FILE_NULL) == MPI_ERRORS_RETURN); /* the default is unchanged */

  /* call_errhandler: the handler gets fh and the code; MPI_SUCCESS back. */
  CHECK(MPI_File_call_errhandler(fh, MPI_ERR_OTHER) == MPI_SUCCESS);
  CHECK(calls == 1 && last_file == fh && last_code == MPI_ERR_OTHER);
  int uclass, ucode;
  CHECK_MPI(MPI_Add_error_class(&uclass));
  CHECK_MPI(MPI_Add_error_code(uclass, &ucode));
  CHECK(MPI_File_call_errhandler(fh, ucode) == MPI_SUCCESS);
  CHECK(calls == 2 && last_file == fh && last_code == ucode);

  /* A real error on fh: the handler sees it, the call returns the code. */
  int e = MPI_File_read_at(fh, 0, buf, -1, MPI_INT, &st);
  CHECK(io_class(e) == MPI_ERR_COUNT);
  CHECK(calls == 3 && last_file == fh && last_code == e);

  /* The default handler becomes mine: errors with no file handle go to it,
   * with MPI_FILE_NULL as the handle. */
  CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, mine));
  CHECK(handler_of(MPI_FILE_NULL) == mine);
  MPI_File bad = MPI_FILE_NULL;
  e = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &bad);
  CHECK(e != MPI_SUCCESS);
  CHECK(calls == 4 && last_file == MPI_FILE_NULL && last_code == e);
  e = MPI_File_delete(missing, MPI_INFO_NULL);
  CHECK(e != MPI_SUCCESS);
  CHECK(calls == 5 && last_file == MPI_FILE_NULL && last_code == e);
  /* A call on the invalid handle MPI_FILE_NULL raises MPI_ERR_FILE there. */
  MPI_Offset sz;
  e = MPI_File_get_size(MPI_FILE_NULL, &sz);
  CHECK(io_class(e) == MPI_ERR_FILE);
  CHECK(calls == 6 && last_file == MPI_FILE_NULL && last_code == e);

  /* A file opened now starts with the new default. */
  MPI_File fh2;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh2));
  CHECK(handler_of(fh2) == mine);
  /* Changing the default later does not change the files already open. */
  CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
  CHECK(handler_of(MPI_FILE_NULL) == MPI_ERRORS_RETURN);
  CHECK(handler_of(fh2) == mine);
  e = MPI_File_write_at(fh2, 0, buf, -1, MPI_INT, &st);
  CHECK(io_class(e) == MPI_ERR_COUNT);
  CHECK(calls == 7 && last_file == fh2 && last_code == e);
  e = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDWR, MPI_INFO_NULL, &bad);
  CHECK(e != MPI_SUCCESS && calls == 7); /* MPI_ERRORS_RETURN again */

  /* MPI_ERRORS_RETURN on fh2: errors are returned, the handler not called. */
  CHECK_MPI(MPI_File_set_errhandler(fh2, MPI_ERRORS_RETURN));
  e = MPI_File_write_at(fh2, 0, buf, -1, MPI_INT, &st);
  CHECK(io_class(e) == MPI_ERR_COUNT && calls == 7);

  /* 8.3.4: freeing the handle while a file uses it leaves it working. */
  CHECK_MPI(MPI_Errhandler_free(&mine));
  CHECK(mine == MPI_ERRHANDLER_NULL);
  CHECK(MPI_File_call_errhandler(fh, MPI_ERR_IO) == MPI_SUCCESS);
  CHECK(calls == 8 && last_file == fh && last_code == MPI_ERR_IO);

  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_File_close(&fh2));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
    CHECK_MPI(MPI_File_delete(path2, MPI_INFO_NULL));
  }
  MPI_Finalize();
  return 0;
}
