/* MPI_Dims_create gives MPICH's answers (issue 35): where the standard
 * (MPI-4.1 §8.5.2: dims "as close to each other as possible", non-increasing,
 * preset entries kept) leaves a choice between equally balanced
 * factorisations, a program gets the grid it gets on an MPICH cluster. The
 * expected values come from MPICH's own MPI_Dims_create (topo_dims_mpich.h);
 * the standard's promises are checked on every row independently of them.
 * The rows are shared out over the ranks; the error count is summed. */
#include <stdio.h>

#include "check.h"
#include "topo_dims_mpich.h"

/* The standard's part: preset entries unchanged, product nnodes, free
 * entries non-increasing. */
static int standard_ok(int nnodes, int ndims, const int* in, const int* out) {
  long long product = 1;
  int last_free = -1;
  for (int i = 0; i < ndims; ++i) {
    if (in[i] != 0 && out[i] != in[i]) return 0;
    if (out[i] < 1) return 0;
    product *= out[i];
    if (in[i] == 0) {
      if (last_free >= 0 && out[i] > out[last_free]) return 0;
      last_free = i;
    }
  }
  return product == nnodes;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int total = (int)(sizeof kDimsRows / sizeof kDimsRows[0]);
  int errors = 0, rows = 0, row = 0;
  for (int at = 0; at < total; at += 2 + 2 * kDimsRows[at + 1], ++row) {
    const int nnodes = kDimsRows[at], ndims = kDimsRows[at + 1];
    const int* in = &kDimsRows[at + 2];
    const int* want = in + ndims;
    if (row % size != rank) continue;
    ++rows;
    int dims[32];
    CHECK(ndims <= 32);
    for (int i = 0; i < ndims; ++i) dims[i] = in[i];
    CHECK_MPI(MPI_Dims_create(nnodes, ndims, dims));
    int same = 1;
    for (int i = 0; i < ndims; ++i) same &= dims[i] == want[i];
    if (!same || !standard_ok(nnodes, ndims, in, dims)) {
      if (++errors <= 10) {
        fprintf(stderr, "rank %d: MPI_Dims_create(%d, %d):", rank, nnodes, ndims);
        for (int i = 0; i < ndims; ++i) fprintf(stderr, " %d", dims[i]);
        fprintf(stderr, ", MPICH:");
        for (int i = 0; i < ndims; ++i) fprintf(stderr, " %d", want[i]);
        fprintf(stderr, "\n");
      }
    }
  }
  CHECK(rows > 0 || size > row);
  int all_errors = 0;
  MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(all_errors == 0);
  /* MPICH's dims5 example, on every rank. */
  int d4[4] = {0, 0, 0, 0};
  CHECK_MPI(MPI_Dims_create(5616, 4, d4));
  CHECK(d4[0] == 13 && d4[1] == 9 && d4[2] == 8 && d4[3] == 6);
  if (rank == 0) printf("topo_dims_mpich: %d rows, all as MPICH\n", row);
  MPI_Finalize();
  return 0;
}
