/* Bad input to the group calls under MPI_ERRORS_RETURN: each returns the
 * standard error class (MPI_ERR_GROUP for null, freed or foreign handles,
 * MPI_ERR_RANK for ranks outside the group or named twice, MPI_ERR_ARG for
 * negative counts, zero or backward strides and NULL pointers) and the
 * library keeps working. The calls are local: every rank checks them all. */
#include <stdio.h>

#include "check.h"

static int failures = 0;

static void expect_class(int code, int cls, const char *what) {
  int got = -1;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &got);
  if (code == MPI_SUCCESS || got != cls) {
    fprintf(stderr, "%s: returned code %d class %d, want class %d\n", what, code, got, cls);
    ++failures;
  }
}

#define EXPECT(call, cls) expect_class((call), (cls), #call)

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int size;
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  MPI_Group world, freed, g = MPI_GROUP_NULL;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &freed));
  const MPI_Group stale = freed;
  CHECK_MPI(MPI_Group_free(&freed));
  int n, r, res, in[4] = {0, 0, 0, 0}, out[4];

  /* Handles. */
  EXPECT(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
  EXPECT(MPI_Group_size(stale, &n), MPI_ERR_GROUP);
  EXPECT(MPI_Group_size((MPI_Group)MPI_COMM_WORLD, &n), MPI_ERR_GROUP);
  EXPECT(MPI_Group_rank(stale, &r), MPI_ERR_GROUP);
  EXPECT(MPI_Group_compare(world, MPI_GROUP_NULL, &res), MPI_ERR_GROUP);
  EXPECT(MPI_Group_translate_ranks(stale, 1, in, world, out), MPI_ERR_GROUP);
  EXPECT(MPI_Group_union(world, stale, &g), MPI_ERR_GROUP);
  EXPECT(MPI_Group_intersection(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP);
  EXPECT(MPI_Group_difference(world, 12345, &g), MPI_ERR_GROUP);
  EXPECT(MPI_Group_incl(stale, 1, in, &g), MPI_ERR_GROUP);
  MPI_Group null_group = MPI_GROUP_NULL, again = stale;
  EXPECT(MPI_Group_free(&null_group), MPI_ERR_GROUP);
  EXPECT(MPI_Group_free(&again), MPI_ERR_GROUP);
  EXPECT(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);

  /* NULL output pointers and negative counts. */
  EXPECT(MPI_Group_size(world, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_rank(world, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_compare(world, world, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_union(world, world, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_free(NULL), MPI_ERR_ARG);
  EXPECT(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_translate_ranks(world, -1, in, world, out), MPI_ERR_ARG);
  EXPECT(MPI_Group_translate_ranks(world, 1, in, world, NULL), MPI_ERR_ARG);
  EXPECT(MPI_Group_incl(world, -2, in, &g), MPI_ERR_ARG);
  EXPECT(MPI_Group_excl(world, 1, NULL, &g), MPI_ERR_ARG);
  EXPECT(MPI_Group_range_incl(world, -1, NULL, &g), MPI_ERR_ARG);

  /* Ranks. */
  int bad_rank[1] = {size}, neg_rank[1] = {-7}, twice[2] = {0, 0};
  EXPECT(MPI_Group_translate_ranks(world, 1, bad_rank, world, out), MPI_ERR_RANK);
  EXPECT(MPI_Group_translate_ranks(world, 1, neg_rank, world, out), MPI_ERR_RANK);
  EXPECT(MPI_Group_incl(world, 1, bad_rank, &g), MPI_ERR_RANK);
  EXPECT(MPI_Group_incl(world, 2, twice, &g), MPI_ERR_RANK);
  EXPECT(MPI_Group_excl(world, 1, neg_rank, &g), MPI_ERR_RANK);
  EXPECT(MPI_Group_excl(world, 2, twice, &g), MPI_ERR_RANK);
  EXPECT(MPI_Group_incl(MPI_GROUP_EMPTY, 1, in, &g), MPI_ERR_RANK);

  /* Range triples. */
  int zero_stride[1][3] = {{0, size - 1, 0}};
  int first_out[1][3] = {{size, size, 1}};
  int reaches_out[1][3] = {{0, size, 1}};
  int backwards[1][3] = {{size - 1, 0, 1}};
  int overlap[2][3] = {{0, size - 1, 1}, {0, 0, 1}};
  EXPECT(MPI_Group_range_incl(world, 1, zero_stride, &g), MPI_ERR_ARG);
  EXPECT(MPI_Group_range_incl(world, 1, first_out, &g), MPI_ERR_RANK);
  EXPECT(MPI_Group_range_excl(world, 1, reaches_out, &g), MPI_ERR_RANK);
  if (size > 1) EXPECT(MPI_Group_range_incl(world, 1, backwards, &g), MPI_ERR_ARG);
  EXPECT(MPI_Group_range_excl(world, 2, overlap, &g), MPI_ERR_RANK);
  CHECK(g == MPI_GROUP_NULL); /* no call above produced a group */

  /* Still working. */
  CHECK_MPI(MPI_Group_size(world, &n));
  CHECK(n == size);
  CHECK_MPI(MPI_Group_free(&world));
  CHECK(failures == 0);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
