/* MPI-IO on a communicator merged from parents and their 2 children: a
 * collective write at explicit offsets, MPI_File_write_ordered (the shared
 * file pointer), and reading both back everywhere. */
#include <stdio.h>
#include <unistd.h>

#include "check.h"

static void io_on(MPI_Comm all, const char* path) {
  int rank, size;
  MPI_Comm_rank(all, &rank);
  MPI_Comm_size(all, &size);
  MPI_File f;
  CHECK_MPI(MPI_File_open(all, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &f));
  const int mine = 1000 + rank;
  CHECK_MPI(MPI_File_write_at_all(f, (MPI_Offset)rank * (MPI_Offset)sizeof(int), &mine, 1, MPI_INT, MPI_STATUS_IGNORE));
  /* After the explicit-offset block, the shared pointer starts at 0: place it past it. */
  CHECK_MPI(MPI_File_seek_shared(f, (MPI_Offset)size * (MPI_Offset)sizeof(int), MPI_SEEK_SET));
  const int ordered = 2000 + rank;
  CHECK_MPI(MPI_File_write_ordered(f, &ordered, 1, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_File_sync(f));
  CHECK_MPI(MPI_Barrier(all));
  for (int i = 0; i < size; ++i) {
    int v[2];
    CHECK_MPI(MPI_File_read_at(f, (MPI_Offset)i * (MPI_Offset)sizeof(int), &v[0], 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_read_at(f, (MPI_Offset)(size + i) * (MPI_Offset)sizeof(int), &v[1], 1, MPI_INT,
                               MPI_STATUS_IGNORE));
    CHECK(v[0] == 1000 + i && v[1] == 2000 + i);
  }
  CHECK_MPI(MPI_File_close(&f));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent, inter, all;
  MPI_Comm_get_parent(&parent);
  char path[128];
  if (parent == MPI_COMM_NULL) {
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "/tmp/ringmpi-spawn-io-%d", pid);
    char* args[] = {path, NULL};
    CHECK_MPI(MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
    CHECK_MPI(MPI_Intercomm_merge(inter, 0, &all));
  } else {
    CHECK(argc == 2);
    snprintf(path, sizeof path, "%s", argv[1]);
    inter = parent;
    CHECK_MPI(MPI_Intercomm_merge(inter, 1, &all));
  }
  io_on(all, path);
  MPI_Comm_free(&all);
  CHECK_MPI(MPI_Comm_disconnect(&inter));
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (parent == MPI_COMM_NULL && rank == 0) printf("spawn_io: ok\n");
  MPI_Finalize();
  return 0;
}
