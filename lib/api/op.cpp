// Reduction operation handles and MPI_Reduce_local.
#include <algorithm>
#include <climits>

#include "api/call.hpp"
#include "api/lenient.hpp"
#include "dtype/kernels.hpp"
#include "dtype/op.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int valid_op(Call& call, MPI_Op h, const char* arg, const dtype::Op** out) {
  if (h == MPI_OP_NULL) return call.fail(MPI_ERR_OP, "argument %s is MPI_OP_NULL", arg);
  const dtype::Op* op = dtype::lookup_op(h);
  if (!op)
    return call.fail(MPI_ERR_OP, "argument %s=0x%x is not a valid operation (freed, or not an op handle)", arg,
                     static_cast<unsigned>(h));
  *out = op;
  return MPI_SUCCESS;
}

int reduce_local(Call& call, const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  if (int e = call.initialized()) return e;
  if (int e = call.count(count, "count")) return e;
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  const dtype::Op* o = nullptr;
  if (int e = valid_op(call, op, "op", &o)) return e;
  if (!dtype::op_applies(*o, *t)) return call.fail(MPI_ERR_OP, "%s", dtype::op_mismatch(op, *t).c_str());
  api::lenient_op(call, op, *t);
  if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
    return call.fail(MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in MPI_Reduce_local");
  if (count > 0 && t->size > 0 && inbuf == inoutbuf)
    return call.fail(MPI_ERR_BUFFER,
                     "arguments inbuf and inoutbuf are the same buffer (buffers may not alias, MPI-3.1 section 2.3)");
  if (count > 0 && t->size > 0 && t->predefined) {
    if (inbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument inbuf is NULL but count=%d", count);
    if (inoutbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument inoutbuf is NULL but count=%d", count);
  }
  // (The objects already looked up: the handle overload would look both up again.)
  if (int e = dtype::reduce(*o, inbuf, inoutbuf, count, *t, datatype))
    return call.fail(e, "%s cannot combine %s", dtype::op_name(op).c_str(), dtype::describe(datatype).c_str());
  return MPI_SUCCESS;
}

// The common call, done here without the general checks: a predefined op
// on a predefined type (one table load finds the loop, and says the op is
// defined on the type), two distinct non-null buffers (or count 0), no
// --check mode (its lenient-case warnings are reduce_local's). Returns
// false, having done nothing, for every other call, which reduce_local()
// then checks in full;
// a true return is MPI_SUCCESS.
[[gnu::always_inline]] inline bool fast_reduce_local(Call& call, const void* inbuf, void* inoutbuf, int count,
                                                      MPI_Datatype datatype, MPI_Op op) {
  const dtype::Kernel k = dtype::predefined_kernel(op, datatype);
  if (__builtin_expect(k == nullptr, 0)) return false;
  const core::Runtime& r = core::rt();
  if (__builtin_expect(r.phase != core::Phase::running || r.check_mode, 0)) return false;
  if (__builtin_expect(inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE, 0)) return false;
  if (count == 0) {  // nothing to combine, whatever the buffers
    call.note_type(datatype);
    call.count(0, "count");
    return true;
  }
  if (__builtin_expect(count < 0 || inbuf == inoutbuf || inbuf == nullptr || inoutbuf == nullptr, 0)) return false;
  call.note_type(datatype);
  call.count(count, "count");  // (notes it for the trace; count > 0 here)
  k(inbuf, inoutbuf, static_cast<std::size_t>(count));
  return true;
}

}  // namespace

extern "C" {

int MPI_Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
  Call call("MPI_Op_create");
  if (int e = call.initialized()) return e;
  if (user_fn == nullptr) return call.fail(MPI_ERR_ARG, "argument user_fn is NULL");
  if (int e = call.not_null(op, "op")) return e;
  const MPI_Op h = dtype::new_op(user_fn, commute != 0);
  if (h == MPI_OP_NULL) return call.fail(MPI_ERR_OTHER, "all op handles are in use (2^20); free ops no longer needed");
  *op = h;
  return MPI_SUCCESS;
}

int MPI_Op_create_c(MPI_User_function_c* user_fn, int commute, MPI_Op* op) {
  Call call("MPI_Op_create_c");
  if (int e = call.initialized()) return e;
  if (user_fn == nullptr) return call.fail(MPI_ERR_ARG, "argument user_fn is NULL");
  if (int e = call.not_null(op, "op")) return e;
  const MPI_Op h = dtype::new_op_c(user_fn, commute != 0);
  if (h == MPI_OP_NULL) return call.fail(MPI_ERR_OTHER, "all op handles are in use (2^20); free ops no longer needed");
  *op = h;
  return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op* op) {
  Call call("MPI_Op_free");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(op, "op")) return e;
  const dtype::Op* o = nullptr;
  if (int e = valid_op(call, *op, "op", &o)) return e;
  if (o->builtin != MPI_OP_NULL)
    return call.fail(MPI_ERR_OP, "argument op is %s, a predefined operation, which cannot be freed", o->name);
  dtype::free_op(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int* commute) {
  Call call("MPI_Op_commutative");
  if (int e = call.initialized()) return e;
  const dtype::Op* o = nullptr;
  if (int e = valid_op(call, op, "op", &o)) return e;
  if (int e = call.not_null(commute, "commute")) return e;
  *commute = o->commute ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  Call call("MPI_Reduce_local");
  if (fast_reduce_local(call, inbuf, inoutbuf, count, datatype, op)) return MPI_SUCCESS;
  return reduce_local(call, inbuf, inoutbuf, count, datatype, op);
}

// More than INT_MAX elements are combined a billion (2^30) at a time: a
// reduction is element by element, and a user function of MPI_Op_create
// must see the caller's datatype, never a type built here.
int MPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op) {
  Call call("MPI_Reduce_local_c");
  if (count < 0) return call.fail(MPI_ERR_COUNT, "argument count=%lld is negative", count);
  if (count <= INT_MAX) {
    if (fast_reduce_local(call, inbuf, inoutbuf, static_cast<int>(count), datatype, op)) return MPI_SUCCESS;
    return reduce_local(call, inbuf, inoutbuf, static_cast<int>(count), datatype, op);
  }
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  constexpr MPI_Count kChunk = MPI_Count(1) << 30;
  for (MPI_Count done = 0; done < count; done += kChunk) {
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(done) * t->extent;
    const int n = static_cast<int>(std::min(kChunk, count - done));
    if (int e = reduce_local(call, static_cast<const char*>(inbuf) + at, static_cast<char*>(inoutbuf) + at, n,
                             datatype, op))
      return e;
  }
  return MPI_SUCCESS;
}

}  // extern "C"
