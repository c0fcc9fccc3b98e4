/* MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4.0
 * §7.4.2, §7.6.2) in the World Model: the whole world, concurrent creations
 * over disjoint groups with their own string tags, and an intercommunicator
 * between the even and the odd ranks. */
#include <stdio.h>

#include "check.h"

static int rank, size;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));

  MPI_Comm all;
  CHECK_MPI(MPI_Comm_create_from_group(world, "org.test.all", MPI_INFO_NULL, MPI_ERRORS_RETURN, &all));
  int result, n, me;
  CHECK_MPI(MPI_Comm_compare(all, MPI_COMM_WORLD, &result));
  CHECK(result == MPI_CONGRUENT);
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_get_errhandler(all, &eh));
  CHECK(eh == MPI_ERRORS_RETURN);
  int sum;
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, all));
  CHECK(sum == size * (size - 1) / 2);

  /* Evens and odds, each with its own tag, at the same time. */
  int nmine = 0, mine[64], nother = 0, other[64];
  for (int r = 0; r < size; ++r) {
    if (r % 2 == rank % 2) mine[nmine++] = r;
    else other[nother++] = r;
  }
  MPI_Group g, og;
  CHECK_MPI(MPI_Group_incl(world, nmine, mine, &g));
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_create_from_group(g, rank % 2 ? "odd" : "even", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &half));
  CHECK_MPI(MPI_Comm_size(half, &n));
  CHECK_MPI(MPI_Comm_rank(half, &me));
  CHECK(n == nmine && me == rank / 2);
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half));
  int want = 0;
  for (int i = 0; i < nmine; ++i) want += mine[i];
  CHECK(sum == want);

  /* The same tag again, one after the other: fine. */
  MPI_Comm again;
  CHECK_MPI(MPI_Comm_create_from_group(g, "odd", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &again));
  CHECK_MPI(MPI_Barrier(again));
  CHECK_MPI(MPI_Comm_free(&again));

  if (size >= 2) {
    CHECK_MPI(MPI_Group_incl(world, nother, other, &og));
    MPI_Comm ic;
    CHECK_MPI(MPI_Intercomm_create_from_groups(g, nmine - 1, og, nother - 1, "org.test.inter", MPI_INFO_NULL,
                                               MPI_ERRORS_ARE_FATAL, &ic));
    int inter;
    CHECK_MPI(MPI_Comm_test_inter(ic, &inter));
    CHECK(inter);
    CHECK_MPI(MPI_Comm_remote_size(ic, &n));
    CHECK(n == nother);
    /* Rank 0 of each side sends to rank 0 of the other. */
    if (me == 0) {
      int out = rank, in = -1;
      CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, 0, 1, &in, 1, MPI_INT, 0, 1, ic, MPI_STATUS_IGNORE));
      CHECK(in == (rank % 2 ? 0 : 1));
    }
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(ic, rank % 2, &merged));
    CHECK_MPI(MPI_Comm_size(merged, &n));
    CHECK(n == size);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&ic));
    CHECK_MPI(MPI_Group_free(&og));
  }
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Comm_free(&all));
  CHECK_MPI(MPI_Group_free(&g));
  CHECK_MPI(MPI_Group_free(&world));
  MPI_Finalize();
  return 0;
}
