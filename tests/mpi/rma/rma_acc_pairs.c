/* Accumulate-family calls on the MINLOC/MAXLOC pair types, whose C layout
 * has padding (MPI_DOUBLE_INT: a double and an int in 16 bytes; MPI_2INT
 * none): several elements per call, every value and index where the struct
 * puts it, the element after the target range untouched. Every rank
 * accumulates into rank 0's window. */
#include <mpi.h>

#include "../check.h"

struct di {
  double v;
  int i;
};
struct ii {
  int v, i;
};

enum { N = 3 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct di* d;
  struct ii* n;
  MPI_Win dw, nw;
  CHECK_MPI(MPI_Win_allocate((N + 1) * sizeof(struct di), sizeof(struct di), MPI_INFO_NULL, MPI_COMM_WORLD, &d, &dw));
  CHECK_MPI(MPI_Win_allocate((N + 1) * sizeof(struct ii), sizeof(struct ii), MPI_INFO_NULL, MPI_COMM_WORLD, &n, &nw));
  for (int k = 0; k <= N; ++k) {
    d[k].v = -1.0;
    d[k].i = -7;
    n[k].v = -1;
    n[k].i = -7;
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* MAXLOC: element k gets value rank + k from every rank; the largest
   * (rank size-1) wins, and its index. */
  struct di od[N];
  struct ii on[N];
  for (int k = 0; k < N; ++k) {
    od[k].v = rank + k;
    od[k].i = 10 * rank + k;
    on[k].v = rank + k;
    on[k].i = 10 * rank + k;
  }
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dw));
  CHECK_MPI(MPI_Accumulate(od, N, MPI_DOUBLE_INT, 0, 0, N, MPI_DOUBLE_INT, MPI_MAXLOC, dw));
  CHECK_MPI(MPI_Win_unlock(0, dw));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, nw));
  CHECK_MPI(MPI_Accumulate(on, N, MPI_2INT, 0, 0, N, MPI_2INT, MPI_MAXLOC, nw));
  CHECK_MPI(MPI_Win_unlock(0, nw));
  MPI_Barrier(MPI_COMM_WORLD);

  /* Every rank fetches the whole range back (MPI_NO_OP) and checks it. */
  struct di rd[N];
  struct ii rn[N];
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dw));
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_DOUBLE_INT, rd, N, MPI_DOUBLE_INT, 0, 0, N, MPI_DOUBLE_INT, MPI_NO_OP, dw));
  CHECK_MPI(MPI_Win_unlock(0, dw));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, nw));
  CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_2INT, rn, N, MPI_2INT, 0, 0, N, MPI_2INT, MPI_NO_OP, nw));
  CHECK_MPI(MPI_Win_unlock(0, nw));
  for (int k = 0; k < N; ++k) {
    CHECK(rd[k].v == (double)(size - 1 + k));
    CHECK(rd[k].i == 10 * (size - 1) + k);
    CHECK(rn[k].v == size - 1 + k);
    CHECK(rn[k].i == 10 * (size - 1) + k);
  }

  /* Fetch_and_op with MPI_REPLACE on element 1 of the padded type (one
   * element: value and index both move). */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1) {
    struct di x = {100.0, 77}, old;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, dw));
    CHECK_MPI(MPI_Fetch_and_op(&x, &old, MPI_DOUBLE_INT, 0, 1, MPI_REPLACE, dw));
    CHECK_MPI(MPI_Win_unlock(0, dw));
    CHECK(old.v == (double)size && old.i == 10 * (size - 1) + 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    CHECK(d[1].v == 100.0 && d[1].i == 77);
    CHECK(d[N].v == -1.0 && d[N].i == -7);  /* past the range: untouched */
    CHECK(n[N].v == -1 && n[N].i == -7);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK_MPI(MPI_Win_free(&dw));
  CHECK_MPI(MPI_Win_free(&nw));
  MPI_Finalize();
  return 0;
}
