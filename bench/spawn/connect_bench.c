/* MPI_Comm_connect / MPI_Comm_accept between two jobs of separate launcher
 * runs (issue 32, point 7). Standard MPI C: the same source runs under
 * ringmpi, MPICH and Open MPI (connect_compare.py starts the two runs).
 *
 *   mpiexec -n N ./connect_bench server PORTFILE [reps] [pause_ms]
 *   mpiexec -n N ./connect_bench client PORTFILE [reps] [pause_ms]
 *
 * The server opens a port, writes its name to PORTFILE (written aside, then
 * renamed, so the client never reads half of it) and accepts `reps` times on
 * MPI_COMM_WORLD (root 0) on that port; the client reads the file and, each
 * time, sleeps pause_ms (default 20: the server's root is then waiting in
 * MPI_Comm_accept, as a server usually is), then connects, makes one round
 * trip of one int between the two rank 0s on the new intercommunicator, and
 * disconnects. Times come from CLOCK_MONOTONIC, which both jobs share on one
 * machine, so the server can time its accept from the client's call:
 *   connect     client: MPI_Comm_connect's call until it returns
 *   accept      server: the client's connect call until MPI_Comm_accept returns
 *   roundtrip   client: send + receive of the first message after connect
 *   disconnect  client: MPI_Comm_disconnect
 *   total       client: connect's call until disconnect returns
 * Rank 0 of each job prints one line per figure:
 *   NAME first_ms best_ms median_ms reps
 * (first: the first connection, which may map things once; best and median
 * over the other reps, or over all when reps is 1). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pause_ms(int ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static int cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

static void report(const char* name, double* t, int reps) {
  const double first = t[0];
  double* rest = reps > 1 ? t + 1 : t;
  const int n = reps > 1 ? reps - 1 : reps;
  qsort(rest, (size_t)n, sizeof(double), cmp);
  printf("%s %.3f %.3f %.3f %d\n", name, first * 1e3, rest[0] * 1e3, rest[n / 2] * 1e3, reps);
}

static void fail(const char* what) {
  fprintf(stderr, "connect_bench: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 3 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0))
    fail("usage: connect_bench server|client PORTFILE [reps] [pause_ms]");
  const int server = strcmp(argv[1], "server") == 0;
  const char* path = argv[2];
  const int reps = argc > 3 ? atoi(argv[3]) : 10;
  const int pause = argc > 4 ? atoi(argv[4]) : 20;
  if (reps < 1 || pause < 0) fail("reps must be at least 1 and pause_ms at least 0");
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char port[MPI_MAX_PORT_NAME] = "";
  double* t = calloc((size_t)reps * 5, sizeof(double));
  double *t_conn = t, *t_rt = t + reps, *t_disc = t + 2 * reps, *t_total = t + 3 * reps;
  if (!t) fail("out of memory");
  if (server) {
    if (rank == 0) {
      MPI_Open_port(MPI_INFO_NULL, port);
      char tmp[4096];
      snprintf(tmp, sizeof tmp, "%s.tmp", path);
      FILE* f = fopen(tmp, "w");
      if (!f || fprintf(f, "%s\n", port) < 0 || fclose(f) != 0 || rename(tmp, path) != 0)
        fail("cannot write the port file");
    }
    for (int k = 0; k < reps; ++k) {
      MPI_Comm inter;
      MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
      const double t1 = now();
      if (rank == 0) {
        double tc;  /* the client's connect call */
        MPI_Recv(&tc, 1, MPI_DOUBLE, 0, 0, inter, MPI_STATUS_IGNORE);
        MPI_Send(&tc, 1, MPI_DOUBLE, 0, 0, inter);
        t_conn[k] = t1 - tc;
      }
      MPI_Comm_disconnect(&inter);
    }
    if (rank == 0) {
      report("accept", t_conn, reps);
      MPI_Close_port(port);
      remove(path);
    }
  } else {
    if (rank == 0)
      for (;;) {
        FILE* f = fopen(path, "r");
        if (f) {
          const int ok = fgets(port, MPI_MAX_PORT_NAME, f) != NULL;
          fclose(f);
          if (!ok) fail("empty port file");
          port[strcspn(port, "\n")] = '\0';
          break;
        }
        pause_ms(5);
      }
    for (int k = 0; k < reps; ++k) {
      pause_ms(pause);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Comm inter;
      const double t0 = now();
      MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
      const double t1 = now();
      if (rank == 0) {
        double v = t0;
        MPI_Send(&v, 1, MPI_DOUBLE, 0, 0, inter);
        MPI_Recv(&v, 1, MPI_DOUBLE, 0, 0, inter, MPI_STATUS_IGNORE);
        if (v != t0) fail("the round trip returned another value");
      }
      const double t2 = now();
      MPI_Comm_disconnect(&inter);
      const double t3 = now();
      t_conn[k] = t1 - t0;
      t_rt[k] = t2 - t1;
      t_disc[k] = t3 - t2;
      t_total[k] = t3 - t0;
    }
    if (rank == 0) {
      report("connect", t_conn, reps);
      report("roundtrip", t_rt, reps);
      report("disconnect", t_disc, reps);
      report("total", t_total, reps);
    }
  }
  free(t);
  MPI_Finalize();
  return 0;
}
