/* One bad group call per run (the case is argv[1]), under the default
 * MPI_ERRORS_ARE_FATAL handler: the job must end with a message naming the
 * rank, the call, the class and the bad argument (group_bad.py). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Group world, g, freed;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_group(MPI_COMM_WORLD, &freed);
  const MPI_Group stale = freed;
  MPI_Group_free(&freed);
  const char *c = argc > 1 ? argv[1] : "";
  int n, r, out[2];
  int rc = MPI_SUCCESS;
  if (!strcmp(c, "null_group_size")) {
    rc = MPI_Group_size(MPI_GROUP_NULL, &n);
  } else if (!strcmp(c, "freed_group")) {
    rc = MPI_Group_rank(stale, &r);
  } else if (!strcmp(c, "incl_out_of_range")) {
    int ranks[2] = {0, size};
    rc = MPI_Group_incl(world, 2, ranks, &g);
  } else if (!strcmp(c, "incl_repeat")) {
    int ranks[3] = {1, 0, 1};
    rc = MPI_Group_incl(world, 3, ranks, &g);
  } else if (!strcmp(c, "excl_negative")) {
    int ranks[1] = {-1};
    rc = MPI_Group_excl(world, 1, ranks, &g);
  } else if (!strcmp(c, "range_zero_stride")) {
    int ranges[1][3] = {{0, 1, 0}};
    rc = MPI_Group_range_incl(world, 1, ranges, &g);
  } else if (!strcmp(c, "range_reaches_out")) {
    int ranges[1][3] = {{0, 4, 2}};
    rc = MPI_Group_range_excl(world, 1, ranges, &g);
  } else if (!strcmp(c, "range_backwards")) {
    int ranges[1][3] = {{2, 0, 1}};
    rc = MPI_Group_range_incl(world, 1, ranges, &g);
  } else if (!strcmp(c, "range_overlap")) {
    int ranges[2][3] = {{0, 3, 1}, {3, 0, -3}};
    rc = MPI_Group_range_incl(world, 2, ranges, &g);
  } else if (!strcmp(c, "translate_bad_rank")) {
    int ranks[1] = {size + 2};
    rc = MPI_Group_translate_ranks(world, 1, ranks, world, out);
  } else if (!strcmp(c, "negative_n")) {
    int ranks[1] = {0};
    rc = MPI_Group_incl(world, -1, ranks, &g);
  } else if (!strcmp(c, "null_newgroup")) {
    rc = MPI_Group_union(world, world, NULL);
  } else if (!strcmp(c, "free_null")) {
    MPI_Group null_group = MPI_GROUP_NULL;
    rc = MPI_Group_free(&null_group);
  } else if (!strcmp(c, "comm_group_null")) {
    rc = MPI_Comm_group(MPI_COMM_NULL, &g);
  } else if (!strcmp(c, "rank1_only")) {
    /* Only rank 1 errs; the others wait for it in a barrier. */
    if (rank == 1) {
      int ranks[1] = {size + 5};
      rc = MPI_Group_incl(world, 1, ranks, &g);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    fprintf(stderr, "unknown case '%s'\n", c);
    return 2;
  }
  printf("rank %d: the bad call returned %d: it was not reported as an error\n", rank, rc);
  MPI_Finalize();
  return 0;
}
