/* A communicator split into rows and columns. The ranks are laid out as a
 * rows x cols grid (MPI_Dims_create), rank r at row r / cols, column r % cols.
 * MPI_Comm_split with color = row puts each row in its own communicator
 * (key = column orders the ranks in it); color = column makes the column
 * communicators. A collective on a row communicator involves only that row:
 * here each rank sums the world ranks of its row and of its column. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, dims[2] = {0, 0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  const int cols = dims[1], row = rank / cols, col = rank % cols;

  MPI_Comm row_comm, col_comm;
  MPI_Comm_split(MPI_COMM_WORLD, row, col, &row_comm);
  MPI_Comm_split(MPI_COMM_WORLD, col, row, &col_comm);
  int row_rank, col_rank, row_sum, col_sum;
  MPI_Comm_rank(row_comm, &row_rank); /* == col, thanks to the key */
  MPI_Comm_rank(col_comm, &col_rank); /* == row */
  MPI_Allreduce(&rank, &row_sum, 1, MPI_INT, MPI_SUM, row_comm);
  MPI_Allreduce(&rank, &col_sum, 1, MPI_INT, MPI_SUM, col_comm);

  /* Row `row` holds ranks row*cols .. row*cols+cols-1; column `col` holds col, col+cols, ... */
  const int want_row = row * cols * cols + cols * (cols - 1) / 2;
  const int want_col = dims[0] * col + cols * dims[0] * (dims[0] - 1) / 2;
  printf("rank %d: row %d (rank %d in it, sum %d), column %d (rank %d in it, sum %d)\n", rank, row, row_rank,
         row_sum, col, col_rank, col_sum);
  if (row_rank != col || col_rank != row || row_sum != want_row || col_sum != want_col) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Comm_free(&row_comm);
  MPI_Comm_free(&col_comm);
  MPI_Finalize();
  return 0;
}
