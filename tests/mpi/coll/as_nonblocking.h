/* Included (with -include) into a blocking collective test, this reroutes
 * every blocking collective through its nonblocking form and MPI_Wait (or,
 * on odd ranks, an MPI_Test loop), so one test checks both families against
 * the same expected values. */
#ifndef RINGMPI_AS_NONBLOCKING_H
#define RINGMPI_AS_NONBLOCKING_H
#include <mpi.h>

static inline int nb_complete(int err, MPI_Request *req) {
  if (err != MPI_SUCCESS) return err;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2 == 0) return MPI_Wait(req, MPI_STATUS_IGNORE);
  int flag = 0;
  while (!flag) {
    err = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    if (err != MPI_SUCCESS) return err;
  }
  return req == NULL || *req == MPI_REQUEST_NULL ? MPI_SUCCESS : MPI_ERR_REQUEST;
}

#define RINGMPI_NB(call, ...) \
  ({ MPI_Request nb_req_; nb_complete(call(__VA_ARGS__, &nb_req_), &nb_req_); })

#define MPI_Barrier(...) RINGMPI_NB(MPI_Ibarrier, __VA_ARGS__)
#define MPI_Bcast(...) RINGMPI_NB(MPI_Ibcast, __VA_ARGS__)
#define MPI_Gather(...) RINGMPI_NB(MPI_Igather, __VA_ARGS__)
#define MPI_Gatherv(...) RINGMPI_NB(MPI_Igatherv, __VA_ARGS__)
#define MPI_Scatter(...) RINGMPI_NB(MPI_Iscatter, __VA_ARGS__)
#define MPI_Scatterv(...) RINGMPI_NB(MPI_Iscatterv, __VA_ARGS__)
#define MPI_Allgather(...) RINGMPI_NB(MPI_Iallgather, __VA_ARGS__)
#define MPI_Allgatherv(...) RINGMPI_NB(MPI_Iallgatherv, __VA_ARGS__)
#define MPI_Alltoall(...) RINGMPI_NB(MPI_Ialltoall, __VA_ARGS__)
#define MPI_Alltoallv(...) RINGMPI_NB(MPI_Ialltoallv, __VA_ARGS__)
#define MPI_Alltoallw(...) RINGMPI_NB(MPI_Ialltoallw, __VA_ARGS__)
#define MPI_Reduce(...) RINGMPI_NB(MPI_Ireduce, __VA_ARGS__)
#define MPI_Allreduce(...) RINGMPI_NB(MPI_Iallreduce, __VA_ARGS__)
#define MPI_Reduce_scatter(...) RINGMPI_NB(MPI_Ireduce_scatter, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) RINGMPI_NB(MPI_Ireduce_scatter_block, __VA_ARGS__)
#define MPI_Scan(...) RINGMPI_NB(MPI_Iscan, __VA_ARGS__)
#define MPI_Exscan(...) RINGMPI_NB(MPI_Iexscan, __VA_ARGS__)
#endif
