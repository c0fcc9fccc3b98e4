/* MPI_Compare_and_swap takes one predefined datatype from the categories of
 * MPI-3.1 §11.3.4: C integer, Fortran integer, Logical, Multi-language types
 * or Byte (ringmpi also takes MPI_CHAR, as its reductions do). Any other type
 * (floating point, complex, the pair types of MINLOC/MAXLOC, derived types)
 * fails with MPI_ERR_TYPE under MPI_ERRORS_RETURN and changes nothing; every
 * accepted type swaps. */
#include <mpi.h>
#include <stdbool.h>
#include <string.h>

#include "../check.h"

static MPI_Win win;
static unsigned char* mem;  /* rank 0's window: 64 bytes */

static int cas(MPI_Datatype t, const void* origin, const void* compare, void* result) {
  return MPI_Compare_and_swap(origin, compare, result, t, 0, 0, win);
}

static void expect_class(int err, int cls) {
  int c = -1;
  MPI_Error_class(err, &c);
  CHECK(c == cls);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_MPI(MPI_Win_allocate(rank == 0 ? 64 : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  /* Refused: one rank at a time so the window contents stay known. */
  const MPI_Datatype bad[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_DOUBLE_COMPLEX, MPI_2INT,
                              MPI_DOUBLE_INT, MPI_REAL, MPI_PACKED};
  MPI_Datatype four_bytes;
  CHECK_MPI(MPI_Type_contiguous(4, MPI_BYTE, &four_bytes));
  CHECK_MPI(MPI_Type_commit(&four_bytes));
  CHECK_MPI(MPI_Win_lock_all(0, win));
  if (rank == 0) memset(mem, 0, 64);
  CHECK_MPI(MPI_Win_sync(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  unsigned char origin[32], compare[32], result[32];
  memset(origin, 0x5a, sizeof origin);
  memset(compare, 0, sizeof compare);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    memset(result, 0x77, sizeof result);
    expect_class(cas(bad[i], origin, compare, result), MPI_ERR_TYPE);
    CHECK(result[0] == 0x77);
  }
  expect_class(cas(four_bytes, origin, compare, result), MPI_ERR_TYPE);
  CHECK_MPI(MPI_Win_flush_all(win));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    CHECK_MPI(MPI_Win_sync(win));
    for (int i = 0; i < 64; ++i) CHECK(mem[i] == 0);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* Accepted: rank 0 swaps each type in turn (0 -> 0x5a bytes), then back. */
  const MPI_Datatype good[] = {MPI_CHAR,      MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT,  MPI_INT,
                               MPI_LONG,      MPI_LONG_LONG,   MPI_UNSIGNED,      MPI_INT8_T, MPI_UINT64_T,
                               MPI_AINT,      MPI_OFFSET,      MPI_COUNT,         MPI_BYTE,   MPI_C_BOOL,
                               MPI_INTEGER,   MPI_LOGICAL};
  if (rank == 0) {
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
      int size;
      CHECK_MPI(MPI_Type_size(good[i], &size));
      unsigned char one[16], zero[16];
      memset(one, good[i] == MPI_C_BOOL ? 1 : 0x5a, sizeof one);
      memset(zero, 0, sizeof zero);
      memset(result, 0x77, sizeof result);
      CHECK_MPI(cas(good[i], one, zero, result));
      CHECK_MPI(MPI_Win_flush(0, win));
      CHECK(memcmp(result, zero, (size_t)size) == 0);
      CHECK(memcmp(mem, one, (size_t)size) == 0);
      CHECK_MPI(cas(good[i], zero, one, result));
      CHECK_MPI(MPI_Win_flush(0, win));
      CHECK(memcmp(mem, zero, (size_t)size) == 0);
    }
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Type_free(&four_bytes));
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
