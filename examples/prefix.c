/* Parallel prefix: every rank holds a few items and wants to know where its
 * items start in the global numbering, i.e. the sum of the counts of all
 * ranks before it. MPI_Exscan computes exactly that (an exclusive scan); the
 * result on rank 0 is undefined by the standard, so rank 0 uses 0 itself.
 * A typical use: each rank writes its part of a file at that offset. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = rank + 1; /* rank r holds r+1 items */
  int start = 0;
  MPI_Exscan(&count, &start, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) start = 0; /* not set by MPI_Exscan on rank 0 */
  const int want = rank * (rank + 1) / 2; /* 1 + 2 + ... + rank */
  printf("rank %d: my %d items are numbered %d..%d\n", rank, count, start, start + count - 1);
  int total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (start != want || total != size * (size + 1) / 2) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
  return 0;
}
