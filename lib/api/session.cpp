// MPI_Session_init / _finalize, the session's info and error handler calls,
// its buffered-send buffer (MPI-4.0 §11.3, MPI-4.1 §3.6.1). Process sets are
// in session_psets.cpp, communicators from groups in comm_from_group.cpp.
#include "api/session.hpp"

#include <cstring>

#include "api/bsend.hpp"
#include "api/errhandler_args.hpp"
#include "api/info_args.hpp"
#include "core/runtime.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

SessionState& sessions() {
  auto& p = core::rt().sessions;
  if (!p) p = std::make_unique<SessionState>();
  return *p;
}

int session_arg(Call& call, MPI_Session h, Session** out) {
  *out = sessions().table.get(h);
  if (*out) {
    call.raise_on_handler(&(*out)->errhandler, h);
    return MPI_SUCCESS;
  }
  if (h == MPI_SESSION_NULL) return call.fail(MPI_ERR_SESSION, "argument session is MPI_SESSION_NULL");
  return call.fail(MPI_ERR_SESSION,
                   "argument session=0x%x is not a valid session (finalized already, or not a session handle)",
                   static_cast<unsigned>(h));
}

namespace {

const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// The info key mpi_thread_support_level (§11.3.1): a level's name; absent:
// MPI_THREAD_SINGLE. -1 for a value that names no level.
int thread_level_of(const core::Info* in) {
  const std::string* v = in ? in->find("mpi_thread_support_level") : nullptr;
  if (!v) return MPI_THREAD_SINGLE;
  for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; ++l)
    if (*v == level_name(l)) return l;
  return -1;
}

// p2p's question for a buffered send (p2p::set_session_key_of): the session a
// communicator was made from.
std::uint64_t session_key_of(MPI_Comm h) {
  const SessionState* s = core::rt().sessions.get();
  if (!s) return 0;
  for (const auto& [c, session] : s->comms)
    if (c == h) return p2p::buffer_key_session(session);
  return 0;
}

}  // namespace

void note_session_comm(MPI_Comm comm, MPI_Session session) {
  sessions().comms.emplace_back(comm, session);
  p2p::set_session_key_of(&session_key_of);
}

}  // namespace ringmpi::api

using ringmpi::api::Session;
using ringmpi::api::session_arg;

extern "C" {

int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  Call call("MPI_Session_init");
  if (int e = call.not_null(session, "session")) return e;
  const core::Info* in = nullptr;
  if (info != MPI_INFO_NULL) {
    in = core::info_state().table.get(info);
    if (!in)
      return call.fail(MPI_ERR_INFO, "argument info=0x%x is not a valid info object (freed, or not an info handle)",
                       static_cast<unsigned>(info));
  }
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = api::errhandler_for(call, errhandler, comm::Errhandler::For::session, &eh)) return e;
  const int level = api::thread_level_of(in);
  if (level < 0)
    return call.fail(MPI_ERR_INFO_VALUE,
                     "info key mpi_thread_support_level is \"%s\"; it must name a thread level "
                     "(MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED or _MULTIPLE)",
                     in->find("mpi_thread_support_level")->c_str());
  auto s = std::make_unique<Session>();
  s->errhandler = std::move(eh);
  int provided = level;
  api::acquire_runtime(level, &provided);
  call.traced_from_start();  // the tracer may have opened just now
  s->thread_level = provided;
  s->info.set("mpi_thread_support_level", api::level_name(provided));
  const MPI_Session h = api::sessions().table.add(std::move(s));
  if (h == MPI_SESSION_NULL) {
    api::release_runtime();
    return call.fail(MPI_ERR_INTERN, "2^20 sessions are open; finalize some with MPI_Session_finalize");
  }
  *session = h;
  return MPI_SUCCESS;
}

int MPI_Session_finalize(MPI_Session* session) {
  Call call("MPI_Session_finalize");
  if (int e = call.not_null(session, "session")) return e;
  Session* s;
  if (int e = session_arg(call, *session, &s)) return e;
  // Its buffered-send buffer is detached (its messages leave first).
  void* buffer;
  std::size_t size;
  p2p::buffer_detach(p2p::buffer_key_session(*session), &buffer, &size);
  std::erase_if(api::sessions().comms, [h = *session](const auto& e) { return e.second == h; });
  std::erase_if(api::sessions().groups, [h = *session](const auto& e) { return e.second == h; });
  // The handler stays alive until the call returns (a failure below goes to it).
  const std::unique_ptr<Session> gone = api::sessions().table.remove(*session);
  *session = MPI_SESSION_NULL;
  api::release_runtime();
  return MPI_SUCCESS;
}

int MPI_Session_get_info(MPI_Session session, MPI_Info* info_used) {
  Call call("MPI_Session_get_info");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  if (int e = call.not_null(info_used, "info_used")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(s->info), info_used);
}

int MPI_Session_create_errhandler(MPI_Session_errhandler_function* session_errhandler_fn,
                                  MPI_Errhandler* errhandler) {
  Call call("MPI_Session_create_errhandler");
  // MPI_Session_errhandler_function and MPI_Comm_errhandler_function are the
  // same C type (handles are ints). Usable before any session exists.
  if (!session_errhandler_fn)
    return call.fail(MPI_ERR_ARG, "argument session_errhandler_fn is NULL; a handler needs a function");
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  const MPI_Errhandler h = comm::create_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(session_errhandler_fn),
                                                   comm::Errhandler::For::session);
  if (h == MPI_ERRHANDLER_NULL)
    return call.fail(MPI_ERR_OTHER, "the error handler table is full (2^20 live handlers); free handlers with "
                                    "MPI_Errhandler_free");
  *errhandler = h;
  return MPI_SUCCESS;
}

int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  Call call("MPI_Session_set_errhandler");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = api::errhandler_for(call, errhandler, comm::Errhandler::For::session, &eh)) return e;
  s->errhandler = std::move(eh);
  return MPI_SUCCESS;
}

int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler) {
  Call call("MPI_Session_get_errhandler");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  *errhandler = comm::user_handle(s->errhandler);
  return MPI_SUCCESS;
}

int MPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  Call call("MPI_Session_call_errhandler");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  // As MPI_Comm_call_errhandler: the handler's verdict is not the call's;
  // it returns MPI_SUCCESS once the handler returned (§9.3.4).
  std::shared_ptr<const comm::Errhandler> keep = s->errhandler;
  api::dispatch_to(keep, session, errorcode, call.name(), nullptr);
  return MPI_SUCCESS;
}

// Handles are ints already (as MPI_Comm_c2f).
MPI_Fint MPI_Session_c2f(MPI_Session session) { return static_cast<MPI_Fint>(session); }
MPI_Session MPI_Session_f2c(MPI_Fint session) { return static_cast<MPI_Session>(session); }

int MPI_Session_attach_buffer(MPI_Session session, void* buffer, int size) {
  Call call("MPI_Session_attach_buffer");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  return api::attach_buffer(call, p2p::buffer_key_session(session), buffer, size);
}

int MPI_Session_detach_buffer(MPI_Session session, void* buffer_addr, int* size) {
  Call call("MPI_Session_detach_buffer");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  return api::detach_buffer(call, p2p::buffer_key_session(session), buffer_addr, size);
}

int MPI_Session_attach_buffer_c(MPI_Session session, void* buffer, MPI_Count size) {
  Call call("MPI_Session_attach_buffer_c");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  return api::attach_buffer(call, p2p::buffer_key_session(session), buffer, size);
}

int MPI_Session_detach_buffer_c(MPI_Session session, void* buffer_addr, MPI_Count* size) {
  Call call("MPI_Session_detach_buffer_c");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  return api::detach_buffer_c(call, p2p::buffer_key_session(session), buffer_addr, size);
}

int MPI_Session_flush_buffer(MPI_Session session) {
  Call call("MPI_Session_flush_buffer");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  p2p::buffer_flush(p2p::buffer_key_session(session));
  return MPI_SUCCESS;
}

int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request* request) {
  Call call("MPI_Session_iflush_buffer");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  return api::iflush_buffer(call, p2p::buffer_key_session(session), MPI_COMM_SELF, request);
}

}  // extern "C"
