// MPI_Intercomm_create and MPI_Intercomm_merge (the logic is in lib/comm).
#include <cstdio>

#include "api/call.hpp"
#include "comm/create.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {
int deliver(Call& call, const comm::Made& m, MPI_Comm* newcomm);
}

extern "C" {

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                         MPI_Comm* newintercomm) {
  Call call("MPI_Intercomm_create");
  comm::Comm* lc;
  if (int e = call.intracomm(local_comm, "local_comm", &lc)) return e;
  if (int e = call.not_null(newintercomm, "newintercomm")) return e;
  comm::LocalError bad;
  comm::Comm* peer = nullptr;
  auto said = [](const char* fmt, auto... v) {
    char b[512];
    std::snprintf(b, sizeof b, fmt, v...);
    return std::string(b);
  };
  if (local_leader < 0 || local_leader >= lc->size()) {
    bad = {MPI_ERR_RANK,
           said("argument local_leader=%d is outside 0..%d of local_comm", local_leader, lc->size() - 1),
           comm::BadArg::local_leader, local_leader};
  } else if (lc->rank == local_leader) {
    // peer_comm, remote_leader and tag matter on the leader only.
    peer = comm::lookup(peer_comm);
    if (peer_comm == MPI_COMM_NULL)
      bad = {MPI_ERR_COMM, "argument peer_comm is MPI_COMM_NULL on the local leader", comm::BadArg::peer_comm, 0};
    else if (!peer)
      bad = {MPI_ERR_COMM, said("argument peer_comm=0x%x is not a valid communicator (freed, or not a communicator "
                                "handle)", static_cast<unsigned>(peer_comm)),
             comm::BadArg::peer_comm, 0};
    else if (remote_leader < 0 || remote_leader >= static_cast<int>(peer->peer_world.size()))
      bad = {MPI_ERR_RANK,
             said("argument remote_leader=%d is outside 0..%d of peer_comm", remote_leader,
                  static_cast<int>(peer->peer_world.size()) - 1),
             comm::BadArg::remote_leader, remote_leader};
    else if (lc->local->rank_of_world(peer->peer_world[remote_leader]) != MPI_UNDEFINED)
      bad = {MPI_ERR_RANK,
             said("argument remote_leader=%d names a process of local_comm (its rank %d); the remote leader must "
                  "belong to the other, disjoint group", remote_leader,
                  lc->local->rank_of_world(peer->peer_world[remote_leader])),
             comm::BadArg::remote_leader, remote_leader};
    else if (tag < 0)
      bad = {MPI_ERR_TAG, said("argument tag=%d is negative", tag), comm::BadArg::tag, tag};
  }
  return api::deliver(call, comm::intercomm_create(*lc, local_leader, peer, remote_leader, tag, bad), newintercomm);
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  Call call("MPI_Intercomm_merge");
  comm::Comm* c;
  if (int e = call.comm(intercomm, "intercomm", &c)) return e;
  if (!c->inter)
    return call.fail(MPI_ERR_COMM, "argument intercomm (%s) is an intracommunicator; MPI_Intercomm_merge needs an "
                     "intercommunicator", api::describe_comm(intercomm).c_str());
  if (int e = call.not_null(newintracomm, "newintracomm")) return e;
  return api::deliver(call, comm::merge(*c, high != 0), newintracomm);
}

}  // extern "C"
