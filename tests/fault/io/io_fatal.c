/* Bad MPI-IO input, one case per run (argv[1]). Files report errors to
 * MPI_ERRORS_RETURN by default (MPI-3.1 13.7); this program first makes
 * MPI_ERRORS_ARE_FATAL the handler of MPI_FILE_NULL, which files opened
 * afterwards inherit, so the job must end with a message naming the rank,
 * the call and the argument. Rank 1 makes the bad call while rank 0 waits in
 * a receive nobody matches, so the job only ends if rank 1 takes it down
 * ("amode": every rank fails). The file lives in $TMPDIR (or /tmp): the
 * job ends before MPI_File_close, so io_fatal.py gives it a folder of its
 * own and removes it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* c = argc > 1 ? argv[1] : "";
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
  const char* dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512], missing[512];
  int pid = 0;
  if (rank == 0) pid = (int)getpid();
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  snprintf(path, sizeof path, "%s/ringmpi_io_fatal_%d", dir, pid);
  snprintf(missing, sizeof missing, "%s/ringmpi_io_fatal_missing_%d", dir, pid);
  MPI_File fh;
  if (!strcmp(c, "amode")) { /* every rank fails, none hangs */
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    printf("case amode: the call was not reported as an error\n");
  }
  if (!strcmp(c, "missing")) {
    MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    printf("case missing: the call was not reported as an error\n");
  }
  int amode = MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE;
  amode |= !strcmp(c, "read_wronly") ? MPI_MODE_WRONLY : !strcmp(c, "sequential") ? MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL
                                                                                  : MPI_MODE_RDWR;
  MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
  int one = rank;
  if (!strcmp(c, "split_twice")) /* collective: every rank begins one */
    MPI_File_write_at_all_begin(fh, rank, &one, 1, MPI_INT);
  if (rank == 0) {
    int dummy;
    MPI_Recv(&dummy, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
  } else if (rank == 1) {
    int rc = MPI_SUCCESS, v[4] = {0};
    MPI_Status st;
    if (!strcmp(c, "read_wronly")) rc = MPI_File_read(fh, v, 1, MPI_INT, &st);
    if (!strcmp(c, "bad_handle")) rc = MPI_File_write((MPI_File)0x5eed, v, 1, MPI_INT, &st);
    if (!strcmp(c, "negative_offset")) rc = MPI_File_read_at(fh, -1, v, 1, MPI_INT, &st);
    if (!strcmp(c, "negative_count")) rc = MPI_File_write_at(fh, 0, v, -3, MPI_INT, &st);
    if (!strcmp(c, "sequential")) rc = MPI_File_write_at(fh, 0, v, 1, MPI_INT, &st);
    if (!strcmp(c, "seek_before_start")) rc = MPI_File_seek(fh, -4, MPI_SEEK_SET);
    if (!strcmp(c, "split_twice")) rc = MPI_File_write_at_all_begin(fh, 0, v, 1, MPI_INT);
    if (!strcmp(c, "spawn")) rc = MPI_Comm_spawn("x", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &(MPI_Comm){0},
                                                 MPI_ERRCODES_IGNORE);
    printf("case %s: the call was not reported as an error (rc %d)\n", c, rc);
    fflush(stdout);
  }
  MPI_File_close(&fh);
  MPI_Finalize();
  return 0;
}
