/* Forced collective algorithms (coll_forced.py): argv[1] picks the case.
 *   barrier_dup  MPI_Barrier on a duplicate of MPI_COMM_WORLD (with
 *                RINGMPI_COLL_BARRIER=world_counter it cannot run: fatal)
 *   iallreduce   MPI_Iallreduce (with RINGMPI_COLL_ALLREDUCE=messages: no
 *                nonblocking form, fatal)
 *   returns      both under MPI_ERRORS_RETURN: MPI_ERR_UNSUPPORTED_OPERATION
 *                on every rank, and the next call (default errhandler) works
 *   report       a few collectives on MPI_COMM_WORLD and a communicator
 *                named "grid" (for mpiexec --coll-report) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* what = argc > 1 ? argv[1] : "";
  int me, v = 1, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (strcmp(what, "barrier_dup") == 0) {
    MPI_Barrier(dup);
  } else if (strcmp(what, "iallreduce") == 0) {
    MPI_Request r;
    MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (strcmp(what, "returns") == 0) {
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int e1 = MPI_Barrier(dup), cls1;
    MPI_Request r;
    int e2 = MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r), cls2;
    MPI_Error_class(e1, &cls1);
    MPI_Error_class(e2, &cls2);
    if (cls1 != MPI_ERR_UNSUPPORTED_OPERATION || cls2 != MPI_ERR_UNSUPPORTED_OPERATION) {
      fprintf(stderr, "rank %d: classes %d %d\n", me, cls1, cls2);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the world barrier's own counter still runs */
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int np;
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (sum != np) MPI_Abort(MPI_COMM_WORLD, 4);
    if (me == 0) printf("returns ok\n");
  } else if (strcmp(what, "report") == 0) {
    MPI_Comm_set_name(dup, "grid");
    for (int i = 0; i < 10; ++i) MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < 3; ++i) MPI_Bcast(&v, 1, MPI_INT, 0, dup);
    MPI_Barrier(dup);
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
