/* Bad input to the collectives, blocking and nonblocking, intra and inter.
 * `coll_bad CASE` does one wrong thing under MPI_ERRORS_ARE_FATAL (the job
 * must end with a message naming rank, call, class and argument);
 * `coll_bad returns` runs the cases under MPI_ERRORS_RETURN on every rank
 * (each case is wrong on every rank, so nobody waits) and checks the codes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../expect.h"

static int rank, size;


static MPI_Comm inter(void) {
  MPI_Comm half, ic;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 9, &ic);
  MPI_Comm_free(&half);
  return ic; /* inherits WORLD's error handler */
}

static int run(const char *name, int returns) {
  int x = 1, y = 0, counts[64] = {0}, displs[64] = {0};
  MPI_Request r = MPI_REQUEST_NULL;
  if (!strcmp(name, "ibcast_root")) return MPI_Ibcast(&x, 1, MPI_INT, size + 3, MPI_COMM_WORLD, &r);
  if (!strcmp(name, "ireduce_op")) return MPI_Ireduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD, &r);
  if (!strcmp(name, "iallreduce_null_request"))
    return MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL);
  if (!strcmp(name, "igather_count")) return MPI_Igather(&x, -2, MPI_INT, &y, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
  if (!strcmp(name, "allgather_recv_in_place"))
    return MPI_Allgather(&x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD);
  if (!strcmp(name, "allreduce_alias")) return MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!strcmp(name, "allreduce_counts")) { /* erroneous, detected only as an oversized message */
    double a[2] = {0, 0}, b[2];
    return MPI_Allreduce(a, b, rank ? 1 : 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (!strcmp(name, "iscatterv_counts")) {
    for (int i = 0; i < size; ++i) counts[i] = i == size - 1 ? -1 : 1;
    /* The others receive one int each (a receiver of nothing would complete at once). */
    int e = MPI_Iscatterv(&x, counts, displs, MPI_INT, &y, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    if (e == MPI_SUCCESS) MPI_Wait(&r, MPI_STATUS_IGNORE); /* never completes: the root failed */
    return e;
  }
  if (!strcmp(name, "alltoallw_type")) {
    MPI_Datatype t[64];
    for (int i = 0; i < size; ++i) t[i] = i == 0 ? MPI_DATATYPE_NULL : MPI_INT, counts[i] = 1, displs[i] = 0;
    return MPI_Alltoallw(&x, counts, displs, t, &y, counts, displs, t, MPI_COMM_WORLD);
  }
  if (!strcmp(name, "inter_root") || !strcmp(name, "inter_in_place") || !strcmp(name, "inter_scan")) {
    MPI_Comm ic = inter();
    int e;
    if (!strcmp(name, "inter_root"))
      e = MPI_Ibcast(&x, 1, MPI_INT, rank % 2 ? -9 : 99, ic, &r);  /* neither MPI_ROOT, PROC_NULL nor a remote rank */
    else if (!strcmp(name, "inter_in_place"))
      e = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, ic);
    else
      e = MPI_Iscan(&x, &y, 1, MPI_INT, MPI_SUM, ic, &r);
    MPI_Comm_free(&ic);
    return e;
  }
  if (!strcmp(name, "free_active")) {
    /* Rank 0 frees its request before the others have even started: they
     * wait for its word (point-to-point, so that every rank still calls the
     * collectives of WORLD in the same order, as MPI-3.1 5.12 requires).
     * With the fatal handler the word never comes: rank 0 ends the job in
     * MPI_Request_free, and the others cannot finish first and report the
     * case as not detected. */
    int e = MPI_SUCCESS, go = 0;
    if (rank == 0) {
      MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
      e = MPI_Request_free(&r);
      if (returns) {
        for (int i = 1; i < size; ++i) MPI_Send(&go, 1, MPI_INT, i, 77, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
    } else {
      MPI_Recv(&go, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      e = MPI_ERR_REQUEST; /* only rank 0 errs */
    }
    return e;
  }
  fprintf(stderr, "coll_bad: unknown case %s\n", name);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  if (strcmp(argv[1], "returns") != 0) {
    run(argv[1], 0);
    /* allreduce_counts is detected only by the rank with the smaller count
     * (an oversized message); the rank that passed the larger count may
     * return first and must not end the job before that rank has run. If
     * nobody detects it, the barrier completes and the abort below says so. */
    if (!strcmp(argv[1], "allreduce_counts")) MPI_Barrier(MPI_COMM_WORLD);
    fprintf(stderr, "rank %d: case %s was not reported as an error\n", rank, argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT(run("ibcast_root", 1), MPI_ERR_ROOT);
  EXPECT(run("ireduce_op", 1), MPI_ERR_OP);
  EXPECT(run("iallreduce_null_request", 1), MPI_ERR_ARG);
  EXPECT(run("igather_count", 1), MPI_ERR_COUNT);
  EXPECT(run("allgather_recv_in_place", 1), MPI_ERR_BUFFER);
  EXPECT(run("allreduce_alias", 1), MPI_ERR_BUFFER);
  EXPECT(run("alltoallw_type", 1), MPI_ERR_TYPE);
  if (size >= 2) {
    EXPECT(run("inter_root", 1), MPI_ERR_ROOT);
    EXPECT(run("inter_in_place", 1), MPI_ERR_BUFFER);
    EXPECT(run("inter_scan", 1), MPI_ERR_COMM);
    EXPECT(run("free_active", 1), MPI_ERR_REQUEST);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("coll_bad: all error codes as expected\n");
  MPI_Finalize();
  return 0;
}
