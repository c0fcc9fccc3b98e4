/* Zero-byte collectives (issue 36): every collective with count 0 (and one
 * with a datatype of size 0), blocking and nonblocking, in place and not,
 * mixed with real collectives on the same communicator -- each real one
 * checks its data, so a zero-byte call that consumed or skipped a message
 * out of order shows. The forms whose arguments tell every rank that no rank
 * moves a byte return without a round trip: the counter coll_zero_byte grows
 * by exactly their number and their nonblocking requests are complete at
 * once. Run with the argument "check" under mpiexec --check: there every call
 * keeps its round trip (the arguments are compared across ranks) and the
 * counter stays. The other v forms with zero counts always run (a rank cannot
 * know the others' counts; coll_zero_mixed.c has them) and must still work. */
#include <mpi.h>
#include <string.h>

#include "../check.h"
#include "../counter.h"

static int rank, size, round_no;
static long long skipped; /* calls this rank expects to return at once */
static int check_mode;

/* A real collective after each zero-byte one: a bcast from a rotating root
 * and an allreduce, both checked. */
static void real(MPI_Comm comm) {
  int v = rank == round_no % size ? 1000 + round_no : -1;
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, round_no % size, comm));
  CHECK(v == 1000 + round_no);
  int s = rank + round_no, t = 0;
  CHECK_MPI(MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, comm));
  CHECK(t == size * (size - 1) / 2 + size * round_no);
  ++round_no;
}

/* A nonblocking zero-byte call's request: complete at once unless --check. */
static void done(MPI_Request* r) {
  int flag = 0;
  CHECK_MPI(MPI_Test(r, &flag, MPI_STATUS_IGNORE));
  if (!check_mode) CHECK(flag);
  if (!flag) CHECK_MPI(MPI_Wait(r, MPI_STATUS_IGNORE));
  CHECK(*r == MPI_REQUEST_NULL);
}

static void zero_forms(MPI_Comm comm, int expect_skip) {
  int sb[1] = {7}, rb[1] = {9};
  int counts[64], displs[64];
  for (int i = 0; i < size; ++i) counts[i] = displs[i] = 0;
  MPI_Request r;
  const long long k = expect_skip ? 1 : 0;
  for (int root = 0; root < size; root += size > 2 ? 2 : 1) {
    CHECK_MPI(MPI_Bcast(rb, 0, MPI_INT, root, comm)); skipped += k; real(comm);
    CHECK_MPI(MPI_Reduce(sb, rb, 0, MPI_INT, MPI_SUM, root, comm)); skipped += k; real(comm);
    CHECK_MPI(MPI_Reduce(rank == root ? MPI_IN_PLACE : sb, rb, 0, MPI_INT, MPI_MAX, root, comm)); skipped += k;
    CHECK_MPI(MPI_Gather(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm)); skipped += k; real(comm);
    CHECK_MPI(MPI_Gather(rank == root ? MPI_IN_PLACE : sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm)); skipped += k;
    CHECK_MPI(MPI_Scatter(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm)); skipped += k; real(comm);
    CHECK_MPI(MPI_Ibcast(rb, 0, MPI_INT, root, comm, &r)); skipped += k; done(&r);
    CHECK_MPI(MPI_Ireduce(sb, rb, 0, MPI_INT, MPI_SUM, root, comm, &r)); skipped += k; done(&r);
    CHECK_MPI(MPI_Igather(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm, &r)); skipped += k; done(&r);
    CHECK_MPI(MPI_Iscatter(sb, 0, MPI_INT, rb, 0, MPI_INT, root, comm, &r)); skipped += k; done(&r);
    real(comm);
    /* v forms: a real call, but on two ranks, where each side knows that
     * the other's block is empty too. */
    CHECK_MPI(MPI_Gatherv(sb, 0, MPI_INT, rb, counts, displs, MPI_INT, root, comm)); skipped += (size == 2) * k;
    CHECK_MPI(MPI_Scatterv(sb, counts, displs, MPI_INT, rb, 0, MPI_INT, root, comm)); skipped += (size == 2) * k;
    real(comm);
  }
  CHECK_MPI(MPI_Allreduce(sb, rb, 0, MPI_INT, MPI_SUM, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, rb, 0, MPI_DOUBLE, MPI_PROD, comm)); skipped += k;
  CHECK_MPI(MPI_Allgather(sb, 0, MPI_INT, rb, 0, MPI_INT, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, rb, 0, MPI_INT, comm)); skipped += k;
  CHECK_MPI(MPI_Alltoall(sb, 0, MPI_INT, rb, 0, MPI_INT, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Reduce_scatter_block(sb, rb, 0, MPI_INT, MPI_SUM, comm)); skipped += k;
  CHECK_MPI(MPI_Reduce_scatter(sb, rb, counts, MPI_INT, MPI_SUM, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Scan(sb, rb, 0, MPI_INT, MPI_SUM, comm)); skipped += k;
  CHECK_MPI(MPI_Exscan(sb, rb, 0, MPI_INT, MPI_SUM, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Iallreduce(sb, rb, 0, MPI_INT, MPI_SUM, comm, &r)); skipped += k; done(&r);
  CHECK_MPI(MPI_Iallgather(sb, 0, MPI_INT, rb, 0, MPI_INT, comm, &r)); skipped += k; done(&r);
  CHECK_MPI(MPI_Ialltoall(sb, 0, MPI_INT, rb, 0, MPI_INT, comm, &r)); skipped += k; done(&r);
  CHECK_MPI(MPI_Ireduce_scatter_block(sb, rb, 0, MPI_INT, MPI_SUM, comm, &r)); skipped += k; done(&r);
  CHECK_MPI(MPI_Iscan(sb, rb, 0, MPI_INT, MPI_SUM, comm, &r)); skipped += k; done(&r);
  CHECK_MPI(MPI_Iexscan(sb, rb, 0, MPI_INT, MPI_SUM, comm, &r)); skipped += k; done(&r);
  real(comm);
  /* A datatype of size 0 with a positive count moves nothing either. */
  MPI_Datatype none;
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &none));
  CHECK_MPI(MPI_Type_commit(&none));
  CHECK_MPI(MPI_Bcast(rb, 5, none, 0, comm)); skipped += k; real(comm);
  CHECK_MPI(MPI_Type_free(&none));
  /* Allgatherv with every count 0 (all ranks know all counts) returns at
   * once; alltoallv and the barrier are real calls. */
  CHECK_MPI(MPI_Allgatherv(sb, 0, MPI_INT, rb, counts, displs, MPI_INT, comm)); skipped += k;
  CHECK_MPI(MPI_Alltoallv(sb, counts, displs, MPI_INT, rb, counts, displs, MPI_INT, comm));
  CHECK_MPI(MPI_Barrier(comm));
  real(comm);
  /* The buffers were not touched. */
  CHECK(sb[0] == 7 && rb[0] == 9);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size <= 64);
  check_mode = argc > 1 && strcmp(argv[1], "check") == 0;
  const long long before = counter("coll_zero_byte");

  /* A real nonblocking collective in flight across the zero-byte calls: it
   * must still match its partners. */
  int a = rank + 1, b = 0;
  MPI_Request pending;
  CHECK_MPI(MPI_Iallreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &pending));
  zero_forms(MPI_COMM_WORLD, !check_mode);
  CHECK_MPI(MPI_Wait(&pending, MPI_STATUS_IGNORE));
  CHECK(b == size * (size + 1) / 2);

  /* Again on a duplicate (segment collectives, fresh communicator state). */
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  zero_forms(dup, !check_mode);
  CHECK_MPI(MPI_Comm_free(&dup));

  CHECK(counter("coll_zero_byte") - before == skipped);
  MPI_Finalize();
  return 0;
}
