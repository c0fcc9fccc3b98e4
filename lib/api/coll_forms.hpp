// The collectives' argument checks and starts as functions, for the entry
// points that are not in coll.cpp and neighbor.cpp (the persistent
// collectives of MPI-4.0 §6.12 and §8.8, coll_persist.cpp). Each is the body
// of the MPI_I* form: it checks its arguments (failing through `call`),
// then starts the nonblocking operation and sets *req, which must not be
// null. Scan: `exclusive` selects MPI_Exscan.
#pragma once

#include "api/call.hpp"
#include "mpi.h"

namespace ringmpi::api::forms {

int barrier(Call& call, MPI_Comm comm, MPI_Request* req);
int bcast(Call& call, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* req);
int gather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req);
int gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
            MPI_Request* req);
int scatter(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req);
int scatterv(Call& call, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req);
int allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int alltoallv(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request* req);
int alltoallw(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req);
int reduce(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, MPI_Request* req);
int allreduce(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* req);
int reduce_scatter(Call& call, const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request* req);
int reduce_scatter_block(Call& call, const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request* req);
int scan(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         bool exclusive, MPI_Request* req);

// Neighbourhood collectives (neighbor.cpp).
int neighbor_allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int neighbor_allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request* req);
int neighbor_alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int neighbor_alltoallv(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int neighbor_alltoallw(Call& call, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req);

}  // namespace ringmpi::api::forms
