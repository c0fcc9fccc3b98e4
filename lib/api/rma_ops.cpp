// RMA communication calls (MPI-3.1 §11.3): put, get, the accumulate family
// and their request forms. The work is in lib/rma/transfer.cpp.
#include <cstring>

#include "api/coll_args.hpp"
#include "api/large_count.hpp"
#include "api/lenient.hpp"
#include "api/rma_check.hpp"
#include "dtype/kernels.hpp"
#include "dtype/op.hpp"
#include "p2p/extension.hpp"
#include "rma/transfer.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// side() and common() are inlined into every call's body: out of line their
// calls and register saves cost about as much as the checks themselves.
[[gnu::always_inline]] inline int side(Call& call, const void* buf, int count, MPI_Datatype type,
                                       const char* count_arg, const char* type_arg, rma::Side* out) {
  if (int e = call.count(count, count_arg)) return e;
  if (int e = call.datatype(type, type_arg, &out->type)) return e;
  out->buf = buf;
  out->count = count;
  return MPI_SUCCESS;
}

int disp_arg(Call& call, MPI_Aint disp) {
  if (disp >= 0) return MPI_SUCCESS;
  return call.fail(MPI_ERR_DISP, "argument target_disp=%lld is negative", static_cast<long long>(disp));
}

// A buffer that data is read from or written to (count > 0) may not be NULL,
// unless the datatype's displacements are absolute (MPI_BOTTOM); checked
// after an MPI_PROC_NULL target has returned, for which nothing moves.
int buffer_arg(Call& call, const void* buf, const rma::Side& side, const char* buf_arg, const char* count_arg) {
  if (side.count > 0 && api::null_data(buf, *side.type))
    return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s=%d", buf_arg, count_arg, side.count);
  return MPI_SUCCESS;
}

// The arguments every call has: window, target, origin and target sides.
struct Common {
  rma::Window* w = nullptr;
  rma::Side origin, target;
};

// Which calls these are: the request forms (MPI_Rput...) are only valid in
// a passive-target epoch (MPI-3.1 §11.3.5), the others in any access epoch.
enum class Form { plain, request };

int passive_arg(Call& call, const rma::Window& w, int target_rank) {
  if (target_rank == MPI_PROC_NULL || w.lock_all || w.held[target_rank] != rma::Held::none) return MPI_SUCCESS;
  return call.fail(MPI_ERR_RMA_SYNC,
                   "request-based RMA calls are only valid in a passive-target epoch (MPI-3.1 §11.3.5), and this "
                   "rank holds no lock on target_rank=%d (MPI_Win_lock or MPI_Win_lock_all)",
                   target_rank);
}

[[gnu::always_inline]] inline int common(Call& call, MPI_Win win, const void* origin_addr, int origin_count,
                                         MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                                         int target_count, MPI_Datatype target_datatype, Form form, Common* c,
                                         bool origin_used = true) {
  if (int e = api::win_arg(call, win, "win", &c->w)) return e;
  if (origin_used)
    if (int e = side(call, origin_addr, origin_count, origin_datatype, "origin_count", "origin_datatype", &c->origin))
      return e;
  if (origin_used && target_datatype == origin_datatype) {
    // The usual case: one handle for both sides, looked up once.
    if (int e = call.count(target_count, "target_count")) return e;
    c->target = rma::Side{nullptr, target_count, c->origin.type};
  } else if (int e = side(call, nullptr, target_count, target_datatype, "target_count", "target_datatype",
                          &c->target)) {
    return e;
  }
  if (c->w->flavor != rma::Flavor::dynamic)
    if (int e = disp_arg(call, target_disp)) return e;
  if (int e = api::target_arg(call, *c->w, target_rank, "target_rank")) return e;
  return form == Form::request ? passive_arg(call, *c->w, target_rank) : MPI_SUCCESS;
}

// The target bytes of a put or get whose two sides are the same contiguous
// count x type (no packing, nothing to compare), mapped here; nullptr: the
// general path (rma::put / rma::get) does the work and the reporting.
std::byte* contiguous_span(const Common& c, int target_rank, MPI_Aint target_disp) {
  if (c.origin.type != c.target.type || c.origin.count != c.target.count || c.origin.count == 0 ||
      !c.origin.type->contiguous())
    return nullptr;
  return rma::segment_span(*c.w, target_rank, target_disp, std::size_t(c.origin.count) * c.origin.type->size);
}

// The window of a quick path (quick_span, quick_accumulate,
// quick_compare_and_swap): the runtime running, a valid window, a target
// rank inside it (an unsigned compare also sends MPI_PROC_NULL, negative, to
// the general path) that a fence, lock or lock_all epoch covers (a start
// group is looked through by the general path: may_access). nullptr
// otherwise, and then the general path checks and reports.
[[gnu::always_inline]] inline rma::Window* quick_window(MPI_Win win, int target_rank) {
  if (__builtin_expect(core::rt().phase != core::Phase::running, 0)) return nullptr;
  rma::Window* w = rma::lookup(win);
  if (__builtin_expect(w == nullptr, 0)) return nullptr;
  if (static_cast<unsigned>(target_rank) >= static_cast<unsigned>(w->size)) return nullptr;
  if (!w->fence_open && !w->lock_all && w->held[static_cast<std::size_t>(target_rank)] == rma::Held::none)
    return nullptr;
  return w;
}

// What the general path's checks record in the Call (the communicator for
// the error handler, the type and the count for the trace) once a quick
// path has taken the call.
[[gnu::always_inline]] inline void quick_noted(Call& call, const rma::Window& w, MPI_Datatype type, int count) {
  call.raise_on(w.comm);
  call.note_type(type);
  (void)call.count(count, "target_count");  // passes (> 0)
}

// The usual put or get, checked in one pass: both sides the same handle and
// count (> 0) of a committed contiguous type, target_disp >= 0, a target rank
// that a fence, lock or lock_all epoch covers, its bytes inside its memory in
// the window's segment. Returns those bytes, mapped here, and sets *bytes;
// nullptr when any of this does not hold, and then the general path
// (do_put / do_get) checks everything again and reports. Every condition is
// one the general path also requires, so no call is refused here, and the
// Call records what the general path's checks record (comm, count, type).
// Why: an 8-byte put + flush is only these checks and one copy, and the
// general path spends twice the instructions on them (a Common to fill, a
// call with ten arguments, the same range test a second time).
[[gnu::always_inline]] inline std::byte* quick_span(Call& call, MPI_Win win, const void* origin, int count,
                                                    MPI_Datatype type, int target_rank, MPI_Aint disp,
                                                    int target_count, MPI_Datatype target_type, std::size_t* bytes) {
  if (type != target_type || count != target_count || count <= 0 || disp < 0) return nullptr;
  if (origin == nullptr) return nullptr;  // buffer_arg reports it
  const rma::Window* w = quick_window(win, target_rank);
  if (w == nullptr) return nullptr;
  const dtype::Datatype* t = dtype::lookup(type);
  if (t == nullptr || !t->committed || !t->contiguous()) return nullptr;
  const std::size_t n = std::size_t(count) * t->size;
  std::byte* at = rma::segment_span(*w, target_rank, disp, n);
  if (at == nullptr) return nullptr;
  quick_noted(call, *w, type, target_count);
  *bytes = n;
  return at;
}

// The usual accumulate-family call (an atomic counter: Fetch_and_op, or an
// Accumulate / Get_accumulate of a few elements), checked in one pass: every
// side the same handle and count (> 0) of a predefined contiguous type, an op
// with a kernel for it (or MPI_REPLACE / MPI_NO_OP), at most
// rma::kSmallAccumulate bytes, and the target as in quick_span. True when it
// was done; false when any of this does not hold, and then do_accumulate
// checks everything again and reports. A kernel exists only for a predefined
// op defined on the type, which is all op_arg asks, so no call is refused
// here. Why: the general path looks the op up three times and builds a
// std::string for the op check, then checks the sides again in rma::accumulate.
[[gnu::always_inline]] inline bool quick_accumulate(Call& call, MPI_Win win, const void* origin_addr,
                                                    int origin_count, MPI_Datatype origin_datatype,
                                                    void* result_addr, int result_count,
                                                    MPI_Datatype result_datatype, bool fetch, int target_rank,
                                                    MPI_Aint disp, int target_count, MPI_Datatype target_datatype,
                                                    MPI_Op op) {
  const bool no_op = op == MPI_NO_OP;
  if (target_count <= 0 || disp < 0) return false;
  if ((!no_op && origin_addr == nullptr) || (fetch && result_addr == nullptr)) return false;  // buffer_arg reports
  if (!no_op && (origin_datatype != target_datatype || origin_count != target_count)) return false;
  if (fetch && (result_datatype != target_datatype || result_count != target_count)) return false;
  rma::Window* w = quick_window(win, target_rank);
  if (w == nullptr) return false;
  const dtype::Datatype* t = dtype::lookup(target_datatype);
  if (t == nullptr || !t->committed || !t->predefined || !t->contiguous()) return false;
  const std::size_t n = std::size_t(target_count) * t->size;
  if (n > rma::kSmallAccumulate) return false;
  std::byte* at = rma::segment_span(*w, target_rank, disp, n);
  if (at == nullptr) return false;
  dtype::Kernel k = nullptr;
  if (!no_op && op != MPI_REPLACE && (k = rma::accumulate_kernel(op, t->basic)) == nullptr) return false;
  quick_noted(call, *w, target_datatype, target_count);
  rma::small_accumulate(*w, target_rank, at, no_op ? nullptr : origin_addr, fetch ? result_addr : nullptr, n,
                        std::size_t(target_count), k);
  return true;
}

// MPI_Compare_and_swap's usual call: a predefined type of the categories it
// takes, the target as in quick_span, no null buffer. The same contract as
// quick_accumulate (true: done; false: the general path checks and reports).
[[gnu::always_inline]] inline bool quick_compare_and_swap(Call& call, MPI_Win win, const void* origin_addr,
                                                          const void* compare_addr, void* result_addr,
                                                          MPI_Datatype datatype, int target_rank, MPI_Aint disp) {
  if (disp < 0 || origin_addr == nullptr || compare_addr == nullptr || result_addr == nullptr) return false;
  rma::Window* w = quick_window(win, target_rank);
  if (w == nullptr) return false;
  const dtype::Datatype* t = dtype::lookup(datatype);
  if (t == nullptr || !t->committed || !t->predefined || !t->contiguous() || t->size == 0 ||
      t->size > rma::kSmallAccumulate)
    return false;
  std::byte* at = rma::segment_span(*w, target_rank, disp, t->size);
  if (at == nullptr) return false;
  // The general path's type rule (MPI-3.1 §11.3.4), the common case first.
  if (!dtype::kernel_for(MPI_BAND, t->basic) && !dtype::kernel_for(MPI_LAND, t->basic)) return false;
  quick_noted(call, *w, datatype, 1);
  rma::small_compare_and_swap(*w, target_rank, at, origin_addr, compare_addr, result_addr, t->size);
  return true;
}

int op_arg(Call& call, MPI_Op op, const dtype::Datatype& t) {
  const std::string why = rma::accumulate_mismatch(op, t);
  if (why.empty()) {
    api::lenient_op(call, op, t);
    return MPI_SUCCESS;
  }
  // A datatype of several basic types (under a predefined op that combines)
  // is the datatype's fault: §11.3.4 restricts accumulate datatypes.
  const dtype::Op* o = dtype::lookup_op(op);
  if (o && !o->user() && t.size > 0 && t.basic == MPI_DATATYPE_NULL)
    return call.fail(MPI_ERR_TYPE, "argument target_datatype: %s", why.c_str());
  return call.fail(MPI_ERR_OP, "argument op: %s", why.c_str());
}

int done(Call& call, int code, const std::string& why) {
  if (code == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(code, "%s", why.c_str());
}

int request(Call& call, int code, MPI_Request* req) {
  if (code != MPI_SUCCESS) return code;
  if (p2p::start_completed(call.comm_handle(), 0, req) != MPI_SUCCESS)
    return call.fail(MPI_ERR_INTERN, "no request is free for this operation");
  return MPI_SUCCESS;
}

int do_put(Call& call, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, Form form) {
  Common c;
  if (int e = common(call, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                     target_datatype, form, &c))
    return e;
  if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (int e = buffer_arg(call, origin_addr, c.origin, "origin_addr", "origin_count")) return e;
  if (std::byte* at = contiguous_span(c, target_rank, target_disp)) {
    std::memcpy(at, origin_addr, std::size_t(c.origin.count) * c.origin.type->size);
    return MPI_SUCCESS;
  }
  std::string why;
  return done(call, rma::put(*c.w, c.origin, target_rank, target_disp, c.target, &why), why);
}

int do_get(Call& call, void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, Form form) {
  Common c;
  if (int e = common(call, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                     target_datatype, form, &c))
    return e;
  if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (int e = buffer_arg(call, origin_addr, c.origin, "origin_addr", "origin_count")) return e;
  if (const std::byte* at = contiguous_span(c, target_rank, target_disp)) {
    std::memcpy(origin_addr, at, std::size_t(c.origin.count) * c.origin.type->size);
    return MPI_SUCCESS;
  }
  std::string why;
  return done(call, rma::get(*c.w, origin_addr, c.origin, target_rank, target_disp, c.target, &why), why);
}

int do_accumulate(Call& call, const void* origin_addr, int origin_count, MPI_Datatype origin_datatype,
                  void* result_addr, int result_count, MPI_Datatype result_datatype, bool fetch, int target_rank,
                  MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                  Form form) {
  Common c;
  // With MPI_NO_OP the origin arguments are ignored (MPI-3.1 §11.3.4).
  if (int e = common(call, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                     target_datatype, form, &c, op != MPI_NO_OP))
    return e;
  if (int e = op_arg(call, op, *c.target.type)) return e;
  rma::Side result;
  if (fetch && result_datatype == target_datatype) {  // Fetch_and_op: one handle, looked up once
    if (int e = call.count(result_count, "result_count")) return e;
    result = rma::Side{result_addr, result_count, c.target.type};
  } else if (fetch) {
    if (int e = side(call, result_addr, result_count, result_datatype, "result_count", "result_datatype", &result))
      return e;
  }
  if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (op != MPI_NO_OP)
    if (int e = buffer_arg(call, origin_addr, c.origin, "origin_addr", "origin_count")) return e;
  if (fetch)
    if (int e = buffer_arg(call, result_addr, result, "result_addr", "result_count")) return e;
  std::string why;
  return done(call,
              rma::accumulate(*c.w, c.origin, result_addr, fetch ? &result : nullptr, target_rank, target_disp,
                              c.target, op, &why),
              why);
}

}  // namespace

extern "C" {

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  Call call("MPI_Put");
  std::size_t bytes;
  if (std::byte* at = quick_span(call, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                                 target_datatype, &bytes)) {
    rma::copy_small(at, origin_addr, bytes);
    return MPI_SUCCESS;
  }
  return do_put(call, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, Form::plain);
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  Call call("MPI_Get");
  std::size_t bytes;
  if (const std::byte* at = quick_span(call, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                       target_count, target_datatype, &bytes)) {
    rma::copy_small(origin_addr, at, bytes);
    return MPI_SUCCESS;
  }
  return do_get(call, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, Form::plain);
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  Call call("MPI_Accumulate");
  if (op == MPI_NO_OP) return call.fail(MPI_ERR_OP, "argument op: MPI_NO_OP is for MPI_Get_accumulate only");
  if (quick_accumulate(call, win, origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, false,
                       target_rank, target_disp, target_count, target_datatype, op))
    return MPI_SUCCESS;
  return do_accumulate(call, origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL, false,
                       target_rank, target_disp, target_count, target_datatype, op, win, Form::plain);
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  Call call("MPI_Get_accumulate");
  if (quick_accumulate(call, win, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                       result_datatype, true, target_rank, target_disp, target_count, target_datatype, op))
    return MPI_SUCCESS;
  return do_accumulate(call, origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype,
                       true, target_rank, target_disp, target_count, target_datatype, op, win, Form::plain);
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  Call call("MPI_Fetch_and_op");
  if (quick_accumulate(call, win, origin_addr, 1, datatype, result_addr, 1, datatype, true, target_rank, target_disp,
                       1, datatype, op))
    return MPI_SUCCESS;
  return do_accumulate(call, origin_addr, 1, datatype, result_addr, 1, datatype, true, target_rank, target_disp, 1,
                       datatype, op, win, Form::plain);
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
  Call call("MPI_Compare_and_swap");
  if (quick_compare_and_swap(call, win, origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp))
    return MPI_SUCCESS;
  Common c;
  if (int e = common(call, win, origin_addr, 1, datatype, target_rank, target_disp, 1, datatype, Form::plain, &c))
    return e;
  if (!c.target.type->predefined)
    return call.fail(MPI_ERR_TYPE, "argument datatype must be a predefined datatype (MPI-3.1 §11.3.4)");
  // §11.3.4: C integer, Fortran integer, Logical, Multi-language types or Byte
  // (and MPI_CHAR, accepted as a C integer as in the reductions): exactly the
  // types a bitwise or a logical reduction is defined for.
  if (c.target.type->size > 0 && !dtype::kernel_for(MPI_BAND, c.target.type->basic) &&
      !dtype::kernel_for(MPI_LAND, c.target.type->basic))
    return call.fail(MPI_ERR_TYPE,
                     "argument datatype=%s is not an integer, logical, multi-language or byte type, the types "
                     "MPI_Compare_and_swap takes (MPI-3.1 section 11.3.4)",
                     dtype::describe(datatype).c_str());
  if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (int e = call.not_null(origin_addr, "origin_addr")) return e;
  if (int e = call.not_null(compare_addr, "compare_addr")) return e;
  if (int e = call.not_null(result_addr, "result_addr")) return e;
  std::string why;
  return done(call,
              rma::compare_and_swap(*c.w, origin_addr, compare_addr, result_addr, *c.target.type, target_rank,
                                    target_disp, &why),
              why);
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request* request) {
  Call call("MPI_Rput");
  if (int e = call.not_null(request, "request")) return e;
  return ::request(call,
                   do_put(call, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, win, Form::request),
                   request);
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request* request) {
  Call call("MPI_Rget");
  if (int e = call.not_null(request, "request")) return e;
  return ::request(call,
                   do_get(call, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                          target_datatype, win, Form::request),
                   request);
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request* request) {
  Call call("MPI_Raccumulate");
  if (int e = call.not_null(request, "request")) return e;
  if (op == MPI_NO_OP) return call.fail(MPI_ERR_OP, "argument op: MPI_NO_OP is for MPI_Rget_accumulate only");
  return ::request(call,
                   do_accumulate(call, origin_addr, origin_count, origin_datatype, nullptr, 0, MPI_DATATYPE_NULL,
                                 false, target_rank, target_disp, target_count, target_datatype, op, win,
                                 Form::request),
                   request);
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                        MPI_Request* request) {
  Call call("MPI_Rget_accumulate");
  if (int e = call.not_null(request, "request")) return e;
  return ::request(call,
                   do_accumulate(call, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                                 result_datatype, true, target_rank, target_disp, target_count, target_datatype, op,
                                 win, Form::request),
                   request);
}

// The _c forms (MPI-4.1): counts beyond an int move as one element of a
// contiguous type of that many elements (api/large_count.hpp); the quick
// paths of the int forms are for small transfers and are skipped.

int MPI_Put_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win) {
  Call call("MPI_Put_c");
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return do_put(call, origin_addr, o.count, o.datatype, target_rank, target_disp, t.count, t.datatype, win,
                Form::plain);
}

int MPI_Get_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win) {
  Call call("MPI_Get_c");
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return do_get(call, origin_addr, o.count, o.datatype, target_rank, target_disp, t.count, t.datatype, win,
                Form::plain);
}

int MPI_Accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                     MPI_Win win) {
  Call call("MPI_Accumulate_c");
  if (op == MPI_NO_OP) return call.fail(MPI_ERR_OP, "argument op: MPI_NO_OP is for MPI_Get_accumulate only");
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return do_accumulate(call, origin_addr, o.count, o.datatype, nullptr, 0, MPI_DATATYPE_NULL, false, target_rank,
                       target_disp, t.count, t.datatype, op, win, Form::plain);
}

int MPI_Get_accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                         void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                         MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                         MPI_Win win) {
  Call call("MPI_Get_accumulate_c");
  api::Counted o, r, t;
  if (op != MPI_NO_OP)
    if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = r.set(call, result_count, result_datatype, "result_count", "result_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return do_accumulate(call, origin_addr, o.count, op == MPI_NO_OP ? origin_datatype : o.datatype, result_addr,
                       r.count, r.datatype, true, target_rank, target_disp, t.count, t.datatype, op, win,
                       Form::plain);
}

int MPI_Rput_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
               MPI_Request* request) {
  Call call("MPI_Rput_c");
  if (int e = call.not_null(request, "request")) return e;
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return ::request(call,
                   do_put(call, origin_addr, o.count, o.datatype, target_rank, target_disp, t.count, t.datatype, win,
                          Form::request),
                   request);
}

int MPI_Rget_c(void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
               MPI_Request* request) {
  Call call("MPI_Rget_c");
  if (int e = call.not_null(request, "request")) return e;
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return ::request(call,
                   do_get(call, origin_addr, o.count, o.datatype, target_rank, target_disp, t.count, t.datatype, win,
                          Form::request),
                   request);
}

int MPI_Raccumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win, MPI_Request* request) {
  Call call("MPI_Raccumulate_c");
  if (int e = call.not_null(request, "request")) return e;
  if (op == MPI_NO_OP) return call.fail(MPI_ERR_OP, "argument op: MPI_NO_OP is for MPI_Rget_accumulate only");
  api::Counted o, t;
  if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return ::request(call,
                   do_accumulate(call, origin_addr, o.count, o.datatype, nullptr, 0, MPI_DATATYPE_NULL, false,
                                 target_rank, target_disp, t.count, t.datatype, op, win, Form::request),
                   request);
}

int MPI_Rget_accumulate_c(const void* origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void* result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win, MPI_Request* request) {
  Call call("MPI_Rget_accumulate_c");
  if (int e = call.not_null(request, "request")) return e;
  api::Counted o, r, t;
  if (op != MPI_NO_OP)
    if (int e = o.set(call, origin_count, origin_datatype, "origin_count", "origin_datatype")) return e;
  if (int e = r.set(call, result_count, result_datatype, "result_count", "result_datatype")) return e;
  if (int e = t.set(call, target_count, target_datatype, "target_count", "target_datatype")) return e;
  return ::request(call,
                   do_accumulate(call, origin_addr, o.count, op == MPI_NO_OP ? origin_datatype : o.datatype,
                                 result_addr, r.count, r.datatype, true, target_rank, target_disp, t.count,
                                 t.datatype, op, win, Form::request),
                   request);
}

}  // extern "C"
