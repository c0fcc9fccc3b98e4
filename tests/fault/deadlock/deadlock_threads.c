/* Programs for the deadlock detector's tests at MPI_THREAD_MULTIPLE
 * (deadlock.py). argv[1] picks one (np 2):
 *   thread_cycle  each rank starts one thread that receives from the other
 *                 rank (tag 7) and joins it: a real deadlock (each process: one
 *                 thread blocked in MPI_Recv, the main thread in pthread_join).
 *   thread_two    each rank's worker receives from the other rank (tag 7) and
 *                 its main thread too (tag 8): a real deadlock, two blocked
 *                 calls per process.
 *   thread_sleep  rank 0's worker receives from rank 1 (tag 1) while its main
 *                 thread sleeps 3 s outside MPI and then sends to rank 1 (tag 2);
 *                 rank 1 receives that and answers: correct (a thread outside
 *                 MPI may still call it).
 *   thread_compute the same with rank 0's main thread computing for 3 s. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int rank;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void* recv_from_other(void* arg) {
  int got = -1, tag = *(int*)arg;
  MPI_Recv(&got, 1, MPI_INT, 1 - rank, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided != MPI_THREAD_MULTIPLE) {
    printf("MPI_THREAD_MULTIPLE not provided\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* c = argc > 1 ? argv[1] : "";
  int v = rank, got = -1;
  pthread_t worker;
  if (!strcmp(c, "thread_cycle") || !strcmp(c, "thread_two")) {
    int tag = 7;
    pthread_create(&worker, NULL, recv_from_other, &tag);
    if (!strcmp(c, "thread_two")) {
      MPI_Recv(&got, 1, MPI_INT, 1 - rank, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    pthread_join(worker, NULL);
  } else if (!strcmp(c, "thread_sleep") || !strcmp(c, "thread_compute")) {
    int tag = 1;
    if (rank == 0) {
      pthread_create(&worker, NULL, recv_from_other, &tag);
      if (!strcmp(c, "thread_sleep")) {
        struct timespec ts = {3, 0};
        nanosleep(&ts, NULL);
      } else {
        volatile double x = 0;
        for (double t0 = now(); now() - t0 < 3.0;) x = x + 1e-9;
        (void)x;
      }
      MPI_Send(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
      pthread_join(worker, NULL);
    } else {
      MPI_Recv(&got, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
  } else {
    printf("unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) printf("done %s\n", c);
  MPI_Finalize();
  return 0;
}
