// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4.0
// §7.4.2, §7.6.2): communicators of the Sessions Model, from a group alone
// (the logic is in lib/comm/from_group.cpp). Collective over the group's
// members; usable in the World Model as well.
#include <cstring>
#include <string>

#include "api/comm_hints.hpp"
#include "api/errhandler_args.hpp"
#include "api/session.hpp"
#include "comm/create.hpp"
#include "group/group.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int group_arg(Call& call, MPI_Group h, const char* arg, group::GroupPtr* out) {
  if (int e = call.initialized()) return e;
  if (const group::GroupPtr* g = group::lookup(h); g && h != MPI_GROUP_EMPTY) {
    *out = *g;
    return MPI_SUCCESS;
  }
  if (h == MPI_GROUP_NULL) return call.fail(MPI_ERR_GROUP, "argument %s is MPI_GROUP_NULL", arg);
  if (h == MPI_GROUP_EMPTY)
    return call.fail(MPI_ERR_GROUP, "argument %s is MPI_GROUP_EMPTY; this process must be a member", arg);
  return call.fail(MPI_ERR_GROUP, "argument %s=0x%x is not a valid group (freed, or not a group handle)", arg,
                   static_cast<unsigned>(h));
}

int stringtag_arg(Call& call, const char* stringtag) {
  if (int e = call.not_null(stringtag, "stringtag")) return e;
  const std::size_t n = std::strlen(stringtag);
  if (n >= MPI_MAX_STRINGTAG_LEN)
    return call.fail(MPI_ERR_ARG, "argument stringtag has %zu characters; at most %d fit (MPI_MAX_STRINGTAG_LEN with "
                     "the NUL)", n, MPI_MAX_STRINGTAG_LEN - 1);
  return MPI_SUCCESS;
}

// The session a group came from (MPI_Group_from_session_pset), or MPI_SESSION_NULL.
MPI_Session session_of_group(MPI_Group h) {
  const api::SessionState* s = core::rt().sessions.get();
  if (!s) return MPI_SESSION_NULL;
  for (const auto& [g, session] : s->groups)
    if (g == h) return session;
  return MPI_SESSION_NULL;
}

// The errhandler argument (any predefined one, or one made for communicators
// or sessions: §7.4.2 allows both). Errors of the call itself go to it.
int errhandler_arg(Call& call, MPI_Errhandler h, std::shared_ptr<const comm::Errhandler>* out) {
  if (int e = api::errhandler_for(call, h, comm::Errhandler::For::comm, out)) return e;
  call.raise_on_handler(out, MPI_COMM_NULL);
  return MPI_SUCCESS;
}

int finish(Call& call, const comm::Made& m, MPI_Group group, const comm::Hints& hints, MPI_Comm* newcomm) {
  *newcomm = m.handle;
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  if (comm::Comm* c = comm::lookup(m.handle)) c->hints = hints;
  if (const MPI_Session s = session_of_group(group); s != MPI_SESSION_NULL) api::note_session_comm(m.handle, s);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info, MPI_Errhandler errhandler,
                               MPI_Comm* newcomm) {
  Call call("MPI_Comm_create_from_group");
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = errhandler_arg(call, errhandler, &eh)) return e;
  group::GroupPtr g;
  if (int e = group_arg(call, group, "group", &g)) return e;
  if (g->rank_of_world(core::rt().rank) == MPI_UNDEFINED)
    return call.fail(MPI_ERR_GROUP, "this process (MPI_COMM_WORLD rank %d) is not a member of argument group; only "
                     "its members call MPI_Comm_create_from_group", core::rt().rank);
  if (int e = stringtag_arg(call, stringtag)) return e;
  comm::Hints hints;
  if (int e = api::hints_from_info(call, info, comm::Hints{}, &hints)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  // No parent whose segment could be offered (coll/segment.hpp): the new
  // communicator attaches its shared segment in its first blocking collective.
  const comm::Made m = comm::create_from_group(g, stringtag, eh);
  return finish(call, m, group, hints, newcomm);
}

int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                     int remote_leader, const char* stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm* newintercomm) {
  Call call("MPI_Intercomm_create_from_groups");
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = errhandler_arg(call, errhandler, &eh)) return e;
  group::GroupPtr local, remote;
  if (int e = group_arg(call, local_group, "local_group", &local)) return e;
  if (local->rank_of_world(core::rt().rank) == MPI_UNDEFINED)
    return call.fail(MPI_ERR_GROUP, "this process (MPI_COMM_WORLD rank %d) is not a member of argument local_group",
                     core::rt().rank);
  if (int e = group_arg(call, remote_group, "remote_group", &remote)) return e;
  if (int e = stringtag_arg(call, stringtag)) return e;
  comm::Hints hints;
  if (int e = api::hints_from_info(call, info, comm::Hints{}, &hints)) return e;
  if (int e = call.not_null(newintercomm, "newintercomm")) return e;
  // Argument errors only this process sees travel in the round, so the whole
  // group fails instead of waiting (create.hpp).
  comm::LocalError bad;
  if (local_leader < 0 || local_leader >= local->size())
    bad = {MPI_ERR_RANK,
           "argument local_leader=" + std::to_string(local_leader) + " is not a rank of local_group (size " +
               std::to_string(local->size()) + ")",
           comm::BadArg::local_leader, local_leader};
  else if (remote_leader < 0 || remote_leader >= remote->size())
    bad = {MPI_ERR_RANK,
           "argument remote_leader=" + std::to_string(remote_leader) + " is not a rank of remote_group (size " +
               std::to_string(remote->size()) + ")",
           comm::BadArg::remote_leader, remote_leader};
  const comm::Made m = comm::intercomm_from_groups(local, local_leader, remote, remote_leader, stringtag, bad, eh);
  return finish(call, m, local_group, hints, newintercomm);
}

}  // extern "C"
