/* Scattering a matrix's columns. Rank 0 holds an R x C matrix stored by rows
 * (C doubles per row) and deals its columns out: rank r gets cols[r] of them
 * (the counts differ: C is not a multiple of the number of ranks), hence
 * MPI_Scatterv. One column is R doubles C apart: MPI_Type_vector(R, 1, C).
 * Its extent runs from the first to the last element (almost the whole
 * matrix), so MPI_Type_create_resized shrinks the extent to one double:
 * then the column type's i-th element starts at column i, and Scatterv's
 * displacements count columns. Each rank receives its columns as plain
 * doubles, one column after the other. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { R = 5, C = 11 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double a[R][C];
  if (rank == 0)
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) a[i][j] = 100.0 * i + j;

  MPI_Datatype column, col;
  MPI_Type_vector(R, 1, C, MPI_DOUBLE, &column);
  MPI_Type_create_resized(column, 0, sizeof(double), &col);
  MPI_Type_commit(&col);

  int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
  for (int r = 0, next = 0; r < size; ++r) {
    counts[r] = C / size + (r < C % size); /* columns for rank r */
    displs[r] = next;                      /* its first column */
    next += counts[r];
  }
  const int mine = counts[rank];
  double *cols = malloc(sizeof(double) * R * (size_t)(mine > 0 ? mine : 1));
  MPI_Scatterv(a, counts, displs, col, cols, mine * R, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  int bad = 0;
  for (int k = 0; k < mine; ++k)
    for (int i = 0; i < R; ++i) bad += cols[k * R + i] != 100.0 * i + displs[rank] + k;
  printf("rank %d: got %d column(s) starting at column %d%s\n", rank, mine, displs[rank], bad ? " WRONG" : "");
  int allbad = 0;
  MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (allbad) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Type_free(&col);
  MPI_Type_free(&column);
  free(counts);
  free(displs);
  free(cols);
  MPI_Finalize();
  return 0;
}
