/* Bad point-to-point input, one case per run (argv[1]); under the default
 * MPI_ERRORS_ARE_FATAL the job must end with a message naming the rank, the
 * call and the argument. The other rank waits in a receive that never
 * completes, so the job only ends if the failing rank takes it down. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int grq_query(void *extra, MPI_Status *st) {
  (void)extra;
  MPI_Status_set_cancelled(st, 0);
  return MPI_SUCCESS;
}
static int grq_free(void *extra) { return extra ? MPI_ERR_OTHER : MPI_SUCCESS; }
static int grq_cancel(void *extra, int complete) { return extra && complete ? MPI_ERR_OTHER : MPI_SUCCESS; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *c = argc > 1 ? argv[1] : "";
  int ten[10] = {0}, two[2], v = 1;
  MPI_Request r;
  MPI_Status st;
  if (rank == 0) {
    if (!strcmp(c, "truncate") || !strcmp(c, "truncate_wait") || !strcmp(c, "truncate_waitall") ||
        !strcmp(c, "truncate_large"))
      MPI_Send(ten, 10, MPI_INT, 1, 5, MPI_COMM_WORLD);
    if (!strcmp(c, "truncate_large")) {
      static char big[1 << 20];
      MPI_Send(big, sizeof big, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
    }
    int dummy;
    MPI_Recv(&dummy, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
  } else if (rank == 1) {
    if (!strcmp(c, "truncate")) MPI_Recv(two, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
    if (!strcmp(c, "truncate_wait")) {
      MPI_Irecv(two, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, &st);
    }
    if (!strcmp(c, "truncate_waitall")) {
      MPI_Request rs[2];
      MPI_Status sts[2];
      MPI_Irecv(two, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &rs[0]);
      MPI_Isend(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &rs[1]);
      MPI_Waitall(2, rs, sts);
    }
    if (!strcmp(c, "truncate_large")) {
      static char half[1 << 19];
      MPI_Recv(ten, 10, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
      MPI_Recv(half, sizeof half, MPI_BYTE, 0, 6, MPI_COMM_WORLD, &st);
    }
    if (!strcmp(c, "bad_dest")) MPI_Send(&v, 1, MPI_INT, 5, 0, MPI_COMM_WORLD);
    if (!strcmp(c, "bad_source")) MPI_Recv(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &st);
    if (!strcmp(c, "bad_tag")) MPI_Send(&v, 1, MPI_INT, 0, -1, MPI_COMM_WORLD);
    if (!strcmp(c, "bad_recv_tag")) MPI_Irecv(&v, 1, MPI_INT, 0, -4, MPI_COMM_WORLD, &r);
    if (!strcmp(c, "neg_count")) MPI_Isend(&v, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
    if (!strcmp(c, "null_buffer")) MPI_Send(NULL, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    if (!strcmp(c, "null_type")) MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    if (!strcmp(c, "garbage_request")) {
      r = (MPI_Request)0x5eed;
      MPI_Wait(&r, &st);
    }
    if (!strcmp(c, "stale_request")) { /* a receive request used after MPI_Wait released it */
      MPI_Irecv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
      MPI_Request copy = r;
      MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
      MPI_Wait(&r, &st);
      MPI_Test(&copy, &v, &st);
    }
    if (!strcmp(c, "start_active")) {
      MPI_Recv_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
      MPI_Start(&r);
      MPI_Start(&r);
    }
    if (!strcmp(c, "grequest_twice")) { /* MPI_Grequest_complete called twice (MPI-3.1 §12.2) */
      MPI_Grequest_start(grq_query, grq_free, grq_cancel, NULL, &r);
      MPI_Grequest_complete(r);
      MPI_Grequest_complete(r);
    }
    if (!strcmp(c, "bsend_no_buffer")) MPI_Bsend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    printf("case %s was not reported as an error\n", c);
    fflush(stdout);
    int dummy;
    MPI_Recv(&dummy, 1, MPI_INT, 0, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
