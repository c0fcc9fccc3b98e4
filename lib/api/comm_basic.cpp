// MPI_Comm_size, MPI_Comm_rank and MPI_Barrier.
#include "api/call.hpp"
#include "coll/barrier.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

extern "C" {

int MPI_Comm_size(MPI_Comm comm, int* size) {
  Call call("MPI_Comm_size");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = c->size();
  return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  Call call("MPI_Comm_rank");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(rank, "rank")) return e;
  *rank = c->rank;
  return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm comm) {
  Call call("MPI_Barrier");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (comm == MPI_COMM_WORLD) {
    coll::barrier_world();
    return MPI_SUCCESS;
  }
  if (!c->inter && c->size() == 1) return MPI_SUCCESS;
  return call.fail(MPI_ERR_UNSUPPORTED_OPERATION,
                   "MPI_Barrier is implemented only on MPI_COMM_WORLD and single-rank communicators so far");
}

}  // extern "C"
