/* MPI_BYTE with the arithmetic ops (MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN) in
 * the accumulate calls. MPI-3.1 section 5.9.2 gives MPI_BYTE only the
 * bitwise ops; for RMA, ringmpi accepts the others and combines the bytes as
 * unsigned char, as MPICH and Open MPI do (mpi4py's RMA tests probe
 * MPI_Fetch_and_op and MPI_Get_accumulate with MPI_BYTE and their default op
 * MPI_SUM). Checked on every rank as target under a lock and a fence, with a
 * predefined MPI_BYTE (the small path), a contiguous type of MPI_BYTE longer
 * than 256 bytes and a vector of MPI_BYTE (the general path). MPI_Reduce with
 * MPI_BYTE and MPI_SUM is still refused with MPI_ERR_OP. */
#include <string.h>

#include "check.h"

#define N 300

static unsigned char arith(MPI_Op op, unsigned char t, unsigned char o) {
  if (op == MPI_SUM) return (unsigned char)(t + o);
  if (op == MPI_PROD) return (unsigned char)(t * o);
  if (op == MPI_MAX) return t > o ? t : o;
  return t < o ? t : o;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  unsigned char* mem;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(N, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Datatype contig, vec;
  MPI_Type_contiguous(N, MPI_BYTE, &contig);
  MPI_Type_vector(N / 2, 1, 2, MPI_BYTE, &vec);
  MPI_Type_commit(&contig);
  MPI_Type_commit(&vec);
  const MPI_Op ops[4] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
  unsigned char origin[N], result[N];
  for (int i = 0; i < N; ++i) origin[i] = (unsigned char)(i * 7 + 3);

  for (int o = 0; o < 4; ++o) {
    const MPI_Op op = ops[o];
    for (int target = 0; target < size; ++target) {
      /* Fetch_and_op and Get_accumulate of one MPI_BYTE, under a lock. */
      MPI_Win_fence(0, win);
      for (int i = 0; i < N; ++i) mem[i] = (unsigned char)(200 + i);
      MPI_Win_fence(0, win);
      if (rank == (target + 1) % size) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        CHECK_MPI(MPI_Fetch_and_op(origin, result, MPI_BYTE, target, 0, op, win));
        CHECK_MPI(MPI_Get_accumulate(origin + 1, 1, MPI_BYTE, result + 1, 1, MPI_BYTE, target, 1, 1, MPI_BYTE, op,
                                     win));
        CHECK_MPI(MPI_Get_accumulate(origin, 0, MPI_BYTE, result, 0, MPI_BYTE, target, 0, 0, MPI_BYTE, op, win));
        MPI_Request req;
        CHECK_MPI(MPI_Raccumulate(origin + 2, 1, MPI_BYTE, target, 2, 1, MPI_BYTE, op, win, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Win_unlock(target, win));
        CHECK(result[0] == 200 && result[1] == 201);
      }
      MPI_Win_fence(0, win);
      if (rank == target)
        for (int i = 0; i < 3; ++i) CHECK(mem[i] == arith(op, (unsigned char)(200 + i), origin[i]));
      /* The general path: N bytes as one contiguous type, then a vector. */
      for (int i = 0; i < N; ++i) mem[i] = (unsigned char)(200 + i);
      MPI_Win_fence(0, win);
      if (rank == (target + 1) % size) {
        CHECK_MPI(MPI_Get_accumulate(origin, 1, contig, result, N, MPI_BYTE, target, 0, 1, contig, op, win));
      }
      MPI_Win_fence(0, win);
      if (rank == (target + 1) % size)
        for (int i = 0; i < N; ++i) CHECK(result[i] == (unsigned char)(200 + i));
      if (rank == target)
        for (int i = 0; i < N; ++i) CHECK(mem[i] == arith(op, (unsigned char)(200 + i), origin[i]));
      for (int i = 0; i < N; ++i) mem[i] = (unsigned char)(200 + i);
      MPI_Win_fence(0, win);
      if (rank == (target + 1) % size) CHECK_MPI(MPI_Accumulate(origin, 1, vec, target, 0, 1, vec, op, win));
      MPI_Win_fence(0, win);
      if (rank == target)
        for (int i = 0; i < N; ++i)
          CHECK(mem[i] == (i % 2 == 0 && i < N - 1 ? arith(op, (unsigned char)(200 + i), origin[i])
                                                   : (unsigned char)(200 + i)));
    }
  }
  /* The bitwise ops keep their MPI_BYTE meaning. */
  MPI_Win_fence(0, win);
  mem[0] = 0xF0;
  MPI_Win_fence(0, win);
  const unsigned char mask = 0x3C;
  if (rank == 0) CHECK_MPI(MPI_Accumulate(&mask, 1, MPI_BYTE, size - 1, 0, 1, MPI_BYTE, MPI_BXOR, win));
  MPI_Win_fence(0, win);
  if (rank == size - 1) CHECK(mem[0] == (0xF0 ^ 0x3C));
  /* Reductions stay as the standard says. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls = MPI_SUCCESS;
  MPI_Error_class(MPI_Reduce(origin, result, 1, MPI_BYTE, MPI_SUM, 0, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_OP);
  MPI_Type_free(&contig);
  MPI_Type_free(&vec);
  CHECK_MPI(MPI_Win_free(&win));
  MPI_Finalize();
  return 0;
}
