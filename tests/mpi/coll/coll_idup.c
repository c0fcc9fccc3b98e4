/* MPI_Comm_idup: four duplicates pending at once on one communicator, with a
 * blocking MPI_Comm_dup and an MPI_Iallreduce on the same parent in between
 * (in the same order on every rank, as the standard requires), completed in
 * reverse order; each duplicate is congruent with its parent and carries
 * traffic of its own. Then the idup of an intercommunicator, and idups of
 * two overlapping communicators started in opposite orders on the ranks
 * they share (collectives on different communicators are not ordered
 * among themselves, so this is a valid program). */
#include "check.h"

#define K 4

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  for (int rep = 0; rep < 3; ++rep) {
    MPI_Comm dups[K], plain;
    MPI_Request req[K + 1];
    int one = 1, total = 0;
    for (int k = 0; k < K; ++k) {
      CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &dups[k], &req[k]));
      if (k == 1) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &plain));
      if (k == 2) CHECK_MPI(MPI_Iallreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[K]));
    }
    CHECK_MPI(MPI_Wait(&req[K], MPI_STATUS_IGNORE));
    CHECK(total == size);
    for (int k = K - 1; k >= 0; --k) CHECK_MPI(MPI_Wait(&req[k], MPI_STATUS_IGNORE));
    for (int k = 0; k < K; ++k) {
      CHECK(dups[k] != MPI_COMM_NULL);
      int res;
      CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dups[k], &res));
      CHECK(res == MPI_CONGRUENT);
      for (int j = 0; j < k; ++j) CHECK(dups[j] != dups[k]);
      /* Traffic on each: a message to the right neighbour, with the dup's index as tag. */
      int got = -1, mine = rank * 10 + k;
      CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, k, &got, 1, MPI_INT, (rank - 1 + size) % size,
                             k, dups[k], MPI_STATUS_IGNORE));
      CHECK(got == ((rank - 1 + size) % size) * 10 + k);
      int sum = 0;
      CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, dups[k]));
      CHECK(sum == 10 * size * (size - 1) / 2 + k * size);
    }
    for (int k = 0; k < K; ++k) CHECK_MPI(MPI_Comm_free(&dups[k]));
    CHECK_MPI(MPI_Comm_free(&plain));
  }

  if (size >= 2) {
    MPI_Comm local, ic, icdup;
    const int g = rank % 2;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g, rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, g == 0 ? 1 : 0, 7, &ic));
    MPI_Request r;
    CHECK_MPI(MPI_Comm_idup(ic, &icdup, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    int flag, rs, rs2;
    CHECK_MPI(MPI_Comm_test_inter(icdup, &flag));
    CHECK(flag);
    MPI_Comm_remote_size(ic, &rs);
    MPI_Comm_remote_size(icdup, &rs2);
    CHECK(rs == rs2);
    int v = rank, sum = -1, want = 0;
    for (int i = 0; i < size; ++i)
      if (i % 2 != g) want += i;
    CHECK_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, icdup));
    CHECK(sum == want);
    MPI_Comm_free(&icdup);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
  }
  /* Rank r belongs to ring[r] = {r, r+1} and ring[r-1] = {r-1, r}: it
   * duplicates its own pair first, then the lower one, so each pair's two
   * members start their idups in opposite orders. */
  if (size >= 2) {
    MPI_Comm mine = MPI_COMM_NULL, lower = MPI_COMM_NULL, d[2];
    for (int i = 0; i < size; ++i) {
      const int in = rank == i || rank == (i + 1) % size;
      MPI_Comm c;
      CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank == i ? 0 : 1, &c));
      if (rank == i)
        mine = c;
      else if (in)
        lower = c;
    }
    MPI_Request r[2];
    CHECK_MPI(MPI_Comm_idup(mine, &d[0], &r[0]));
    CHECK_MPI(MPI_Comm_idup(lower, &d[1], &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    /* The same opposite orders for the traffic, hence nonblocking. */
    int v = rank, sum[2] = {-1, -1};
    for (int j = 0; j < 2; ++j) CHECK_MPI(MPI_Iallreduce(&v, &sum[j], 1, MPI_INT, MPI_SUM, d[j], &r[j]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    CHECK(sum[0] == rank + (rank + 1) % size);
    CHECK(sum[1] == rank + (rank + size - 1) % size);
    for (int j = 0; j < 2; ++j) MPI_Comm_free(&d[j]);
    MPI_Comm_free(&mine);
    MPI_Comm_free(&lower);
  }
  /* Not spawned: no parent. */
  MPI_Comm parent = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent == MPI_COMM_NULL);
  MPI_Finalize();
  return 0;
}
