// The collectives' argument checks and starts as functions, for the entry
// points that are not in coll.cpp and neighbor.cpp (the persistent
// collectives of MPI-4.0 §6.12 and §8.8, coll_persist.cpp). Each is the body
// of the MPI_I* form: it checks its arguments (failing through `call`),
// then starts the nonblocking operation and sets *req, which must not be
// null. Scan: `exclusive` selects MPI_Exscan.
#pragma once

#include <memory>
#include <vector>

#include "api/call.hpp"
#include "api/large_count.hpp"
#include "coll/scheduled.hpp"
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

// ---- the large-count (_c) forms (docs/design/large-counts.md), shared by
// the nonblocking and blocking _c calls and the persistent _init_c ones ----

// The uniform forms: sendcount and recvcount of a _c call as the int form
// takes them (Counted::set: a count beyond the limit is one element of a
// contiguous type, whose handle *s or *r holds; a persistent request takes
// its own handle on it). Only the sides significant on this rank are
// converted, the others go on as 0 elements of the caller's type. The
// limit is INT_MAX / group size where the int form builds the uniform
// displacements i * count as ints (gather's and scatter's root side,
// allgather's receive side, both sides of alltoall), else INT_MAX.
// root: gather and scatter only.
enum class Uniform { gather, scatter, allgather, alltoall, neighbor };
int uniform_c(Call& call, Uniform kind, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              const void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Counted* s,
              Counted* r);

// The v and w forms (coll.cpp): every _c call runs as one all-to-all-w
// schedule of this rank's per-peer blocks. gatherv_c ... check the
// arguments and describe the blocks once, a block beyond INT_MAX elements
// being one element of a contiguous type built then; `kept` holds those
// and the caller's derived types for as long as the object lives (a
// persistent request's, from _init to MPI_Request_free). exchange() runs
// the blocks: at once (req null) or started (*req).
struct WideExchange {
  MPI_Comm comm = MPI_COMM_NULL;
  const void* sendbuf = nullptr;
  void* recvbuf = nullptr;
  std::vector<coll::Block> sends, recvs;
  bool in_place = false;
  std::vector<std::shared_ptr<const void>> kept;
};
int gatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
              WideExchange* x);
int scatterv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
               MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm, WideExchange* x);
int allgatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                 WideExchange* x);
int alltoallv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                MPI_Datatype recvtype, MPI_Comm comm, WideExchange* x);
int alltoallw_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, WideExchange* x);
int exchange(Call& call, const WideExchange& x, MPI_Request* req);

// The reductions' _c bodies (coll.cpp): beyond INT_MAX elements, a
// predefined op reduces one element of a contiguous type; a user op (or an
// op handle that is not valid: reported then), and every reduce-scatter
// whose counts sum beyond INT_MAX that is nonblocking or in place, run as
// one schedule of reductions of 2^30 elements each (reduces_in_pieces(op)
// says which). Blocking (req null) or started.
int reduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, MPI_Request* req);
int allreduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* req);
int scan_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, bool exclusive, MPI_Request* req);
int reduce_scatter_c(Call& call, const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req);
int reduce_scatter_block_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req);
bool reduces_in_pieces(MPI_Op op);

// The neighbourhood v and w forms with MPI_Count counts and MPI_Aint
// displacements (neighbor.cpp): the exchange of the int forms, a block
// beyond INT_MAX elements moving as one element of a contiguous type that
// the running operation keeps.
int neighbor_allgatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request* req);
int neighbor_alltoallv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req);
int neighbor_alltoallw_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req);

}  // namespace ringmpi::api::forms
