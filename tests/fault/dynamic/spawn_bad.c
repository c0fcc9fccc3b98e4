/* Bad input to MPI_Comm_spawn(_multiple), ports and names.
 * `spawn_bad CASE` does one wrong thing under MPI_ERRORS_ARE_FATAL (the job
 * must end with a message naming the call, the class and the argument);
 * `spawn_bad returns` runs every case under MPI_ERRORS_RETURN and checks the
 * classes and the per-process error codes. `spawn_bad child-crash`,
 * `child-early-exit`: a spawned child crashes / exits before MPI_Init;
 * `child-deadlock`: parent and child wait for each other (spawn_crash.py). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../expect.h"

static int rank, size;
static int codes[8];

static int spawn_info(const char* cmd, int n, const char* key, const char* value, MPI_Comm* c) {
  /* The codes array must have maxprocs entries: none for a huge count. */
  int* errcodes = n <= 8 ? codes : MPI_ERRCODES_IGNORE;
  MPI_Info info = MPI_INFO_NULL;
  if (key) {
    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
  }
  for (int i = 0; i < 8; ++i) codes[i] = -1;
  const int e = MPI_Comm_spawn(cmd, MPI_ARGV_NULL, n, info, 0, MPI_COMM_WORLD, c, errcodes);
  if (key) MPI_Info_free(&info);
  return e;
}

static int run(const char* name, const char* self) {
  MPI_Comm c = MPI_COMM_NULL;
  char port[MPI_MAX_PORT_NAME] = "";
  if (!strcmp(name, "no_such_command")) return spawn_info("/nonexistent/ringmpi-prog", 2, NULL, NULL, &c);
  if (!strcmp(name, "not_in_path")) return spawn_info("ringmpi-no-such-program", 1, NULL, NULL, &c);
  if (!strcmp(name, "maxprocs_negative")) return spawn_info(self, -1, NULL, NULL, &c);
  if (!strcmp(name, "maxprocs_too_many")) return spawn_info(self, 100000, NULL, NULL, &c);
  if (!strcmp(name, "bad_host")) return spawn_info(self, 1, "host", "elsewhere.invalid", &c);
  if (!strcmp(name, "bad_soft")) return spawn_info(self, 2, "soft", "1:x", &c);
  if (!strcmp(name, "bad_wdir")) return spawn_info(self, 1, "wdir", "/nonexistent/dir", &c);
  if (!strcmp(name, "bad_root"))
    return MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, size, MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE);
  if (!strcmp(name, "lookup_name")) return MPI_Lookup_name("ringmpi-never-published", MPI_INFO_NULL, port);
  if (!strcmp(name, "bad_port")) return MPI_Comm_connect("tcp://elsewhere:1", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c);
  if (!strcmp(name, "foreign_port"))  /* a port of another mpiexec run that has ended */
    return MPI_Comm_connect("ringmpi-port:ringmpi-1-00000000deadbeef:0:0", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c);
  if (!strcmp(name, "closed_port")) {
    if (rank == 0) {
      MPI_Open_port(MPI_INFO_NULL, port);
      MPI_Close_port(port);
    }
    return MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c);
  }
  fprintf(stderr, "spawn_bad: unknown case %s\n", name);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int main(int argc, char** argv) {
  MPI_Comm parent;
  if (argc == 2 && !strcmp(argv[1], "early-exit")) return 0;  /* a child that never calls MPI_Init */
  MPI_Init(&argc, &argv);
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL && argc == 2 && !strcmp(argv[1], "wait")) {  /* child-deadlock */
    int v;
    MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);  /* nobody sends it */
    MPI_Finalize();
    return 0;
  }
  if (parent != MPI_COMM_NULL && argc == 2 && !strcmp(argv[1], "fatal")) {  /* child-fatal */
    int v = 0;
    MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);  /* no rank 99: a fatal error */
    return 1;
  }
  if (parent != MPI_COMM_NULL) {  /* the child of child-crash */
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
      printf("spawned child %d here\n", me);
      fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);  /* rank 0's line is out before anyone crashes */
    /* Past any sanitizer's handler (as fl_rank.c's segv): AddressSanitizer
     * catches SIGSEGV and exits with status 1, not by the signal the test
     * expects mpiexec to name. */
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  if (!strcmp(argv[1], "child-crash") || !strcmp(argv[1], "child-early-exit") || !strcmp(argv[1], "child-fatal")) {
    char* args[] = {!strcmp(argv[1], "child-fatal") ? "fatal" : "early-exit", NULL};
    MPI_Comm c;
    MPI_Comm_spawn(argv[0], !strcmp(argv[1], "child-crash") ? MPI_ARGV_NULL : args, 2, MPI_INFO_NULL, 0,
                   MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE);
    MPI_Barrier(c);  /* the crashing children never get here */
    fprintf(stderr, "rank %d: the spawn with crashing children returned\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  if (!strcmp(argv[1], "print-launcher")) {  /* names mpiexec's spawn socket, waits for SPAWN_BAD_GO */
    const char* go = getenv("SPAWN_BAD_GO");
    printf("launcher %s\n", getenv("RINGMPI_LAUNCHER") ? getenv("RINGMPI_LAUNCHER") : "");
    fflush(stdout);
    for (int i = 0; i < 2000 && go && access(go, F_OK) != 0; ++i) usleep(10000);
    MPI_Finalize();
    return 0;
  }
  if (!strcmp(argv[1], "publish")) {  /* publish-NAME: publishes and exits without unpublishing */
    char port[MPI_MAX_PORT_NAME];
    MPI_Open_port(MPI_INFO_NULL, port);
    const char* service = getenv("SPAWN_BAD_SERVICE");
    if (!service || MPI_Publish_name(service, MPI_INFO_NULL, port) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 4);
    printf("published %s as %s\n", service, port);
    MPI_Finalize();
    return 0;
  }
  if (!strcmp(argv[1], "child-deadlock")) {
    char* args[] = {"wait", NULL};
    MPI_Comm c;
    int v;
    MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c, MPI_ERRCODES_IGNORE);
    MPI_Recv(&v, 1, MPI_INT, 0, 0, c, MPI_STATUS_IGNORE);  /* the child waits too */
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  if (strcmp(argv[1], "returns") != 0) {
    run(argv[1], argv[0]);
    fprintf(stderr, "rank %d: case %s was not reported as an error\n", rank, argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  EXPECT(run("no_such_command", argv[0]), MPI_ERR_SPAWN);
  if (rank == 0 && (codes[0] != MPI_ERR_SPAWN || codes[1] != MPI_ERR_SPAWN || codes[2] != -1)) {
    fprintf(stderr, "per-process error codes %d %d %d\n", codes[0], codes[1], codes[2]);
    MPI_Abort(MPI_COMM_WORLD, 6);
  }
  EXPECT(run("not_in_path", argv[0]), MPI_ERR_SPAWN);
  EXPECT(run("maxprocs_negative", argv[0]), MPI_ERR_ARG);
  EXPECT(run("maxprocs_too_many", argv[0]), MPI_ERR_SPAWN);
  EXPECT(run("bad_host", argv[0]), MPI_ERR_SPAWN);
  EXPECT(run("bad_soft", argv[0]), MPI_ERR_INFO);
  EXPECT(run("bad_wdir", argv[0]), MPI_ERR_SPAWN);
  EXPECT(run("bad_root", argv[0]), MPI_ERR_ROOT);
  EXPECT(run("lookup_name", argv[0]), MPI_ERR_NAME);
  EXPECT(run("bad_port", argv[0]), MPI_ERR_PORT);
  EXPECT(run("closed_port", argv[0]), MPI_ERR_PORT);
  EXPECT(run("foreign_port", argv[0]), MPI_ERR_PORT);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("spawn_bad: all error codes as expected\n");
  MPI_Finalize();
  return 0;
}
