/* Pi by integration: pi = integral of 4 / (1 + x^2) over [0, 1]. The interval
 * is cut into n strips; rank r adds up the strips r, r+size, r+2*size, ...
 * (midpoint rule) and MPI_Reduce sums the partial results on rank 0.
 * The first collective program: every rank calls MPI_Reduce with the same
 * count, datatype, operation and root. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long n = 1000000;
  const double h = 1.0 / (double)n;
  double mine = 0.0;
  for (long i = rank; i < n; i += size) {
    const double x = h * ((double)i + 0.5);
    mine += 4.0 / (1.0 + x * x);
  }
  mine *= h;
  double pi = 0.0;
  MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);  /* pi is only set on rank 0 */
  if (rank == 0) {
    const double error = fabs(pi - 3.14159265358979323846);
    printf("pi is about %.12f (error %.1e) from %ld strips on %d ranks\n", pi, error, n, size);
    if (error > 1e-9) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
