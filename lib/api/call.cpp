#include "api/call.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "core/runtime.hpp"

// The Fortran name of the call in progress (MPI_SEND for MPI_Send), set
// around the C call by the Fortran bindings' glue (fortran/glue.h) and read
// only when an error is reported: the one-line message then names the call
// as the Fortran program wrote it. Exported for libringmpi_fortran, outside
// mpi.h: no C program uses it.
extern "C" {
__attribute__((visibility("default"))) thread_local const char* rmpi_fortran_call = nullptr;
}

namespace ringmpi::api {
namespace {

int current_rank() {
  const core::Runtime& r = core::rt();
  if (r.phase != core::Phase::before_init) return r.rank;
  const char* env = std::getenv(shm::kEnvRank);
  return env ? std::atoi(env) : 0;
}

// "rank 3", or for a spawned process what mpiexec calls it too:
// "spawn 1 rank 0 (process 3)" (its MPI_COMM_WORLD rank, and its number in
// the job, which other processes' messages use).
std::string who() {
  const core::Runtime& r = core::rt();
  const char* spawn = std::getenv(shm::kEnvSpawnId);  // set by mpiexec for spawned processes only
  if (r.phase == core::Phase::before_init || !spawn || std::atoi(spawn) <= 0)
    return "rank " + std::to_string(current_rank());
  return "spawn " + std::to_string(std::atoi(spawn)) + " rank " + std::to_string(r.rank - r.world_base) +
         " (process " + std::to_string(r.rank) + ")";
}

[[noreturn]] void die(int error_code, const char* call, const char* message) {
  const int cls = core::error_class_of(error_code);
  // User codes may have no string, and a callback may return any int at all.
  std::string text = core::error_string(error_code);
  if (text.empty()) text = "error code " + std::to_string(error_code);
  const std::string cls_name = cls < 0 ? "not a valid MPI error code" : core::error_class_name(cls);
  char line[1024];
  std::snprintf(line, sizeof line, "%s: %s: %s (%s)%s%s", who().c_str(), call, text.c_str(),
                cls_name.c_str(), message ? ": " : "", message ? message : "");
  std::fprintf(stderr, "ringmpi: %s\n", line);
  core::abort_job(shm::ExitKind::fatal_error, 1, line);
}

}  // namespace

void Call::begin_trace(std::uint64_t t0) {
  trace_begin_ = t0;
  trace_peer_ = core::kTraceNone;
  trace_tag_ = core::kTraceNone;
  trace_count_ = core::kTraceNone;
  trace_type_ = MPI_DATATYPE_NULL;
  flags_ |= kTraced;
}

void Call::enter() {
  core::Runtime& r = core::rt();
  if (r.serialize_calls) {
    r.call_lock.lock();
    flags_ |= kLocked;
  }
  if (r.tracer != nullptr) begin_trace(core::trace_clock());  // mpiexec --trace
}

void Call::leave() {
  if ((flags_ & kTraced) && core::rt().tracer != nullptr) trace_end();
  if (flags_ & kLocked) core::rt().call_lock.unlock();
}

// The record of one MPI call for mpiexec --trace (core/trace.hpp); runs in
// ~Call only while tracing.
void Call::trace_end() {
  core::Runtime& r = core::rt();
  core::Tracer& t = *r.tracer;
  const std::uint64_t end = core::trace_clock();
  core::TraceRecord& rec = t.append();
  rec.kind = static_cast<std::uint32_t>(core::TraceKind::call);
  rec.t0 = trace_begin_ != 0 ? trace_begin_ : t.start();  // MPI_Init began before the tracer existed
  rec.t1 = end;
  rec.peer = trace_peer_;
  rec.tag = trace_tag_;
  rec.count = trace_count_;
  rec.comm = static_cast<std::uint32_t>(comm_ != 0 ? comm_ : MPI_COMM_NULL);
  rec.bytes = 0;
  core::Tracer::set_text(rec.name, name_, std::strlen(name_));
  rec.datatype[0] = '\0';
  if (trace_type_ != MPI_DATATYPE_NULL) {
    const dtype::Datatype* d = dtype::lookup(trace_type_);
    if (d && !d->name.empty()) core::Tracer::set_text(rec.datatype, d->name.data(), d->name.size());
    else std::snprintf(rec.datatype, sizeof rec.datatype, "datatype 0x%x", static_cast<unsigned>(trace_type_));
  }
  if (r.phase == core::Phase::finalized) t.flush();  // MPI_Finalize's own record included
}

std::string describe_comm(MPI_Comm h) {
  if (h == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (h == MPI_COMM_SELF) return "MPI_COMM_SELF";
  if (h == MPI_COMM_NULL) return "MPI_COMM_NULL";
  const comm::Comm* c = comm::lookup(h);
  char buf[64];
  std::snprintf(buf, sizeof buf, "communicator 0x%x", static_cast<unsigned>(h));
  if (c && !c->name.empty()) return std::string(buf) + " '" + c->name + "'";
  return buf;
}

int dispatch_to(std::shared_ptr<const comm::Errhandler> keep, int object, int error_code, const char* call,
                const char* message) {
  // `keep` holds the handler alive even if the callback frees or replaces it.
  if (core::rt().phase != core::Phase::running || !keep) die(error_code, call, message);
  switch (keep->kind) {
    case comm::Errhandler::Kind::return_codes:
      return error_code;
    case comm::Errhandler::Kind::user: {
      int handle = object;
      int code = error_code;
      keep->fn(&handle, &code, call, message);
      return error_code;
    }
    case comm::Errhandler::Kind::fatal:
    case comm::Errhandler::Kind::abort:
      break;
  }
  die(error_code, call, message);
}

int dispatch_error(MPI_Comm comm_handle, int error_code, const char* call, const char* message) {
  if (core::rt().phase != core::Phase::running) die(error_code, call, message);
  comm::Comm* c = comm::lookup(comm_handle);
  if (!c) {
    comm_handle = MPI_COMM_WORLD;
    c = comm::lookup(comm_handle);
  }
  if (!c) die(error_code, call, message);
  // A window's or a file's errors are raised on its private communicator;
  // a handler made for windows or files is called with the window or file
  // handle (MPI-3.1 §8.3.2, §8.3.3).
  const bool for_owner = c->errhandler && c->errhandler->made_for != comm::Errhandler::For::comm && c->owner != 0;
  return dispatch_to(c->errhandler, for_owner ? c->owner : comm_handle, error_code, call, message);
}

int Call::fail(int error_code, const char* fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  // A call made through mpif.h or `use mpi` is named as the program wrote it.
  const char* name = rmpi_fortran_call != nullptr ? rmpi_fortran_call : name_;
  if (handler_ != nullptr) return dispatch_to(*handler_, handler_object_, error_code, name, msg);
  return dispatch_error(comm_handle(), error_code, name, msg);
}

int Call::not_running() {
  switch (core::rt().phase) {
    case core::Phase::running:
      return MPI_SUCCESS;
    case core::Phase::before_init:
      return fail(MPI_ERR_OTHER, "called before MPI_Init");
    case core::Phase::finalized:
      return fail(MPI_ERR_OTHER, "called after MPI_Finalize");
  }
  return MPI_ERR_INTERN;
}

int Call::bad_comm(MPI_Comm h, const char* arg) {
  if (h == MPI_COMM_NULL) return fail(MPI_ERR_COMM, "argument %s is MPI_COMM_NULL", arg);
  return fail(MPI_ERR_COMM, "argument %s=0x%x is not a valid communicator (freed, or not a communicator handle)", arg,
              static_cast<unsigned>(h));
}

int Call::intracomm(MPI_Comm h, const char* arg, comm::Comm** out) {
  if (int e = comm(h, arg, out)) return e;
  if ((*out)->inter)
    return fail(MPI_ERR_COMM, "argument %s is an intercommunicator; this call needs an intracommunicator", arg);
  return MPI_SUCCESS;
}

int Call::bad_datatype(MPI_Datatype h, const char* arg) {
  if (h == MPI_DATATYPE_NULL) return fail(MPI_ERR_TYPE, "argument %s is MPI_DATATYPE_NULL", arg);
  if (!dtype::lookup(h))
    return fail(MPI_ERR_TYPE, "argument %s=0x%x is not a valid datatype (freed, or not a datatype handle)", arg,
                static_cast<unsigned>(h));
  return fail(MPI_ERR_TYPE, "argument %s is not committed; call MPI_Type_commit before communicating with it", arg);
}

int Call::bad_count(int n, const char* arg) { return fail(MPI_ERR_COUNT, "argument %s=%d is negative", arg, n); }

int Call::null_arg(const char* arg) { return fail(MPI_ERR_ARG, "argument %s is NULL", arg); }

}  // namespace ringmpi::api
