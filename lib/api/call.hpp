// The frame of every MPI_* entry point: argument checks and error dispatch.
//
//   int MPI_Comm_rank(MPI_Comm comm, int* rank) {
//     api::Call call("MPI_Comm_rank");
//     comm::Comm* c;
//     if (int e = call.comm(comm, "comm", &c)) return e;
//     if (int e = call.not_null(rank, "rank")) return e;
//     ...
//   }
//
// fail() formats one line naming the rank, the call, the argument and the
// reason, and hands the error to the error handler of the communicator the
// call is about (MPI_COMM_WORLD's when there is none, as MPI-3.1 §8.3 says):
// fatal/abort print it and end the job; MPI_ERRORS_RETURN returns the code;
// a user handler is called and the code returned.
#pragma once

#include "comm/comm.hpp"
#include "core/trace.hpp"
#include "dtype/datatype.hpp"
#include "mpi.h"

namespace ringmpi::api {

class Call {
 public:
  // At MPI_THREAD_MULTIPLE the call holds the process's call lock from here
  // to its return (core/call_lock.hpp); at the other levels no lock at all.
  // The lock and mpiexec --trace share one out-of-line branch each way
  // (enter/leave), and the trace fields are set up only when tracing: the
  // frame of a call that does neither is four stores and two tests (a
  // zero-byte collective is mostly this frame).
  [[gnu::always_inline]] explicit Call(const char* name) : name_(name) {
    core::Runtime& r = core::rt();
    if (__builtin_expect(r.serialize_calls || r.tracer != nullptr, 0)) enter();
    r.current_call = name;
    r.call_args.kind = core::Runtime::CallArgs::Kind::none;
  }
  [[gnu::always_inline]] ~Call() {
    if (__builtin_expect(flags_ != 0, 0)) leave();
  }
  // For MPI_Init and MPI_Session_init, which open the tracer (mpiexec
  // --trace) during the call: their own record, from the tracer's start.
  void traced_from_start() {
    if (core::rt().tracer != nullptr && !(flags_ & kTraced)) begin_trace(0);
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  // What this call may wait on, for the deadlock report (see core::Runtime::CallArgs).
  static void note_args(core::Runtime::CallArgs::Kind kind, int peer, int tag, int count, MPI_Comm comm,
                        MPI_Datatype type) {
    core::Runtime::CallArgs& a = core::rt().call_args;
    a.kind = kind;
    a.peer = peer;
    a.tag = tag;
    a.count = count;
    a.comm = comm;
    a.type = type;
  }
  static void note_requests(core::Runtime::CallArgs::Kind kind, const void* const* requests, int count) {
    core::Runtime::CallArgs& a = core::rt().call_args;
    a.kind = kind;
    a.requests = requests;
    a.count = count;
  }
  const char* name() const { return name_; }

  // Arguments for the trace (mpiexec --trace); the checks below note comm,
  // count and datatype themselves. Plain stores: read only when tracing.
  void note_peer(int peer_or_root) { trace_peer_ = peer_or_root; }
  void note_tag(int tag) { trace_tag_ = tag; }
  // For a fast path that checked a datatype handle without datatype().
  void note_type(MPI_Datatype h) { trace_type_ = h; }
  void note_count(int n) { trace_count_ = n; }

  // Errors raised from now on go to this communicator's handler.
  void raise_on(MPI_Comm c) { comm_ = c; }
  MPI_Comm comm_handle() const { return comm_ != 0 ? comm_ : MPI_COMM_WORLD; }
  // Errors raised from now on go to this handler, called with `object` (the
  // handler of MPI_FILE_NULL, for errors that concern no open file).
  void raise_on_handler(const std::shared_ptr<const comm::Errhandler>* handler, int object) {
    handler_ = handler;
    handler_object_ = object;
  }

  int fail(int error_code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

  // Checks; each returns MPI_SUCCESS or the (already dispatched) error code.
  // The passing case is inline (every MPI call goes through them); the
  // failing one formats the message out of line.
  [[gnu::always_inline]] int initialized() {  // between MPI_Init and MPI_Finalize
    return __builtin_expect(core::rt().phase == core::Phase::running, 1) ? MPI_SUCCESS : not_running();
  }
  [[gnu::always_inline]] int comm(MPI_Comm h, const char* arg, comm::Comm** out) {  // also raise_on(h)
    *out = nullptr;
    if (int e = initialized()) return e;
    comm::Comm* c = comm::lookup(h);  // nullptr for MPI_COMM_NULL too
    *out = c;
    if (__builtin_expect(c == nullptr, 0)) return bad_comm(h, arg);
    raise_on(h);
    return MPI_SUCCESS;
  }
  int intracomm(MPI_Comm h, const char* arg, comm::Comm** out);
  [[gnu::always_inline]] int datatype(MPI_Datatype h, const char* arg, const dtype::Datatype** out) {  // must be committed
    trace_type_ = h;
    const dtype::Datatype* t = dtype::lookup(h);  // nullptr for MPI_DATATYPE_NULL too
    *out = t;
    if (__builtin_expect(t == nullptr || !t->committed, 0)) return bad_datatype(h, arg);
    return MPI_SUCCESS;
  }
  [[gnu::always_inline]] int count(int n, const char* arg) {
    trace_count_ = n;
    return __builtin_expect(n >= 0, 1) ? MPI_SUCCESS : bad_count(n, arg);
  }
  [[gnu::always_inline]] int not_null(const void* p, const char* arg) {
    if (__builtin_expect(p != nullptr, 1)) return MPI_SUCCESS;
    const int e = null_arg(arg);
    return e != MPI_SUCCESS ? e : MPI_ERR_ARG;  // never MPI_SUCCESS with a null p (callers rely on it)
  }

 private:
  [[gnu::cold]] int not_running();
  [[gnu::cold]] int bad_comm(MPI_Comm h, const char* arg);
  [[gnu::cold]] int bad_datatype(MPI_Datatype h, const char* arg);
  [[gnu::cold]] int bad_count(int n, const char* arg);
  [[gnu::cold]] int null_arg(const char* arg);
  [[gnu::cold]] void trace_end();  // appends this call's record (call.cpp)
  [[gnu::cold]] void enter();       // takes the call lock, starts the trace record
  [[gnu::cold]] void leave();       // ends the trace record, releases the lock
  void begin_trace(std::uint64_t t0);
  static constexpr unsigned kLocked = 1, kTraced = 2;
  const char* name_;
  MPI_Comm comm_ = 0;  // raise_on's (0 is no handle): errors go to MPI_COMM_WORLD's handler until then
  unsigned flags_ = 0;  // (not a char type, which would alias everything)
  const std::shared_ptr<const comm::Errhandler>* handler_ = nullptr;
  int handler_object_;  // read only with handler_
  // Written by the checks on every call (plain stores); set up by
  // begin_trace and read only while tracing (kTraced).
  std::uint64_t trace_begin_;
  int trace_peer_;
  int trace_tag_;
  int trace_count_;
  MPI_Datatype trace_type_;
};

// Dispatches an error code to the handler of `comm` (used by fail() and by
// MPI_Comm_call_errhandler). `message` may be null for user-raised codes.
int dispatch_error(MPI_Comm comm, int error_code, const char* call, const char* message);
// Dispatches an error code to `handler` (null: fatal), a user function being
// called with `object` (a communicator, window or file handle).
int dispatch_to(std::shared_ptr<const comm::Errhandler> handler, int object, int error_code, const char* call,
                const char* message);

// Human-readable name of a communicator for messages ("MPI_COMM_WORLD", "comm 0x44000005").
std::string describe_comm(MPI_Comm h);

// MPI_Comm/Type/Win_get_name of the null handle (MPI-4.1 annex B.1.2, item 18):
// its own name ("MPI_COMM_NULL"); the out arguments are checked by the caller.
inline int null_name(char* name, int* resultlen, const char* text) {
  const std::size_t n = __builtin_strlen(text);
  __builtin_memcpy(name, text, n + 1);
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api
