/* Bad input to the communicator calls. `comm_bad CASE` does one wrong thing
 * under the default MPI_ERRORS_ARE_FATAL (the job must end with a message
 * naming the call, the error class and the argument); `comm_bad returns`
 * runs every case under MPI_ERRORS_RETURN and checks the codes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

static int rank, size;


/* Each case returns the code of its one wrong call (or aborts when it
 * should not have got there). */
static int run(const char *name) {
  MPI_Comm c = MPI_COMM_NULL, self_copy;
  int x;
  MPI_Group wg, g;
  if (!strcmp(name, "free_world")) {
    c = MPI_COMM_WORLD;
    return MPI_Comm_free(&c);
  }
  if (!strcmp(name, "free_self")) {
    c = MPI_COMM_SELF;
    return MPI_Comm_free(&c);
  }
  if (!strcmp(name, "null_comm")) return MPI_Comm_size(MPI_COMM_NULL, &x);
  if (!strcmp(name, "freed_comm")) {
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    self_copy = c;
    MPI_Comm_free(&c);
    return MPI_Comm_rank(self_copy, &x);
  }
  if (!strcmp(name, "garbage_comm")) return MPI_Comm_dup((MPI_Comm)12345, &c);
  if (!strcmp(name, "remote_size_intra")) return MPI_Comm_remote_size(MPI_COMM_WORLD, &x);
  if (!strcmp(name, "merge_intra")) return MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c);
  if (!strcmp(name, "bad_local_leader")) return MPI_Intercomm_create(MPI_COMM_SELF, 5, MPI_COMM_WORLD, 0, 1, &c);
  if (!strcmp(name, "bad_remote_leader"))
    return MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 99, 1, &c);
  if (!strcmp(name, "remote_leader_is_local"))
    return MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, rank, 1, &c);
  if (!strcmp(name, "bad_color")) return MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? -5 : 0, 0, &c);
  if (!strcmp(name, "bad_split_type"))
    return MPI_Comm_split_type(MPI_COMM_WORLD, rank == 0 ? 99 : MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
  if (!strcmp(name, "not_subset")) {
    /* Another rank's group given to MPI_COMM_SELF: not a subset of it. */
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int r = (rank + 1) % size;
    MPI_Group_incl(wg, 1, &r, &g);
    return MPI_Comm_create(MPI_COMM_SELF, g, &c);
  }
  if (!strcmp(name, "create_group_inter")) {
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 3, &ic);
    MPI_Comm_group(half, &g);
    return MPI_Comm_create_group(ic, g, 0, &c);
  }
  if (!strcmp(name, "inconsistent_groups")) {
    /* MPI-2.2 Comm_create: rank 0 passes {0,1}, rank 1 passes {1}. */
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int both[2] = {0, 1}, one = 1;
    if (rank == 0) MPI_Group_incl(wg, 2, both, &g);
    else if (rank == 1) MPI_Group_incl(wg, 1, &one, &g);
    else g = MPI_GROUP_EMPTY;
    return MPI_Comm_create(MPI_COMM_WORLD, g, &c);
  }
  if (!strcmp(name, "null_group")) return MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c);
  if (!strcmp(name, "bad_tag")) return MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, (rank + 1) % size, -3, &c);
  fprintf(stderr, "comm_bad: unknown case %s\n", name);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  if (strcmp(argv[1], "returns") != 0) {
    run(argv[1]);
    fprintf(stderr, "rank %d: case %s was not reported as an error\n", rank, argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  EXPECT(run("free_world"), MPI_ERR_COMM);
  EXPECT(run("free_self"), MPI_ERR_COMM);
  EXPECT(run("null_comm"), MPI_ERR_COMM);
  EXPECT(run("freed_comm"), MPI_ERR_COMM);
  EXPECT(run("garbage_comm"), MPI_ERR_COMM);
  EXPECT(run("remote_size_intra"), MPI_ERR_COMM);
  EXPECT(run("merge_intra"), MPI_ERR_COMM);
  EXPECT(run("bad_local_leader"), MPI_ERR_RANK);
  EXPECT(run("bad_remote_leader"), MPI_ERR_RANK);
  EXPECT(run("remote_leader_is_local"), MPI_ERR_RANK);
  /* One rank's bad argument fails the collective call on every rank, so
   * nobody is left waiting. */
  EXPECT(run("bad_color"), MPI_ERR_ARG);
  EXPECT(run("bad_split_type"), MPI_ERR_ARG);
  if (size >= 2) EXPECT(run("inconsistent_groups"), MPI_ERR_GROUP);
  EXPECT(run("null_group"), MPI_ERR_GROUP);
  if (size > 1) EXPECT(run("not_subset"), MPI_ERR_GROUP);
  if (size >= 2) EXPECT(run("create_group_inter"), MPI_ERR_COMM);
  if (size >= 2) EXPECT(run("bad_tag"), MPI_ERR_TAG);
  if (size >= 4) {
    /* A bad local_leader on one rank of group "evens": both groups fail, the
     * odds because the evens' leader tells theirs. */
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    EXPECT(MPI_Intercomm_create(half, rank == 2 ? 7 : 0, MPI_COMM_WORLD, 1 - rank % 2, 11, &ic), MPI_ERR_RANK);
    if (ic != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, 7);
    /* Both groups still work together afterwards. */
    if (MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 12, &ic) != MPI_SUCCESS ||
        MPI_Barrier(ic) != MPI_SUCCESS || MPI_Comm_free(&ic) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 8);
    MPI_Comm_free(&half);
  }
  /* Still usable afterwards. */
  MPI_Comm d;
  if (MPI_Comm_dup(MPI_COMM_WORLD, &d) != MPI_SUCCESS || MPI_Barrier(d) != MPI_SUCCESS ||
      MPI_Comm_free(&d) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 6);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("comm_bad: all error codes as expected\n");
  MPI_Finalize();
  return 0;
}
