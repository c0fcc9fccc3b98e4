/* The accepting job of tests/fault/dynamic/jobs.py (checks: jobs_common.h).
 *   jobs_server publish SERVICE   open a port, publish it, accept on MPI_COMM_WORLD
 *   jobs_server file PATH         the same, the port name written to PATH
 *   jobs_server join PATH         rank 0 listens on the Unix socket PATH and joins
 *   jobs_server wait PATH         accept (port in PATH), then receive forever: the
 *                                 client dies; this job must end with a line naming it
 *   jobs_server pingpong PATH     accept, then time 8 B and 1 MiB ping-pongs
 *   jobs_server nodisconnect PATH accept, exchange, finalize without disconnecting
 *   jobs_server again PATH        accept, exchange, disconnect, three times (the
 *                                 pairs are bound again to each new bridge)
 *   jobs_server noroom PATH       accept; spawns from the merged communicator fail
 *                                 (both jobs --universe-size 2000) */
#include <mpi.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "jobs_common.h"

static void write_port(const char* path, const char* port) {
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE* f = fopen(tmp, "w");
  CHECK(f != NULL);
  fprintf(f, "%s\n", port);
  fclose(f);
  CHECK(rename(tmp, path) == 0);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (spawned_child(argc, argv)) {
    MPI_Finalize();
    return 0;
  }
  CHECK(argc == 3);
  const char* mode = argv[1];
  const char* arg = argv[2];
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm inter;
  if (strcmp(mode, "join") == 0) {
    /* Rank 0 joins the client's rank 0; the others only watch. */
    if (rank == 0) {
      int l = socket(AF_UNIX, SOCK_STREAM, 0);
      struct sockaddr_un a = {.sun_family = AF_UNIX};
      snprintf(a.sun_path, sizeof a.sun_path, "%s", arg);
      unlink(arg);
      CHECK(bind(l, (struct sockaddr*)&a, sizeof a) == 0 && listen(l, 1) == 0);
      int c = accept(l, NULL, NULL);
      CHECK(c >= 0);
      CHECK_MPI(MPI_Comm_join(c, &inter));
      close(c);
      close(l);
      unlink(arg);
      int v = 0;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE));
      CHECK(v == 31);
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 4, inter));
      exchange(inter, 1);
      CHECK_MPI(MPI_Comm_disconnect(&inter));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("server join done\n");
    MPI_Finalize();
    return 0;
  }
  char port[MPI_MAX_PORT_NAME] = {0};
  if (rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
  if (rank == 0 && strcmp(mode, "publish") == 0) CHECK_MPI(MPI_Publish_name(arg, MPI_INFO_NULL, port));
  if (rank == 0 && strcmp(mode, "publish") != 0) write_port(arg, port);
  const int times = strcmp(mode, "again") == 0 ? 3 : 1;
  for (int t = 0; t < times; ++t) {
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    if (strcmp(mode, "wait") == 0) {
      int v;
      MPI_Recv(&v, 1, MPI_INT, 0, 99, inter, MPI_STATUS_IGNORE); /* the client dies first */
      printf("server: the receive returned\n");
    } else if (strcmp(mode, "pingpong") == 0) {
      pingpong(inter, 1, 8, 20000);
      pingpong(inter, 1, 1 << 20, 500);
    } else if (strcmp(mode, "noroom") == 0) {
      spawn_refused(inter, 1);
    } else {
      exchange(inter, 1);
    }
    if (strcmp(mode, "nodisconnect") != 0) CHECK_MPI(MPI_Comm_disconnect(&inter));
  }
  if (rank == 0 && strcmp(mode, "publish") == 0) CHECK_MPI(MPI_Unpublish_name(arg, MPI_INFO_NULL, port));
  if (rank == 0) CHECK_MPI(MPI_Close_port(port));
  if (rank == 0) printf("server %s done\n", mode);
  MPI_Finalize();
  return 0;
}
