// The tool information interface: performance variables, their sessions and
// handles (MPI-3.1 §14.3.7).
//
// Every performance variable is a counter: a path counter (core/counters.hpp),
// bound to no object, or a collective algorithm's calls on a communicator
// (coll/plan.hpp), bound to it (MPI_T_BIND_MPI_COMM); class
// MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG, and
// - continuous: the library counts all the time; nothing can start or stop
//   it. MPI_T_pvar_start/stop on its handle are MPI_T_ERR_PVAR_NO_STARTSTOP;
//   with MPI_T_PVAR_ALL_HANDLES they skip it ("continuous variables ... are
//   ignored") and succeed;
// - readonly: a counter is what MPIX_Query_counter and the tests read, so a
//   tool may not change it. MPI_T_pvar_write, _reset and _readreset on its
//   handle are MPI_T_ERR_PVAR_NO_WRITE; MPI_T_pvar_reset with
//   MPI_T_PVAR_ALL_HANDLES skips it ("read-only variables are ignored") and
//   succeeds. Not atomic (nothing to read and reset at once).
// The class's starting value is 0, and each handle keeps its own: it remembers
// the counter when it is allocated and reads the growth since then, so two
// tools (two sessions) never see each other's starting points.
#include <cstring>
#include <memory>

#include "api/tool.hpp"
#include "coll/plan.hpp"
#include "comm/comm.hpp"
#include "core/handle.hpp"

namespace ringmpi::api::tool {
namespace {

struct PvarHandle {
  MPI_T_pvar_session session;  // the one it was allocated in
  int index;                   // the variable
  std::uint64_t base;          // the counter at allocation: the starting value 0
  // A variable bound to a communicator: its plan (kept after the
  // communicator is freed, so a handle reads its last count).
  std::shared_ptr<const coll::Plan> plan;
};

// The counter a handle reads now.
std::uint64_t current(int index, const std::shared_ptr<const coll::Plan>& plan) {
  if (!plan) return pvar_value(index);
  const Pvar& v = pvar(index);
  return plan->calls[static_cast<std::size_t>(v.family)][static_cast<std::size_t>(v.algo)];
}
struct Session {
  std::vector<MPI_T_pvar_handle> handles;
};

core::HandleTable<PvarHandle>& pvar_handles() {
  static core::HandleTable<PvarHandle>* t = [] {
    auto* table = new core::HandleTable<PvarHandle>(core::Kind::t_pvar);
    // Index 1 is MPI_T_PVAR_ALL_HANDLES (mpi.h): never a real handle.
    table->put_predefined(1, std::make_unique<PvarHandle>(PvarHandle{MPI_T_PVAR_SESSION_NULL, -1, 0, nullptr}));
    return table;
  }();
  return *t;
}
core::HandleTable<Session>& sessions() {
  static core::HandleTable<Session> t(core::Kind::t_session);
  return t;
}

// The handle `h` of `session`, or nullptr (MPI_T_ERR_INVALID_HANDLE): a
// handle of another session is as invalid as a freed one (§14.3.7.2: a handle
// is used with the session it was allocated in).
PvarHandle* handle_in(MPI_T_pvar_session session, MPI_T_pvar_handle h) {
  if (h == MPI_T_PVAR_ALL_HANDLES) return nullptr;
  PvarHandle* p = pvar_handles().get(h);
  return p != nullptr && p->session == session ? p : nullptr;
}

void free_handle(MPI_T_pvar_handle h) { pvar_handles().remove(h); }

std::uint64_t handle_value(const PvarHandle& p) { return current(p.index, p.plan) - p.base; }

// Every variable is continuous and read-only (above): no handle can be
// started, stopped, written or reset.
constexpr bool kContinuous = true;
constexpr bool kReadonly = true;

// The session and, in it, the handle: MPI_SUCCESS or the error class.
int check_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (sessions().get(session) == nullptr) return MPI_T_ERR_INVALID_SESSION;
  return handle_in(session, handle) == nullptr ? MPI_T_ERR_INVALID_HANDLE : MPI_SUCCESS;
}

// MPI_T_pvar_write and readreset: the handle and buffer checked, then
// refused, as every variable is read-only.
int write_refused(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  if (int r = check_handle(session, handle)) return r;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  static_assert(kReadonly);
  return MPI_T_ERR_PVAR_NO_WRITE;
}

// Start and stop: the same rules. MPI_T_PVAR_ALL_HANDLES skips the
// continuous variables (§14.3.7.4): all of them.
int start_or_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  if (handle == MPI_T_PVAR_ALL_HANDLES) return sessions().get(session) ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
  if (int r = check_handle(session, handle)) return r;
  static_assert(kContinuous);
  return MPI_T_ERR_PVAR_NO_STARTSTOP;
}

}  // namespace

void clear_pvar_sessions() {
  std::vector<MPI_T_pvar_session> live;
  sessions().for_each([&live](int h, const Session&) { live.push_back(h); });
  for (MPI_T_pvar_session s : live) {
    for (MPI_T_pvar_handle h : sessions().get(s)->handles) free_handle(h);
    sessions().remove(s);
  }
}

}  // namespace ringmpi::api::tool

using namespace ringmpi;
using api::tool::Entry;
namespace tool = api::tool;

extern "C" {

int MPI_T_pvar_get_num(int* num_pvar) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_pvar == nullptr) return MPI_T_ERR_INVALID;
  *num_pvar = tool::pvar_count();
  return MPI_SUCCESS;
}

// An OUT argument passed as NULL is not returned (MPI-3.1 §14.3.7.1).
int MPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                        MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind,
                        int* readonly, int* continuous, int* atomic) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (pvar_index < 0 || pvar_index >= tool::pvar_count()) return MPI_T_ERR_INVALID_INDEX;
  if (!tool::length_ok(name, name_len) || !tool::length_ok(desc, desc_len)) return MPI_T_ERR_INVALID;
  const tool::Pvar& v = tool::pvar(pvar_index);
  tool::put_string(v.name, name, name_len);
  tool::put_string(v.description, desc, desc_len);
  if (verbosity) *verbosity = v.verbosity;
  if (var_class) *var_class = MPI_T_PVAR_CLASS_COUNTER;
  if (datatype) *datatype = MPI_UNSIGNED_LONG_LONG;
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = v.bind;
  if (readonly) *readonly = tool::kReadonly;
  if (continuous) *continuous = tool::kContinuous;
  if (atomic) *atomic = 0;
  return MPI_SUCCESS;
}

// A performance variable is named by its name and its class together (§14.3.7.1).
int MPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (name == nullptr || pvar_index == nullptr) return MPI_T_ERR_INVALID;
  // A variable is named by its name and class together: every one is a counter.
  if (var_class != MPI_T_PVAR_CLASS_COUNTER) return MPI_T_ERR_INVALID_NAME;
  return tool::index_of(tool::pvar_count(), tool::pvar, name, pvar_index);
}

int MPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (session == nullptr) return MPI_T_ERR_INVALID;
  const int s = tool::sessions().add(std::make_unique<tool::Session>());
  if (s == MPI_T_PVAR_SESSION_NULL) return MPI_T_ERR_OUT_OF_SESSIONS;
  *session = s;
  return MPI_SUCCESS;
}

// Frees the session's handles with it (§14.3.7.2).
int MPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (session == nullptr) return MPI_T_ERR_INVALID;
  tool::Session* s = tool::sessions().get(*session);
  if (s == nullptr) return MPI_T_ERR_INVALID_SESSION;
  for (MPI_T_pvar_handle h : s->handles) tool::free_handle(h);
  tool::sessions().remove(*session);
  *session = MPI_T_PVAR_SESSION_NULL;
  return MPI_SUCCESS;
}

// Bound to no object: obj_handle is ignored; one value each.
// obj_handle: for a variable bound to a communicator (the collective
// algorithm counters), the address of an MPI_Comm (§14.3.7.2).
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void* obj_handle,
                            MPI_T_pvar_handle* handle, int* count) {
  Entry e;
  if (int r = e.initialized()) return r;
  tool::Session* s = tool::sessions().get(session);
  if (s == nullptr) return MPI_T_ERR_INVALID_SESSION;
  if (pvar_index < 0 || pvar_index >= tool::pvar_count()) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  std::shared_ptr<const coll::Plan> plan;
  if (tool::pvar(pvar_index).bind == MPI_T_BIND_MPI_COMM) {
    comm::Comm* c = obj_handle ? comm::lookup(*static_cast<const MPI_Comm*>(obj_handle)) : nullptr;
    if (c == nullptr) return MPI_T_ERR_INVALID_HANDLE;
    plan = coll::shared_plan(*c);
  }
  const std::uint64_t base = tool::current(pvar_index, plan);
  const int h = tool::pvar_handles().add(
      std::make_unique<tool::PvarHandle>(tool::PvarHandle{session, pvar_index, base, std::move(plan)}));
  if (h == MPI_T_PVAR_HANDLE_NULL) return MPI_T_ERR_OUT_OF_HANDLES;
  s->handles.push_back(h);
  *handle = h;
  *count = 1;
  return MPI_SUCCESS;
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  Entry e;
  if (int r = e.initialized()) return r;
  tool::Session* s = tool::sessions().get(session);
  if (s == nullptr) return MPI_T_ERR_INVALID_SESSION;
  if (handle == nullptr) return MPI_T_ERR_INVALID;
  if (tool::handle_in(session, *handle) == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  std::erase(s->handles, *handle);
  tool::free_handle(*handle);
  *handle = MPI_T_PVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  Entry e;
  if (int r = e.initialized()) return r;
  return tool::start_or_stop(session, handle);
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  Entry e;
  if (int r = e.initialized()) return r;
  return tool::start_or_stop(session, handle);
}

// MPI_T_PVAR_ALL_HANDLES cannot be read (§14.3.7.4): MPI_T_ERR_INVALID_HANDLE.
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (int r = tool::check_handle(session, handle)) return r;
  const tool::PvarHandle* p = tool::handle_in(session, handle);
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const unsigned long long v = tool::handle_value(*p);
  std::memcpy(buf, &v, sizeof v);
  return MPI_SUCCESS;
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  Entry e;
  if (int r = e.initialized()) return r;
  return tool::write_refused(session, handle, buf);
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (handle == MPI_T_PVAR_ALL_HANDLES)  // skips the read-only ones: all of them
    return tool::sessions().get(session) ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
  if (int r = tool::check_handle(session, handle)) return r;
  static_assert(tool::kReadonly);
  return MPI_T_ERR_PVAR_NO_WRITE;
}

// Not with MPI_T_PVAR_ALL_HANDLES (§14.3.7.4); a read-only variable cannot be
// reset, so nothing is read either.
int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  Entry e;
  if (int r = e.initialized()) return r;
  return tool::write_refused(session, handle, buf);
}

}  // extern "C"
