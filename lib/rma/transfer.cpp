// RMA data movement (see transfer.hpp; shared-memory invariants: window.hpp).
//
// Where the target's memory is:
// - allocate / shared flavors: in the window's segment, mapped here, so a
//   put or get is one copy by the origin (memcpy, or pack/unpack for derived
//   datatypes), with no message and nothing done by the target;
// - create / dynamic flavors (user memory): this rank's own memory is
//   addressed directly; another rank's through process_vm_writev/readv, one
//   copy by the kernel between the two address spaces, again without the
//   target's help. A dynamic window's target range is first checked against
//   the target's attachment list (attach.hpp); a fault in the copy is
//   reported as MPI_ERR_RMA_RANGE as well.
// The accumulate family runs under the target's accumulate mutex
// (TargetCtl::acc): read the target, combine, write back; contiguous data in
// mapped memory is combined in place by the vectorised kernel in one pass
// (direct_accumulate).
#include "rma/transfer.hpp"

#include <sched.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/runtime.hpp"
#include "dtype/kernels.hpp"
#include "dtype/op.hpp"
#include "smsc/single_copy.hpp"

namespace ringmpi::rma {
namespace {

struct Where {
  std::byte* local = nullptr;  // set when the target memory is mapped here
  std::uintptr_t remote = 0;   // else: its address in process `pid`
  int pid = 0;
};

std::string str(long long v) { return std::to_string(v); }

// Resolves (target, disp) for (count, type) and checks the range.
int locate(const Window& w, int t, MPI_Aint disp, int count, const dtype::Datatype& type, Where* at,
           std::string* why) {
  const bool dynamic = w.flavor == Flavor::dynamic;
  const long long du = dynamic ? 1 : w.disp_unit[t];
  // Bytes [start + lo, start + hi) from the window's base that the operation
  // touches. A displacement or count so large that these overflow addresses
  // nothing any window has (and must not wrap around into memory that is).
  const bool empty = count == 0 || type.size == 0;
  long long start = 0, last = 0, lo = 0, hi = 0, first_byte = 0, end_byte = 0;
  const bool overflow = __builtin_mul_overflow(static_cast<long long>(disp), du, &start) ||
                        (!empty && (__builtin_mul_overflow(static_cast<long long>(count - 1), type.extent, &last) ||
                                    __builtin_add_overflow(std::min(0LL, last), type.true_lb, &lo) ||
                                    __builtin_add_overflow(std::max(0LL, last), type.true_ub(), &hi) ||
                                    __builtin_add_overflow(start, lo, &first_byte) ||
                                    __builtin_add_overflow(start, hi, &end_byte)));
  if (overflow) {
    *why = "target_disp " + str(disp) + " with target_count " + str(count) +
           " addresses bytes beyond any memory (the byte offset overflows) of rank " + str(t) + "'s window";
    return MPI_ERR_RMA_RANGE;
  }
  if (!dynamic && !empty && (first_byte < 0 || end_byte > static_cast<long long>(w.win_size[t]))) {
    *why = "target_disp " + str(disp) + " with target_count " + str(count) + " addresses bytes [" + str(first_byte) +
           ", " + str(end_byte) + ") of rank " + str(t) + "'s window memory, which has " +
           str(static_cast<long long>(w.win_size[t])) + " bytes";
    return MPI_ERR_RMA_RANGE;
  }
  const auto addr = static_cast<std::uintptr_t>(start);
  if (dynamic && !empty) {
    // The target's attachments are in the segment (attach.hpp): memory it
    // has mapped but not attached is refused here, not written.
    const auto a = static_cast<std::uintptr_t>(first_byte), b = static_cast<std::uintptr_t>(end_byte);
    if (!covers(w.attach[t], a, b)) {
      char span[96];
      std::snprintf(span, sizeof span, "%#llx with target_count %d addresses bytes [%#llx, %#llx)",
                    static_cast<unsigned long long>(disp), count, static_cast<unsigned long long>(a),
                    static_cast<unsigned long long>(b));
      *why = std::string("target_disp ") + span + ", which rank " + str(t) +
             " has not attached to the dynamic window (MPI_Win_attach)";
      return MPI_ERR_RMA_RANGE;
    }
  }
  switch (w.flavor) {
    case Flavor::allocate:
    case Flavor::shared:
      at->local = w.memory_of(t) + start;
      break;
    case Flavor::create:
      if (t == w.rank)
        at->local = reinterpret_cast<std::byte*>(w.base[t] + addr);
      else
        at->remote = w.base[t] + addr;
      break;
    case Flavor::dynamic:
      if (t == w.rank)
        at->local = reinterpret_cast<std::byte*>(addr);
      else
        at->remote = addr;
      break;
  }
  at->pid = w.pid[t];
  return MPI_SUCCESS;
}

// Moves `bytes` packed bytes to (write) or from (read) the remote target,
// iovec by iovec as the target type lays them out.
int remote_io(bool write, const Where& at, int count, const dtype::Datatype& t, std::byte* packed, std::size_t bytes,
              int target, std::string* why) {
  constexpr std::size_t kMaxIov = 64;
  iovec riov[kMaxIov];
  std::size_t off = 0;
  while (off < bytes) {
    std::size_t covered = 0;
    const std::size_t k =
        dtype::to_iov(reinterpret_cast<const void*>(at.remote), count, t, off, bytes - off, riov, kMaxIov, &covered);
    const iovec liov{packed + off, covered};
    // Short counts and the kernel's errors: lib/smsc (kNoData: nothing moved).
    const smsc::Dir dir = write ? smsc::Dir::write : smsc::Dir::read;
    const int err = covered == 0 ? smsc::kNoData : smsc::copyv(dir, at.pid, &liov, 1, riov, k, covered);
    if (err) {
      if (err == EFAULT || err == smsc::kNoData) {
        *why = "rank " + str(target) + "'s window has no memory at the target address";
        return MPI_ERR_RMA_RANGE;
      }
      *why = std::string("the kernel refused to copy ") + (write ? "into" : "from") + " rank " + str(target) +
             "'s memory (" + std::strerror(err) +
             "); windows over user memory need process_vm_readv/writev (use MPI_Win_allocate instead)";
      return MPI_ERR_OTHER;
    }
    off += covered;
  }
  return MPI_SUCCESS;
}

int write_target(const Where& at, const Side& tgt, const std::byte* packed, std::size_t bytes, int target,
                 std::string* why) {
  if (bytes == 0) return MPI_SUCCESS;
  if (at.local) {
    dtype::unpack(at.local, tgt.count, *tgt.type, 0, packed, bytes);
    return MPI_SUCCESS;
  }
  return remote_io(true, at, tgt.count, *tgt.type, const_cast<std::byte*>(packed), bytes, target, why);
}

int read_target(const Where& at, const Side& tgt, std::byte* packed, std::size_t bytes, int target, std::string* why) {
  if (bytes == 0) return MPI_SUCCESS;
  if (at.local) {
    dtype::pack(at.local, tgt.count, *tgt.type, 0, packed, bytes);
    return MPI_SUCCESS;
  }
  return remote_io(false, at, tgt.count, *tgt.type, packed, bytes, target, why);
}

std::size_t bytes_of(const Side& s) { return std::size_t(s.count) * s.type->size; }

// MPI-3.1 §11.3.1: a put moves data as a send of the origin buffer into a
// receive of the target buffer would, so "the message sent must fit, without
// truncation, in the target buffer" -- it may be shorter, and then only the
// first bytes of the target buffer (in its type's order) change. A get is the
// same with the direction reversed, an accumulate is like a put (§11.3.4),
// and a get-accumulate's result buffer receives the whole target buffer.
// Refuses `data` (what moves) when it is longer than `room` (where it goes).
int fits(const Side& data, const char* data_name, const Side& room, const char* room_name, std::string* why) {
  if (bytes_of(data) <= bytes_of(room)) return MPI_SUCCESS;
  *why = std::string(data_name) + " describes " + str(static_cast<long long>(bytes_of(data))) + " bytes but " +
         room_name + " only " + str(static_cast<long long>(bytes_of(room))) +
         "; the data must fit without truncation (MPI-3.1 §11.3.1)";
  return MPI_ERR_TRUNCATE;
}

// Scratch bytes for one operation: on the stack when small (an atomic
// counter's Fetch_and_op must not pay for malloc), else on the heap. 16-byte
// aligned, as the reduction kernels' widest basic type needs.
class Scratch {
 public:
  // Left uninitialised (new std::byte[n], not a vector's zero fill): every
  // byte used is written first, and a zero fill of a 1 MiB scratch cost as
  // much as the accumulate itself.
  explicit Scratch(std::size_t n) {
    if (n > sizeof inline_) heap_.reset(new std::byte[n]);
  }
  std::byte* data() { return heap_ ? heap_.get() : inline_; }

 private:
  alignas(16) std::byte inline_[256];
  std::unique_ptr<std::byte[]> heap_;
};

// The target's accumulate mutex; held for one whole operation.
class AccGuard {
 public:
  explicit AccGuard(TargetCtl& c) : c_(c) {
    for (int spins = 0; c_.acc.exchange(1, std::memory_order_acquire) != 0; ++spins)
      if (spins > 64) sched_yield();
  }
  ~AccGuard() { c_.acc.store(0, std::memory_order_release); }
  AccGuard(const AccGuard&) = delete;
  AccGuard& operator=(const AccGuard&) = delete;

 private:
  TargetCtl& c_;
};

// The basic type whose kernel combines accumulate data of basic type `basic`.
// MPI_BYTE has only the bitwise ops in MPI-3.1 section 5.9.2; for the other
// arithmetic ops the accumulate calls treat it as MPI_UNSIGNED_CHAR, as MPICH
// and Open MPI do (mpi4py probes MPI_Fetch_and_op and MPI_Get_accumulate with
// MPI_BYTE and its default op MPI_SUM). Reductions stay as the standard says.
MPI_Datatype accumulate_basic(MPI_Op op, MPI_Datatype basic) {
  if (basic == MPI_BYTE && dtype::kernel_for(op, MPI_BYTE) == nullptr) return MPI_UNSIGNED_CHAR;
  return basic;
}

// cur = in op cur, for `bytes` of packed data of basic type `basic` on each
// side. The kernels (dtype::reduce) work on their type's C layout, which is
// the packed one except for the MINLOC/MAXLOC pair types with padding
// (MPI_DOUBLE_INT: 12 bytes in a 16-byte struct; MPI_SHORT_INT: padding
// between the short and the int): those are unpacked into that layout first
// and packed back after. Reducing the packed bytes directly read and wrote
// past them (a 2-element MPI_DOUBLE_INT accumulate lost the second index).
int combine(MPI_Op op, MPI_Datatype basic, const std::byte* in, std::byte* cur, std::size_t bytes) {
  const dtype::Datatype& b = *dtype::lookup(basic);
  const int n = static_cast<int>(bytes / b.size);
  if (std::ptrdiff_t(b.size) == b.extent) return dtype::reduce(op, in, cur, n, basic);
  const std::size_t laid = std::size_t(n) * static_cast<std::size_t>(b.extent);
  Scratch lin(laid), lcur(laid);
  dtype::unpack(lin.data(), n, b, 0, in, bytes);
  dtype::unpack(lcur.data(), n, b, 0, cur, bytes);
  if (int e = dtype::reduce(op, lin.data(), lcur.data(), n, basic)) return e;
  dtype::pack(lcur.data(), n, b, 0, cur, bytes);
  return MPI_SUCCESS;
}

// The accumulate-family case of an atomic counter (Fetch_and_op, or an
// Accumulate / Get_accumulate of a few elements): one predefined contiguous
// type on every side, target memory mapped here, at most 256 bytes. (The
// MINLOC/MAXLOC pair types are predefined but some have padding, e.g.
// MPI_DOUBLE_INT: 12 bytes in a 16-byte extent, so count x size bytes are
// not their layout; they take the general path.) No packing and no
// second op lookup: the kernel runs on aligned copies (the target bytes may
// be unaligned), under the accumulate mutex like the general path. False
// when it does not apply; the general path then does the work.
bool small_accumulate(Window& w, const Side& origin, void* result_buf, const Side* result, int target,
                      const Where& at, const Side& tgt, MPI_Op op, std::size_t bytes) {
  const bool no_op = op == MPI_NO_OP, replace = op == MPI_REPLACE;
  if (at.local == nullptr || bytes > kSmallAccumulate || !tgt.type->predefined || !tgt.type->contiguous() ||
      (!no_op && origin.type != tgt.type) || (result && result->type != tgt.type))
    return false;
  const dtype::Kernel k = no_op || replace ? nullptr : accumulate_kernel(op, tgt.type->basic);
  if (!no_op && !replace && k == nullptr) return false;
  small_accumulate(w, target, at.local, no_op ? nullptr : origin.buf, result ? result_buf : nullptr, bytes,
                   static_cast<std::size_t>(tgt.count), k);
  return true;
}

// Whether [a, a + an) and [b, b + bn) share a byte.
bool overlap(const void* a, std::size_t an, const void* b, std::size_t bn) {
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return an > 0 && bn > 0 && x < y + bn && y < x + an;
}

// The alignment the kernel of a basic type of `size` bytes may assume: the
// largest power of two dividing the size, at most 16 (a type's alignment
// divides its size).
bool aligned_for(const void* p, std::size_t size) {
  const std::size_t a = std::min<std::size_t>(size & (~size + 1), 16);
  return (reinterpret_cast<std::uintptr_t>(p) & (a - 1)) == 0;
}

// An accumulate of any size over contiguous data (origin, target and result
// contiguous, the target memory mapped here) of a basic type whose C layout
// is its packed one: the vectorised kernel combines the origin buffer
// straight into the target memory, in one pass under the target's
// accumulate mutex -- atomic with respect to every other accumulate on that
// target as before (MPI-3.1 §11.7.1), without packing into scratch, reading
// the target into a copy and writing it back (five passes over the data,
// osu_acc_latency 1 MiB took 26x Open MPI's time). MPI_REPLACE is one
// memcpy, MPI_NO_OP (fetch only) one memcpy out. False when it does not
// apply (buffers that overlap, misaligned for the kernel, memory of another
// process, a padded pair type): the general path then does the work.
bool direct_accumulate(Window& w, const Side& origin, void* result_buf, const Side* result, int target,
                       const Where& at, const Side& tgt, MPI_Op op, std::size_t bytes, std::size_t obytes) {
  const bool no_op = op == MPI_NO_OP, replace = op == MPI_REPLACE;
  if (at.local == nullptr || !tgt.type->contiguous() || (!no_op && !origin.type->contiguous()) ||
      (result && !result->type->contiguous()))
    return false;
  if (overlap(origin.buf, obytes, at.local, bytes) || (result && overlap(result_buf, bytes, at.local, bytes)) ||
      (result && overlap(result_buf, bytes, origin.buf, obytes)))
    return false;
  dtype::Kernel k = nullptr;
  std::size_t n = 0;
  if (!no_op && !replace) {
    const MPI_Datatype basic = accumulate_basic(op, tgt.type->basic);
    const dtype::Datatype* b = dtype::lookup(basic);
    if (b == nullptr || b->size == 0 || std::ptrdiff_t(b->size) != b->extent || obytes % b->size != 0) return false;
    if (!aligned_for(at.local, b->size) || !aligned_for(origin.buf, b->size)) return false;
    if ((k = dtype::kernel_for(op, basic)) == nullptr) return false;
    n = obytes / b->size;
  }
  core::count(core::Counter::acc_direct);
  AccGuard guard(w.ctl[target]);
  if (result) std::memcpy(result_buf, at.local, bytes);
  if (no_op) return true;
  if (replace)
    std::memcpy(at.local, origin.buf, obytes);
  else
    k(origin.buf, at.local, n);
  return true;
}

}  // namespace

dtype::Kernel accumulate_kernel(MPI_Op op, MPI_Datatype basic) {
  return dtype::kernel_for(op, accumulate_basic(op, basic));
}

void small_accumulate(Window& w, int target, std::byte* at, const void* origin, void* result, std::size_t bytes,
                      std::size_t count, dtype::Kernel k) {
  alignas(16) std::byte cur[kSmallAccumulate], in[kSmallAccumulate];
  // The kernel runs on aligned copies: the target bytes and the user's
  // buffers may be unaligned.
  if (k) copy_small(in, origin, bytes);
  AccGuard guard(w.ctl[target]);
  if (result || k) copy_small(cur, at, bytes);
  if (result) copy_small(result, cur, bytes);
  if (origin == nullptr) return;  // MPI_NO_OP
  if (k == nullptr) {  // MPI_REPLACE
    copy_small(at, origin, bytes);
    return;
  }
  k(in, cur, count);
  copy_small(at, cur, bytes);
}

void small_compare_and_swap(Window& w, int target, std::byte* at, const void* origin, const void* compare,
                            void* result, std::size_t bytes) {
  alignas(16) std::byte cur[kSmallAccumulate];
  AccGuard guard(w.ctl[target]);
  copy_small(cur, at, bytes);
  copy_small(result, cur, bytes);
  if (std::memcmp(cur, compare, bytes) == 0) copy_small(at, origin, bytes);
}

std::string accumulate_mismatch(MPI_Op op, const dtype::Datatype& t) {
  const dtype::Op* o = dtype::lookup_op(op);
  if (o == nullptr) return "op is not a valid operation";
  if (o->user()) return "user-defined operations cannot be used in accumulate calls (MPI-3.1 §11.3.4)";
  if (op == MPI_REPLACE || op == MPI_NO_OP) return "";
  if (t.size == 0) return "";  // no basic component: nothing to combine, nothing to mismatch
  if (t.basic == MPI_DATATYPE_NULL)
    return "accumulate datatypes must be made of a single predefined datatype (MPI-3.1 §11.3.4)";
  if (dtype::kernel_for(op, accumulate_basic(op, t.basic)) != nullptr) return "";  // defined: no sentence to build
  return dtype::op_mismatch(op, t);
}

int put(Window& w, const Side& origin, int target, MPI_Aint disp, const Side& tgt, std::string* why) {
  if (int e = fits(origin, "origin_count x origin_datatype", tgt, "target_count x target_datatype", why)) return e;
  Where at;
  if (int e = locate(w, target, disp, tgt.count, *tgt.type, &at, why)) return e;
  const std::size_t bytes = bytes_of(origin);
  if (bytes == 0) return MPI_SUCCESS;
  if (origin.type->contiguous()) {
    if (at.local && tgt.type->contiguous()) {
      std::memcpy(at.local, origin.buf, bytes);
      return MPI_SUCCESS;
    }
    return write_target(at, tgt, static_cast<const std::byte*>(origin.buf), bytes, target, why);
  }
  if (at.local && tgt.type->contiguous()) {
    dtype::pack(origin.buf, origin.count, *origin.type, 0, at.local, bytes);
    return MPI_SUCCESS;
  }
  Scratch tmp(bytes);
  dtype::pack(origin.buf, origin.count, *origin.type, 0, tmp.data(), bytes);
  return write_target(at, tgt, tmp.data(), bytes, target, why);
}

int get(Window& w, void* origin_buf, const Side& origin, int target, MPI_Aint disp, const Side& tgt,
        std::string* why) {
  if (int e = fits(tgt, "target_count x target_datatype", origin, "origin_count x origin_datatype", why)) return e;
  Where at;
  if (int e = locate(w, target, disp, tgt.count, *tgt.type, &at, why)) return e;
  const std::size_t bytes = bytes_of(tgt);
  if (bytes == 0) return MPI_SUCCESS;
  if (origin.type->contiguous()) {
    if (at.local && tgt.type->contiguous()) {
      std::memcpy(origin_buf, at.local, bytes);
      return MPI_SUCCESS;
    }
    return read_target(at, tgt, static_cast<std::byte*>(origin_buf), bytes, target, why);
  }
  if (at.local && tgt.type->contiguous()) {
    dtype::unpack(origin_buf, origin.count, *origin.type, 0, at.local, bytes);
    return MPI_SUCCESS;
  }
  Scratch tmp(bytes);
  if (int e = read_target(at, tgt, tmp.data(), bytes, target, why)) return e;
  dtype::unpack(origin_buf, origin.count, *origin.type, 0, tmp.data(), bytes);
  return MPI_SUCCESS;
}

int accumulate(Window& w, const Side& origin, void* result_buf, const Side* result, int target, MPI_Aint disp,
               const Side& tgt, MPI_Op op, std::string* why) {
  const bool no_op = op == MPI_NO_OP;
  if (!no_op) {
    if (int e = fits(origin, "origin_count x origin_datatype", tgt, "target_count x target_datatype", why)) return e;
    // A zero-size side (count 0 or a type of size 0) has no basic component to
    // disagree with: nothing is combined.
    if (op != MPI_REPLACE && bytes_of(origin) > 0 && origin.type->basic != tgt.type->basic) {
      *why = "origin_datatype and target_datatype are not made of the same predefined datatype";
      return MPI_ERR_TYPE;
    }
  }
  if (result)
    if (int e = fits(tgt, "target_count x target_datatype", *result, "result_count x result_datatype", why)) return e;
  // The result gets the whole target buffer; the origin's data (`obytes`,
  // possibly fewer) combines into the target buffer's first bytes.
  const std::size_t bytes = bytes_of(tgt), obytes = no_op ? 0 : bytes_of(origin);
  Where at;
  // Segment memory and a contiguous target: the inline range check will do.
  at.local = tgt.type->contiguous() && bytes > 0 ? segment_span(w, target, disp, bytes) : nullptr;
  if (at.local == nullptr)
    if (int e = locate(w, target, disp, tgt.count, *tgt.type, &at, why)) return e;
  if (bytes == 0) return MPI_SUCCESS;
  if ((no_op || obytes == bytes) && small_accumulate(w, origin, result_buf, result, target, at, tgt, op, bytes))
    return MPI_SUCCESS;
  if (direct_accumulate(w, origin, result_buf, result, target, at, tgt, op, bytes, obytes)) return MPI_SUCCESS;

  const std::size_t read = result ? bytes : (op != MPI_REPLACE && !no_op ? obytes : 0);
  Scratch cur(read), in(obytes);
  if (obytes > 0) dtype::pack(origin.buf, origin.count, *origin.type, 0, in.data(), obytes);
  AccGuard guard(w.ctl[target]);
  if (read > 0)
    if (int e = read_target(at, tgt, cur.data(), read, target, why)) return e;
  if (result) dtype::unpack(result_buf, result->count, *result->type, 0, cur.data(), bytes);
  if (no_op) return MPI_SUCCESS;
  if (op == MPI_REPLACE) return write_target(at, tgt, in.data(), obytes, target, why);
  const MPI_Datatype basic = accumulate_basic(op, tgt.type->basic);
  const int e = combine(op, basic, in.data(), cur.data(), obytes);
  if (e != MPI_SUCCESS) {
    *why = "op " + dtype::op_name(op) + " cannot combine data of " + dtype::describe(basic);
    return e;
  }
  return write_target(at, tgt, cur.data(), obytes, target, why);
}

int compare_and_swap(Window& w, const void* origin, const void* compare, void* result, const dtype::Datatype& t,
                     int target, MPI_Aint disp, std::string* why) {
  Where at;
  if (int e = locate(w, target, disp, 1, t, &at, why)) return e;
  const Side one{nullptr, 1, &t};
  const std::size_t bytes = t.size;
  Scratch cur(bytes);
  AccGuard guard(w.ctl[target]);
  if (int e = read_target(at, one, cur.data(), bytes, target, why)) return e;
  std::memcpy(result, cur.data(), bytes);
  if (std::memcmp(cur.data(), compare, bytes) != 0) return MPI_SUCCESS;
  return write_target(at, one, static_cast<const std::byte*>(origin), bytes, target, why);
}

}  // namespace ringmpi::rma
