/* MPI_LAND, MPI_LOR and MPI_LXOR on the multi-language types MPI_AINT,
 * MPI_OFFSET and MPI_COUNT (issue 35). MPI-4.1 §6.9.2 lists these types with
 * the arithmetic and bitwise ops only; MPICH and Open MPI also take the
 * logical ops on them, with C's meaning (nonzero is true, the result is 0
 * or 1), so they are accepted here too: in MPI_Reduce_local, the
 * reductions (Reduce, Allreduce, Iallreduce, Scan, Reduce_scatter_block)
 * and the accumulates (they use the same op table). The logical ops on
 * Fortran INTEGER stay an error (MPICH refuses them too). */
#include <stdlib.h>

#include "check.h"

enum { K = 5 };

/* Element j of rank r: nonzero unless j == r or j == K - 1 (false for
 * everyone); element 0 is nonzero on every rank (true for everyone). */
static long long value(int r, int j) {
  if (j == 0) return (long long)r + 7;
  if (j == K - 1) return 0;
  return j == r ? 0 : (long long)(r + 1) * 3 - j;
}

/* What op gives over ranks 0..n-1 for element j, with C's truth. Results
 * are compared as truth values: where one rank contributes (np 1, rank 0 of
 * a scan) no op is applied and the value comes back as it was. */
static long long expected(MPI_Op op, int n, int j) {
  int all = 1, any = 0, odd = 0;
  for (int r = 0; r < n; ++r) {
    const int t = value(r, j) != 0;
    all &= t;
    any |= t;
    odd ^= t;
  }
  return op == MPI_LAND ? all : op == MPI_LOR ? any : odd;
}

#define FILL(T, buf, r)                                         \
  for (int j_ = 0; j_ < K; ++j_) (buf)[j_] = (T)value((r), j_)

#define CHECK_RESULT(buf, op, n)                                \
  for (int j_ = 0; j_ < K; ++j_) CHECK(((buf)[j_] != 0) == expected((op), (n), j_))

#define RUN_TYPE(T, TYPE)                                                                  \
  do {                                                                                     \
    T in[K], out[K], loc[K];                                                               \
    for (int o = 0; o < 3; ++o) {                                                          \
      const MPI_Op op = ops[o];                                                            \
      FILL(T, in, rank);                                                                   \
      CHECK_MPI(MPI_Allreduce(in, out, K, TYPE, op, MPI_COMM_WORLD));                      \
      CHECK_RESULT(out, op, size);                                                         \
      CHECK_MPI(MPI_Reduce(in, out, K, TYPE, op, size - 1, MPI_COMM_WORLD));               \
      if (rank == size - 1) CHECK_RESULT(out, op, size);                                   \
      MPI_Request req;                                                                     \
      CHECK_MPI(MPI_Iallreduce(in, out, K, TYPE, op, MPI_COMM_WORLD, &req));               \
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));                                        \
      CHECK_RESULT(out, op, size);                                                         \
      CHECK_MPI(MPI_Scan(in, out, K, TYPE, op, MPI_COMM_WORLD));                           \
      CHECK_RESULT(out, op, rank + 1);                                                     \
      /* Reduce_local over two "ranks": inout holds rank 1's values. */                   \
      FILL(T, loc, 1);                                                                     \
      CHECK_MPI(MPI_Reduce_local(in, loc, K, TYPE, op));                                   \
      if (rank == 0) CHECK_RESULT(loc, op, 2);                                             \
      T* blocks = malloc(sizeof(T) * K * (size_t)size);                                    \
      for (int b = 0; b < size; ++b) FILL(T, blocks + b * K, rank);                        \
      CHECK_MPI(MPI_Reduce_scatter_block(blocks, out, K, TYPE, op, MPI_COMM_WORLD));       \
      CHECK_RESULT(out, op, size);                                                         \
      free(blocks);                                                                        \
    }                                                                                      \
  } while (0)

/* Accumulate with a logical op into rank 0's window: every rank combines its
 * values into the same K elements, so rank 0 ends with the reduction. */
#define RUN_ACC(T, TYPE, OP, INIT)                                                         \
  do {                                                                                     \
    T* base;                                                                               \
    MPI_Win win;                                                                           \
    CHECK_MPI(MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(T) * K : 0, sizeof(T),         \
                               MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));               \
    if (rank == 0)                                                                         \
      for (int j_ = 0; j_ < K; ++j_) base[j_] = (INIT);                                    \
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));                                                \
    T in[K];                                                                               \
    FILL(T, in, rank);                                                                     \
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));                                   \
    CHECK_MPI(MPI_Accumulate(in, K, TYPE, 0, 0, K, TYPE, (OP), win));                      \
    T one = 1, old = 0;                                                                    \
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, TYPE, 0, 0, MPI_NO_OP, win));                   \
    CHECK_MPI(MPI_Win_unlock(0, win));                                                     \
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));                                                \
    if (rank == 0) CHECK_RESULT(base, (OP), size);                                         \
    CHECK_MPI(MPI_Win_free(&win));                                                         \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
  RUN_TYPE(MPI_Aint, MPI_AINT);
  RUN_TYPE(MPI_Offset, MPI_OFFSET);
  RUN_TYPE(MPI_Count, MPI_COUNT);
  /* Accumulate: LAND from all-true (1), LOR and LXOR from all-false (0). */
  RUN_ACC(MPI_Aint, MPI_AINT, MPI_LAND, 1);
  RUN_ACC(MPI_Offset, MPI_OFFSET, MPI_LOR, 0);
  RUN_ACC(MPI_Count, MPI_COUNT, MPI_LXOR, 0);

  /* Fortran INTEGER has no logical ops in the standard nor in MPICH. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  int fi[1] = {1}, fo[1] = {0}, cls = MPI_SUCCESS;
  const int rc = MPI_Reduce_local(fi, fo, 1, MPI_INTEGER, MPI_LAND);
  CHECK(rc != MPI_SUCCESS);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_OP);
  MPI_Finalize();
  return 0;
}
