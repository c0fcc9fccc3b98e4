/* The connecting job of tests/fault/dynamic/jobs.py (checks: jobs_common.h).
 *   jobs_client publish SERVICE   look the port up (until published), connect
 *   jobs_client file PATH         the port name read from PATH (until written)
 *   jobs_client join PATH         rank 0 connects to the Unix socket PATH and joins
 *   jobs_client crash PATH        connect, then rank 0 is killed (SIGKILL)
 *   jobs_client refused PATH      connect with MPI_ERRORS_RETURN: must fail with
 *                                 MPI_ERR_PORT (run as another user)
 *   jobs_client pingpong PATH     connect, answer the server's ping-pongs
 *   jobs_client nodisconnect PATH connect, exchange, finalize without disconnecting
 *   jobs_client two PATH          connect to the port in PATH, then, still
 *                                 connected, to the one in PATH.2 (another job
 *                                 whose processes have the same slots): the job
 *                                 must end with a line saying why
 *   jobs_client again PATH        connect, exchange, disconnect, three times
 *   jobs_client late PATH         wait 2.5 s before the connect (the server's
 *                                 accept must not be taken for a deadlock) */
#include <mpi.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "jobs_common.h"

static void pause_ms(int ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void read_port(const char* path, char* port) {
  for (;;) {
    FILE* f = fopen(path, "r");
    if (f) {
      CHECK(fgets(port, MPI_MAX_PORT_NAME, f) != NULL);
      fclose(f);
      port[strcspn(port, "\n")] = '\0';
      return;
    }
    pause_ms(20);
  }
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
    if (rank == 0) {
      int c = socket(AF_UNIX, SOCK_STREAM, 0);
      struct sockaddr_un a = {.sun_family = AF_UNIX};
      snprintf(a.sun_path, sizeof a.sun_path, "%s", arg);
      while (connect(c, (struct sockaddr*)&a, sizeof a) != 0) pause_ms(20);
      CHECK_MPI(MPI_Comm_join(c, &inter));
      close(c);
      int v = 31;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 3, inter));
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, inter, MPI_STATUS_IGNORE));
      CHECK(v == 31);
      exchange(inter, 0);
      CHECK_MPI(MPI_Comm_disconnect(&inter));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("client join done\n");
    MPI_Finalize();
    return 0;
  }
  char port[MPI_MAX_PORT_NAME] = {0};
  if (rank == 0) {
    if (strcmp(mode, "publish") == 0) {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      while (MPI_Lookup_name(arg, MPI_INFO_NULL, port) != MPI_SUCCESS) pause_ms(20);
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    } else {
      read_port(arg, port);
    }
  }
  if (strcmp(mode, "refused") == 0) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int err = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    int cls = MPI_SUCCESS;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_PORT);
    CHECK(inter == MPI_COMM_NULL);
    if (rank == 0) printf("client refused: MPI_ERR_PORT\n");
    MPI_Finalize();
    return 0;
  }
  if (strcmp(mode, "late") == 0) pause_ms(2500);
  if (strcmp(mode, "two") == 0) {
    char second[MPI_MAX_PORT_NAME] = {0}, path2[4200];
    snprintf(path2, sizeof path2, "%s.2", arg);
    if (rank == 0) read_port(path2, second);
    MPI_Comm first;
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &first));
    CHECK_MPI(MPI_Comm_connect(second, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    printf("client: connected to two jobs with the same slots\n");
    MPI_Finalize();
    return 0;
  }
  if (strcmp(mode, "again") == 0) {
    for (int t = 0; t < 2; ++t) {
      CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
      exchange(inter, 0);
      CHECK_MPI(MPI_Comm_disconnect(&inter));
    }
  }
  const double t0 = MPI_Wtime();
  CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
  if (strcmp(mode, "pingpong") == 0 && rank == 0) printf("connect: %.3f ms\n", (MPI_Wtime() - t0) * 1e3);
  if (strcmp(mode, "crash") == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) raise(SIGKILL);
    for (;;) pause_ms(1000); /* mpiexec takes us down */
  }
  if (strcmp(mode, "pingpong") == 0) {
    pingpong(inter, 0, 8, 20000);
    pingpong(inter, 0, 1 << 20, 500);
  } else if (strcmp(mode, "noroom") == 0) {
    spawn_refused(inter, 0);
  } else {
    exchange(inter, 0);
  }
  if (strcmp(mode, "nodisconnect") != 0) CHECK_MPI(MPI_Comm_disconnect(&inter));
  if (rank == 0) printf("client %s done\n", mode);
  MPI_Finalize();
  return 0;
}
