/* Bad input to partitioned communication and persistent collectives, one
 * case per run (argv[1]); under MPI_ERRORS_ARE_FATAL rank 1's error must end
 * the job with one line naming the rank, the call and the argument, while
 * rank 0 waits in a receive nobody matches. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *c = argc > 1 ? argv[1] : "";
  int buf[8] = {0};
  MPI_Request r;
  if (rank == 1) {
    if (!strcmp(c, "pready_inactive")) {
      MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      MPI_Pready(0, r);
    }
    if (!strcmp(c, "pready_range")) {
      MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      MPI_Start(&r);
      MPI_Pready(5, r);
    }
    if (!strcmp(c, "pready_twice")) {
      MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      MPI_Start(&r);
      MPI_Pready(1, r);
      MPI_Pready(1, r);
    }
    if (!strcmp(c, "precv_any_source"))
      MPI_Precv_init(buf, 4, 2, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    if (!strcmp(c, "parrived_send")) {
      int flag;
      MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      MPI_Parrived(r, 0, &flag);
    }
    if (!strcmp(c, "bcast_init_root")) MPI_Bcast_init(buf, 1, MPI_INT, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    if (!strcmp(c, "start_active_coll")) {
      MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r);
      MPI_Start(&r);
      MPI_Start(&r);
    }
    printf("case %s was not reported as an error\n", c);
    fflush(stdout);
  }
  int dummy;
  MPI_Recv(&dummy, 1, MPI_INT, 1 - rank, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
  MPI_Finalize();
  return 0;
}
