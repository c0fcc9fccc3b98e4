/* Accumulate datatypes (MPI-3.1 §11.3.4): a derived datatype whose basic
 * components are not all one predefined type is refused with MPI_ERR_TYPE
 * under an arithmetic op (MPI_SUM, MPI_MAXLOC); an op not defined for the
 * single basic type is MPI_ERR_OP; a derived type of one basic type
 * accumulates. */
#include <mpi.h>
#include <stddef.h>

#include "../check.h"

static void expect_class(int err, int cls) {
  int c = -1;
  MPI_Error_class(err, &c);
  CHECK(c == cls);
}

struct sif {
  int x;
  float y;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(rank == 0 ? 64 : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  if (rank == 0)
    for (int i = 0; i < 16; ++i) mem[i] = 0;
  MPI_Datatype mixed, two_ints;
  const int lens[2] = {1, 1};
  const MPI_Aint displs[2] = {offsetof(struct sif, x), offsetof(struct sif, y)};
  const MPI_Datatype types[2] = {MPI_INT, MPI_FLOAT};
  CHECK_MPI(MPI_Type_create_struct(2, lens, displs, types, &mixed));
  CHECK_MPI(MPI_Type_commit(&mixed));
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two_ints));
  CHECK_MPI(MPI_Type_commit(&two_ints));
  CHECK_MPI(MPI_Win_fence(0, win));
  struct sif s = {1, 2.0f}, r;
  expect_class(MPI_Accumulate(&s, 1, mixed, 0, 0, 1, mixed, MPI_SUM, win), MPI_ERR_TYPE);
  expect_class(MPI_Accumulate(&s, 1, mixed, 0, 0, 1, mixed, MPI_MAXLOC, win), MPI_ERR_TYPE);
  expect_class(MPI_Get_accumulate(&s, 1, mixed, &r, 1, mixed, 0, 0, 1, mixed, MPI_SUM, win), MPI_ERR_TYPE);
  double d = 1.0, dr;
  expect_class(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BOR, win), MPI_ERR_OP);
  expect_class(MPI_Fetch_and_op(&d, &dr, MPI_DOUBLE, 0, 0, MPI_BXOR, win), MPI_ERR_OP);
  int two[2] = {1, 2};
  expect_class(MPI_Accumulate(two, 1, two_ints, 0, 0, 1, two_ints, MPI_MAXLOC, win), MPI_ERR_OP);
  CHECK_MPI(MPI_Accumulate(two, 1, two_ints, 0, 0, 1, two_ints, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (rank == 0) CHECK(mem[0] == size && mem[1] == 2 * size);
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Type_free(&mixed));
  CHECK_MPI(MPI_Type_free(&two_ints));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
