/* MPI_Reduce_local throughput (issue 36), standard MPI C so that the same
 * file builds against MPICH and Open MPI: MPI_DOUBLE with MPI_SUM, 64 B ..
 * 1 MiB per buffer, the best of 5 repetitions, GiB/s of one buffer.
 *
 *   mpiexec -n 1 reduce_local        one line per size: BYTES GIB_PER_S */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  for (long b = 64; b <= (1L << 20); b *= 4) {
    const int n = (int)(b / 8);
    double* a = malloc(b);
    double* c = malloc(b);
    for (int i = 0; i < n; ++i) a[i] = 1, c[i] = 2;
    long it = (256L << 20) / b;
    if (it > 200000) it = 200000;
    double best = 1e30;
    for (int r = 0; r < 5; ++r) {
      const double t0 = MPI_Wtime();
      for (long i = 0; i < it; ++i) MPI_Reduce_local(a, c, n, MPI_DOUBLE, MPI_SUM);
      const double t = (MPI_Wtime() - t0) / it;
      if (t < best) best = t;
    }
    printf("%ld %.2f\n", b, b / best / (1 << 30));
    free(a);
    free(c);
  }
  MPI_Finalize();
  return 0;
}
