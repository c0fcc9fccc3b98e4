/* Freeing the op and the datatype of a pending nonblocking reduction.
 * MPI-3.1 §5.9.5: MPI_OP_FREE marks a user-defined op for deallocation and
 * sets the handle to MPI_OP_NULL; §4.1.9: MPI_TYPE_FREE marks a datatype for
 * deallocation and "any communication that is currently using this datatype
 * will complete normally". So each reduction below is started, its op and
 * derived datatype are freed at once, a different op is created (it may get
 * the freed handle back), and only then is the request completed: the result
 * must be the one of the op and type the call was started with. Small and
 * large counts take the different collective paths. */
#include <stdlib.h>

#include "check.h"

static void add_pairs(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  const int *a = in;
  int *b = inout;
  for (int i = 0; i < 2 * *len; ++i) b[i] += a[i];
}

static void keep_left(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)in, (void)inout, (void)len, (void)type; /* would leave inout as it is */
}

enum { IREDUCE, IALLREDUCE, IREDUCE_SCATTER_BLOCK, ISCAN, IEXSCAN, KINDS };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int counts[] = {1, 3, 20000};
  for (int ci = 0; ci < 3; ++ci) {
    const int n = counts[ci]; /* pairs per rank (per block for reduce_scatter_block) */
    const size_t total = (size_t)n * (size_t)size;
    int *in = malloc(2 * total * sizeof(int));
    int *out = malloc(2 * total * sizeof(int));
    for (int kind = 0; kind < KINDS; ++kind) {
      for (size_t i = 0; i < 2 * total; ++i) {
        in[i] = rank + (int)i;
        out[i] = -7;
      }
      MPI_Op op;
      MPI_Datatype pair;
      CHECK_MPI(MPI_Op_create(add_pairs, 1, &op));
      CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
      CHECK_MPI(MPI_Type_commit(&pair));
      MPI_Request req;
      switch (kind) {
        case IREDUCE: CHECK_MPI(MPI_Ireduce(in, out, n, pair, op, size - 1, MPI_COMM_WORLD, &req)); break;
        case IALLREDUCE: CHECK_MPI(MPI_Iallreduce(in, out, n, pair, op, MPI_COMM_WORLD, &req)); break;
        case IREDUCE_SCATTER_BLOCK:
          CHECK_MPI(MPI_Ireduce_scatter_block(in, out, n, pair, op, MPI_COMM_WORLD, &req));
          break;
        case ISCAN: CHECK_MPI(MPI_Iscan(in, out, n, pair, op, MPI_COMM_WORLD, &req)); break;
        default: CHECK_MPI(MPI_Iexscan(in, out, n, pair, op, MPI_COMM_WORLD, &req)); break;
      }
      CHECK_MPI(MPI_Op_free(&op));
      CHECK(op == MPI_OP_NULL);
      CHECK_MPI(MPI_Type_free(&pair));
      CHECK(pair == MPI_DATATYPE_NULL);
      MPI_Op other;
      CHECK_MPI(MPI_Op_create(keep_left, 0, &other));
      CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Op_free(&other));

      /* element i of the input on rank r is r + i: the sum over ranks 0..k-1 is k*i + k(k-1)/2 */
      int ranks = size, first = 0; /* ranks summed, and the offset of the result in the input */
      int check = 1;
      if (kind == IREDUCE) check = rank == size - 1;
      if (kind == IREDUCE_SCATTER_BLOCK) first = 2 * n * rank;
      if (kind == ISCAN) ranks = rank + 1;
      if (kind == IEXSCAN) {
        ranks = rank;
        check = rank > 0;
      }
      if (check)
        for (int i = 0; i < 2 * n; ++i) CHECK(out[i] == ranks * (first + i) + ranks * (ranks - 1) / 2);
    }
    free(in);
    free(out);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) printf("coll_free_pending: ok\n");
  MPI_Finalize();
  return 0;
}
