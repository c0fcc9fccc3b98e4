/* CPU used by ranks blocked in MPI_Recv: rank 0 sleeps `seconds` (default 2)
 * and then sends one message to every other rank; each waiting rank reports
 * the user+system CPU time it used while blocked, as a share of a core.
 * Run oversubscribed, e.g.: mpiexec -n 8 bench_idle_recv 2 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
         (double)u.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double seconds = argc > 1 ? atof(argv[1]) : 2.0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    usleep((useconds_t)(seconds * 1e6));
    int v = 1;
    for (int r = 1; r < size; ++r) MPI_Send(&v, 1, MPI_INT, r, 0, MPI_COMM_WORLD);
    double worst = 0, sum = 0;
    for (int r = 1; r < size; ++r) {
      double share;
      MPI_Recv(&share, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += share;
      if (share > worst) worst = share;
    }
    printf("np=%d: a rank blocked in MPI_Recv for %.1f s used on average %.2f%% of a core (worst %.2f%%)\n", size,
           seconds, size > 1 ? 100.0 * sum / (size - 1) : 0.0, 100.0 * worst);
  } else {
    const double c0 = cpu_seconds(), t0 = MPI_Wtime();
    int v;
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double share = (cpu_seconds() - c0) / (MPI_Wtime() - t0);
    MPI_Send(&share, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
