/* Master and workers: the job starts as the master (mpiexec -n 1, or more
 * ranks that spawn together), which starts its workers with MPI_Comm_spawn
 * and feeds them tasks over the intercommunicator that call returns; a
 * worker finds that intercommunicator with MPI_Comm_get_parent. The same
 * program is both: a process with a parent is a worker.
 *
 * The work: the sum of i*i for i in [0, 1200000), cut into 60 tasks of
 * 20000 numbers. The master sends each worker a task, then the next task to
 * whichever worker answers first (MPI_ANY_SOURCE), so fast workers do more;
 * tag STOP tells a worker that there is nothing left. Usage:
 *   mpiexec -n 1 ./master_worker [workers]     (default 3) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { WORK = 1, RESULT = 2, STOP = 3 };
enum { TASKS = 60, TASK_SIZE = 20000 };

static void worker(MPI_Comm master) {
  for (;;) {
    long first;
    MPI_Status st;
    MPI_Recv(&first, 1, MPI_LONG, 0, MPI_ANY_TAG, master, &st);
    if (st.MPI_TAG == STOP) break;
    long long sum = 0;  /* exact: the total stays below 2^63 */
    for (long long i = first; i < first + TASK_SIZE; ++i) sum += i * i;
    MPI_Send(&sum, 1, MPI_LONG_LONG, 0, RESULT, master);
  }
  MPI_Comm_disconnect(&master);
}

static void master(const char *self, int workers) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm team;
  int *codes = malloc(sizeof(int) * (size_t)workers);
  /* Collective over MPI_COMM_WORLD; rank 0 (the root) names the program. */
  MPI_Comm_spawn(self, MPI_ARGV_NULL, workers, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &team, codes);
  if (rank == 0) {
    for (int w = 0; w < workers; ++w)
      if (codes[w] != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 1);
    long next = 0;
    int busy = 0;
    for (int w = 0; w < workers && next < TASKS; ++w, ++next, ++busy) {
      long first = next * TASK_SIZE;
      MPI_Send(&first, 1, MPI_LONG, w, WORK, team);
    }
    long long total = 0;
    int done_by[64] = {0};
    while (busy > 0) {
      long long part;
      MPI_Status st;
      MPI_Recv(&part, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, RESULT, team, &st);
      total += part;
      --busy;
      if (st.MPI_SOURCE < 64) done_by[st.MPI_SOURCE]++;
      if (next < TASKS) {
        long first = next++ * TASK_SIZE;
        MPI_Send(&first, 1, MPI_LONG, st.MPI_SOURCE, WORK, team);
        ++busy;
      }
    }
    for (int w = 0; w < workers; ++w) MPI_Send(NULL, 0, MPI_LONG, w, STOP, team);
    const long long n = (long long)TASKS * TASK_SIZE;
    const long long expect = (n - 1) * n / 2 * (2 * n - 1) / 3;  /* sum of i^2 for i < n */
    printf("sum of squares below %lld: %lld (expected %lld) by %d workers, tasks per worker:", n, total, expect,
           workers);
    for (int w = 0; w < workers && w < 64; ++w) printf(" %d", done_by[w]);
    printf("\n");
    if (total != expect) MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_disconnect(&team);
  free(codes);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    worker(parent);
  } else {
    const int workers = argc > 1 ? atoi(argv[1]) : 3;
    if (workers < 1 || workers > 64) MPI_Abort(MPI_COMM_WORLD, 3);
    master(argv[0], workers);
  }
  MPI_Finalize();
  return 0;
}
