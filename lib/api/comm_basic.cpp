// Local communicator queries: size, rank, compare, names, intercommunicator
// accessors, Fortran handle conversion; and MPI_Barrier.
#include <cstring>

#include "api/call.hpp"
#include "comm/dynamic.hpp"
#include "api/coll_check.hpp"
#include "coll/barrier.hpp"
#include "comm/create.hpp"
#include "group/group.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int need_inter(Call& call, MPI_Comm h, const comm::Comm* c, const char* arg) {
  if (!c->inter)
    return call.fail(MPI_ERR_COMM, "argument %s (%s) is an intracommunicator; this call needs an intercommunicator",
                     arg, api::describe_comm(h).c_str());
  return MPI_SUCCESS;
}

}  // namespace

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
  Call::note_args(core::Runtime::CallArgs::Kind::coll, -1, 0, 0, comm, MPI_DATATYPE_NULL);
  api::agree(call, *c, comm, {}, nullptr);
  std::string why;
  if (int e = coll::barrier(comm, *c, &why)) return call.fail(e, "%s", why.c_str());
  return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  Call call("MPI_Comm_compare");
  comm::Comm *a, *b;
  if (int e = call.comm(comm1, "comm1", &a)) return e;
  if (int e = call.comm(comm2, "comm2", &b)) return e;
  if (int e = call.not_null(result, "result")) return e;
  *result = comm::compare(*a, *b);
  return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  Call call("MPI_Comm_test_inter");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = c->inter ? 1 : 0;
  return MPI_SUCCESS;
}

// A spawned process's intercommunicator to its parents (comm/dynamic.hpp);
// MPI_COMM_NULL for a process mpiexec started, and once the parent
// intercommunicator is freed or disconnected (MPI-4.1 §11.3.2).
int MPI_Comm_get_parent(MPI_Comm* parent) {
  Call call("MPI_Comm_get_parent");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(parent, "parent")) return e;
  *parent = comm::parent();
  return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  Call call("MPI_Comm_remote_size");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = need_inter(call, comm, c, "comm")) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = c->remote_size();
  return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  Call call("MPI_Comm_remote_group");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = need_inter(call, comm, c, "comm")) return e;
  if (int e = call.not_null(group, "group")) return e;
  const MPI_Group g = group::new_handle(c->remote);
  if (g == MPI_GROUP_NULL) return call.fail(MPI_ERR_INTERN, "the group table is full (2^20 live groups)");
  *group = g;
  return MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  Call call("MPI_Comm_set_name");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(comm_name, "comm_name")) return e;
  // Longer names are truncated to what MPI_Comm_get_name can return.
  c->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  Call call("MPI_Comm_get_name");
  if (int e = call.not_null(comm_name, "comm_name")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  // MPI-4.1 (annex B.1.2, item 18): the null handle is a valid argument and its name is its own.
  if (comm == MPI_COMM_NULL) return api::null_name(comm_name, resultlen, "MPI_COMM_NULL");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  std::memcpy(comm_name, c->name.c_str(), c->name.size() + 1);
  *resultlen = static_cast<int>(c->name.size());
  return MPI_SUCCESS;
}

// Handles are ints already; MPI_Comm_f2c of garbage gives a handle every call
// rejects, as the standard allows.
MPI_Fint MPI_Comm_c2f(MPI_Comm comm) { return static_cast<MPI_Fint>(comm); }
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) { return static_cast<MPI_Comm>(comm); }

}  // extern "C"
