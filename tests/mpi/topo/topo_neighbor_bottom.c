/* MPI_Neighbor_alltoallw and MPI_Ineighbor_alltoallw with sendbuf and recvbuf
 * MPI_BOTTOM and byte displacements that are absolute addresses (from
 * MPI_Get_address), as mpi4py's neighbourhood tests pass them. MPI_BOTTOM is
 * a null pointer in ringmpi's mpi.h, so the "NULL buffer with a non-zero
 * count" check must look at buffer + displacement, not at the buffer alone.
 * On a periodic ring (MPI_Cart_create, two neighbours, the same one twice on
 * 1 or 2 ranks) and on a distributed graph of two sources and destinations;
 * every received block is checked and the blocks past the end stay untouched.
 * A NULL buffer with a non-zero count at a small displacement is still
 * refused with MPI_ERR_BUFFER. */
#include <stdlib.h>

#include "check.h"

#define N 3

static void exchange(MPI_Comm comm, int nonblocking) {
  int indeg, outdeg, weighted, topo;
  MPI_Topo_test(comm, &topo);
  if (topo == MPI_CART) {
    int nd;
    MPI_Cartdim_get(comm, &nd);
    indeg = outdeg = 2 * nd;
  } else {
    MPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
  }
  int rank;
  MPI_Comm_rank(comm, &rank);
  double* sbuf = malloc(sizeof(double) * (size_t)(outdeg * N));
  double* rbuf = malloc(sizeof(double) * (size_t)((indeg + 1) * N));
  int* scounts = malloc(sizeof(int) * (size_t)outdeg);
  int* rcounts = malloc(sizeof(int) * (size_t)indeg);
  MPI_Aint* sdispls = malloc(sizeof(MPI_Aint) * (size_t)outdeg);
  MPI_Aint* rdispls = malloc(sizeof(MPI_Aint) * (size_t)indeg);
  MPI_Datatype* stypes = malloc(sizeof(MPI_Datatype) * (size_t)outdeg);
  MPI_Datatype* rtypes = malloc(sizeof(MPI_Datatype) * (size_t)indeg);
  MPI_Aint sbase, rbase;
  MPI_Get_address(sbuf, &sbase);
  MPI_Get_address(rbuf, &rbase);
  for (int i = 0; i < outdeg * N; ++i) sbuf[i] = 7.0;
  for (int i = 0; i < (indeg + 1) * N; ++i) rbuf[i] = -1.0;
  for (int i = 0; i < outdeg; ++i) {
    scounts[i] = N;
    sdispls[i] = sbase + (MPI_Aint)(i * N * (int)sizeof(double));
    stypes[i] = MPI_DOUBLE;
  }
  for (int i = 0; i < indeg; ++i) {
    rcounts[i] = N;
    rdispls[i] = rbase + (MPI_Aint)(i * N * (int)sizeof(double));
    rtypes[i] = MPI_DOUBLE;
  }
  if (nonblocking) {
    MPI_Request req;
    CHECK_MPI(MPI_Ineighbor_alltoallw(MPI_BOTTOM, scounts, sdispls, stypes, MPI_BOTTOM, rcounts, rdispls, rtypes,
                                      comm, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  } else {
    CHECK_MPI(MPI_Neighbor_alltoallw(MPI_BOTTOM, scounts, sdispls, stypes, MPI_BOTTOM, rcounts, rdispls, rtypes,
                                     comm));
  }
  for (int i = 0; i < indeg * N; ++i) CHECK(rbuf[i] == 7.0);
  for (int i = indeg * N; i < (indeg + 1) * N; ++i) CHECK(rbuf[i] == -1.0);
  /* Small displacements from a NULL buffer: still an error. */
  if (indeg > 0) {
    for (int i = 0; i < indeg; ++i) rdispls[i] = (MPI_Aint)(i * N * (int)sizeof(double));
    int cls = MPI_SUCCESS;
    MPI_Error_class(
        MPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, NULL, rcounts, rdispls, rtypes, comm), &cls);
    CHECK(cls == MPI_ERR_BUFFER);
  }
  free(sbuf);
  free(rbuf);
  free(scounts);
  free(rcounts);
  free(sdispls);
  free(rdispls);
  free(stypes);
  free(rtypes);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm ring, graph;
  int periods = 1;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periods, 0, &ring));
  const int sources[2] = {(rank + 2 * size - 2) % size, (rank + size - 1) % size};
  const int dests[2] = {(rank + 1) % size, (rank + 2) % size};
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, dests, MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 0, &graph));
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
  for (int nb = 0; nb < 2; ++nb) {
    exchange(ring, nb);
    exchange(graph, nb);
  }
  MPI_Comm_free(&ring);
  MPI_Comm_free(&graph);
  MPI_Finalize();
  return 0;
}
