/* Aliased buffers in collectives (MPI-3.1 §2.3: an OUT or INOUT argument may
 * not alias another argument; MPI_IN_PLACE is how a collective reuses its
 * buffer). When the first data byte a send block reads is also the first byte
 * a receive block writes, the call fails with MPI_ERR_BUFFER under
 * MPI_ERRORS_RETURN, before any communication, so the ranks that passed
 * aliased buffers return without waiting for the others. Buffers that share
 * memory without overlapping data (a strided type and its complement), the
 * MPI_IN_PLACE forms and zero counts are accepted and give the right result.
 * MPI_Reduce_local (§5.9.7) refuses inbuf == inoutbuf the same way. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static void expect_buffer_error(int err) {
  int cls = -1;
  CHECK(err != MPI_SUCCESS);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_BUFFER);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  const int n = 2 * size;
  int* buf = malloc(sizeof(int) * (size_t)n);
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    counts[i] = 2;
    displs[i] = 2 * i;
    types[i] = MPI_INT;
  }
  int bytes[64];
  for (int i = 0; i < size; ++i) bytes[i] = (int)(2 * i * sizeof(int));
  MPI_Request req;

  /* Every rank aliases: every rank fails. */
  expect_buffer_error(MPI_Allreduce(buf, buf, 2, MPI_INT, MPI_SUM, comm));
  expect_buffer_error(MPI_Iallreduce(buf, buf, 2, MPI_INT, MPI_SUM, comm, &req));
  expect_buffer_error(MPI_Scan(buf, buf, 2, MPI_INT, MPI_SUM, comm));
  expect_buffer_error(MPI_Exscan(buf, buf, 2, MPI_INT, MPI_SUM, comm));
  expect_buffer_error(MPI_Reduce_scatter_block(buf, buf, 2, MPI_INT, MPI_SUM, comm));
  expect_buffer_error(MPI_Reduce_scatter(buf, buf, counts, MPI_INT, MPI_SUM, comm));
  expect_buffer_error(MPI_Alltoall(buf, 2, MPI_INT, buf, 2, MPI_INT, comm));
  expect_buffer_error(MPI_Alltoallv(buf, counts, displs, MPI_INT, buf, counts, displs, MPI_INT, comm));
  expect_buffer_error(MPI_Alltoallw(buf, counts, bytes, types, buf, counts, bytes, types, comm));
  expect_buffer_error(MPI_Ialltoall(buf, 2, MPI_INT, buf, 2, MPI_INT, comm, &req));
  /* Allgather from the caller's own slot of the result (every rank aliases). */
  expect_buffer_error(MPI_Allgather(buf + 2 * rank, 2, MPI_INT, buf, 2, MPI_INT, comm));
  expect_buffer_error(MPI_Allgatherv(buf + 2 * rank, 2, MPI_INT, buf, counts, displs, MPI_INT, comm));
  expect_buffer_error(MPI_Iallgather(buf + 2 * rank, 2, MPI_INT, buf, 2, MPI_INT, comm, &req));

  /* Rooted: only the root's buffers alias, so only the root calls. */
  if (rank == 0) {
    expect_buffer_error(MPI_Reduce(buf, buf, 2, MPI_INT, MPI_SUM, 0, comm));
    expect_buffer_error(MPI_Gather(buf, 2, MPI_INT, buf, 2, MPI_INT, 0, comm));
    expect_buffer_error(MPI_Gatherv(buf, 2, MPI_INT, buf, counts, displs, MPI_INT, 0, comm));
    expect_buffer_error(MPI_Scatter(buf, 2, MPI_INT, buf, 2, MPI_INT, 0, comm));
    expect_buffer_error(MPI_Scatterv(buf, counts, displs, MPI_INT, buf, 2, MPI_INT, 0, comm));
    expect_buffer_error(MPI_Igather(buf, 2, MPI_INT, buf, 2, MPI_INT, 0, comm, &req));
    expect_buffer_error(MPI_Ireduce(buf, buf, 2, MPI_INT, MPI_SUM, 0, comm, &req));
  }

  /* MPI_Reduce_local: the same buffer twice (no communicator: the error goes
   * to MPI_COMM_WORLD's handler, MPI-3.1 §8.3). */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  expect_buffer_error(MPI_Reduce_local(buf, buf, 2, MPI_INT, MPI_SUM));
  CHECK_MPI(MPI_Reduce_local(buf, buf, 0, MPI_INT, MPI_SUM));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));

  /* Valid calls after the refused ones: nothing is left half-started. */
  int one[2] = {rank, 1}, sum[2] = {-1, -1};
  CHECK_MPI(MPI_Allreduce(one, sum, 2, MPI_INT, MPI_SUM, comm));
  CHECK(sum[0] == size * (size - 1) / 2 && sum[1] == size);
  for (int i = 0; i < n; ++i) buf[i] = -1;
  buf[2 * rank] = rank;
  buf[2 * rank + 1] = -rank;
  CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 2, MPI_INT, comm));
  for (int i = 0; i < size; ++i) CHECK(buf[2 * i] == i && buf[2 * i + 1] == -i);
  CHECK_MPI(MPI_Gather(rank == 0 ? MPI_IN_PLACE : one, 2, MPI_INT, buf, 2, MPI_INT, 0, comm));
  /* Zero counts never alias. */
  CHECK_MPI(MPI_Allreduce(buf, buf, 0, MPI_INT, MPI_SUM, comm));
  CHECK_MPI(MPI_Alltoall(buf, 0, MPI_INT, buf, 0, MPI_INT, comm));

  /* Shared memory without shared data: the even ints are sent, the odd ones
   * receive (same base pointer, first bytes differ). */
  MPI_Datatype even, odd;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(1, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_create_resized(every_other, 0, 2 * (MPI_Aint)sizeof(int), &even));
  CHECK_MPI(MPI_Type_commit(&even));
  CHECK_MPI(MPI_Type_create_indexed_block(1, 1, (int[]){1}, MPI_INT, &odd));
  MPI_Datatype odd_r;
  CHECK_MPI(MPI_Type_create_resized(odd, 0, 2 * (MPI_Aint)sizeof(int), &odd_r));
  CHECK_MPI(MPI_Type_commit(&odd_r));
  int* v = malloc(sizeof(int) * (size_t)(2 * size));
  for (int i = 0; i < size; ++i) {
    v[2 * i] = 100 * rank + i;
    v[2 * i + 1] = -1;
  }
  /* Alltoall: rank r sends v[2i] to rank i, receives from rank i into v[2i+1]. */
  CHECK_MPI(MPI_Alltoall(v, 1, even, v, 1, odd_r, comm));
  for (int i = 0; i < size; ++i) CHECK(v[2 * i] == 100 * rank + i && v[2 * i + 1] == 100 * i + rank);
  /* Allreduce on the same pointer with disjoint element types. */
  for (int i = 0; i < size; ++i) v[2 * i] = 1;
  CHECK_MPI(MPI_Allreduce(v, (char*)v + sizeof(int), 1, even, MPI_SUM, comm));
  CHECK(v[1] == size);
  free(v);
  CHECK_MPI(MPI_Type_free(&even));
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&odd));
  CHECK_MPI(MPI_Type_free(&odd_r));

  CHECK_MPI(MPI_Comm_free(&comm));
  free(buf);
  free(counts);
  free(displs);
  free(types);
  MPI_Finalize();
  return 0;
}
