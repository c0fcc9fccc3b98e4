#include "dtype/op.hpp"

#include <cstdio>
#include <cstring>

#include "dtype/kernels.hpp"
#include "dtype/walk.hpp"

namespace ringmpi::dtype {
namespace {

const char* const kOpNames[RMPI_PREDEFINED_OP_COUNT] = {
    "MPI_OP_NULL", "MPI_MAX",  "MPI_MIN",    "MPI_SUM",    "MPI_PROD",    "MPI_LAND",   "MPI_BAND", "MPI_LOR",
    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",   "MPI_MINLOC", "MPI_MAXLOC",  "MPI_REPLACE", "MPI_NO_OP"};

// Gives each contiguous piece of `in` (walked by the layout) together with
// the piece at the same place in `inout`, and the piece's stream offset.
template <class F>
struct PairedOp {
  std::uintptr_t in_base, io_base;
  F f;
  std::size_t pos = 0;
  bool operator()(std::uintptr_t p, std::size_t n) {
    f(reinterpret_cast<const std::byte*>(p), reinterpret_cast<std::byte*>(io_base + (p - in_base)), pos, n);
    pos += n;
    return true;
  }
  bool run(std::uintptr_t p, std::ptrdiff_t stride, std::size_t len, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i, p = advance(p, stride)) (*this)(p, len);
    return true;
  }
};

template <class F>
void each_piece(const void* in, void* inout, int count, const Datatype& t, F f) {
  PairedOp<F> op{reinterpret_cast<std::uintptr_t>(in), reinterpret_cast<std::uintptr_t>(inout), f};
  visit_stream(in, t, 0, std::size_t(count) * t.size, op);
}

std::string type_name(const Datatype& t) {
  if (!t.name.empty()) return t.name;
  return "a derived datatype";
}

}  // namespace

void install_predefined_ops(State& s) {
  for (int i = 1; i < RMPI_PREDEFINED_OP_COUNT; ++i) {
    auto op = std::make_unique<Op>();
    op->builtin = RMPI_HANDLE(RMPI_KIND_OP, i);
    op->name = kOpNames[i];
    s.ops.put_predefined(std::uint32_t(i), std::move(op));
  }
}

const Op* lookup_op(MPI_Op h) { return state().ops.get(h); }

MPI_Op new_op(MPI_User_function* fn, bool commute) {
  auto op = std::make_unique<Op>();
  op->fn = fn;
  op->commute = commute;
  return state().ops.add(std::move(op));
}

MPI_Op new_op_c(MPI_User_function_c* fn, bool commute) {
  auto op = std::make_unique<Op>();
  op->fn_c = fn;
  op->commute = commute;
  return state().ops.add(std::move(op));
}

void free_op(MPI_Op h) { state().ops.remove(h); }

std::string op_name(MPI_Op h) {
  const Op* op = lookup_op(h);
  if (op && op->builtin != MPI_OP_NULL) return op->name;
  char buf[48];
  std::snprintf(buf, sizeof buf, "user op 0x%x", unsigned(h));
  return buf;
}

bool op_applies(const Op& op, const Datatype& t) {
  if (op.builtin == MPI_OP_NULL) return true;  // user ops take any type
  if (op.builtin == MPI_REPLACE || op.builtin == MPI_NO_OP) return true;
  if (t.size == 0) return true;  // nothing to combine
  return predefined_kernel(op.builtin, t.basic) != nullptr;  // (none for MPI_DATATYPE_NULL)
}

std::string op_mismatch(MPI_Op h, const Datatype& t) {
  const Op* op = lookup_op(h);
  if (!op || op_applies(*op, t)) return "";
  if (t.basic == MPI_DATATYPE_NULL)
    return op_name(h) + " is not defined for " + type_name(t) +
           " that mixes several basic types; predefined ops need a datatype made of one predefined type";
  const Datatype* b = lookup(t.basic);
  // (Types of MPI_Type_create_f90_* are predefined but unnamed.)
  std::string what = t.predefined && !t.name.empty() ? t.name : type_name(t) + " built from " + b->name;
  return op_name(h) + " is not defined for " + what + " (MPI-3.1 section 5.9.2 lists the types of each op)";
}

int reduce(MPI_Op h, const void* in, void* inout, int count, MPI_Datatype type) {
  const Op* op = lookup_op(h);
  if (!op) return MPI_ERR_OP;
  const Datatype* t = lookup(type);
  if (!t) return MPI_ERR_TYPE;
  return reduce(*op, in, inout, count, *t, type);
}

int reduce(const Op& op, const void* in, void* inout, int count, const Datatype& t, MPI_Datatype type) {
  if (count <= 0) return MPI_SUCCESS;
  // The common case first: a predefined op on a predefined type (a user op
  // has no builtin handle, so no kernel).
  if (t.predefined) {
    if (const Kernel k = predefined_kernel(op.builtin, t.handle)) {
      k(in, inout, std::size_t(count));
      return MPI_SUCCESS;
    }
  }
  if (op.fn) {
    int len = count;
    MPI_Datatype dt = type;
    op.fn(const_cast<void*>(in), inout, &len, &dt);
    return MPI_SUCCESS;
  }
  if (op.fn_c) {
    MPI_Count len = count;
    MPI_Datatype dt = type;
    op.fn_c(const_cast<void*>(in), inout, &len, &dt);
    return MPI_SUCCESS;
  }
  const MPI_Op h = op.builtin;
  if (h == MPI_NO_OP || t.size == 0) return MPI_SUCCESS;
  if (h == MPI_REPLACE) {
    each_piece(in, inout, count, t,
               [](const std::byte* a, std::byte* b, std::size_t, std::size_t n) { std::memcpy(b, a, n); });
    return MPI_SUCCESS;
  }
  const Kernel k = predefined_kernel(h, t.basic);  // (none for MPI_DATATYPE_NULL: a mixed type)
  if (!k) return MPI_ERR_OP;
  if (t.predefined) {
    k(in, inout, std::size_t(count));
    return MPI_SUCCESS;
  }
  const Datatype& b = *lookup(t.basic);
  if (std::ptrdiff_t(b.size) == b.extent) {
    // Pieces hold whole elements back to back.
    each_piece(in, inout, count, t,
               [&](const std::byte* a, std::byte* io, std::size_t, std::size_t n) { k(a, io, n / b.size); });
  } else {
    // A padded pair type (MPI_DOUBLE_INT ...): its pieces may split or
    // join elements, so combine one element at each element start, where the
    // whole C struct lies.
    each_piece(in, inout, count, t, [&](const std::byte* a, std::byte* io, std::size_t pos, std::size_t n) {
      for (std::size_t s = (pos + b.size - 1) / b.size * b.size; s < pos + n; s += b.size)
        k(a + (s - pos), io + (s - pos), 1);
    });
  }
  return MPI_SUCCESS;
}

}  // namespace ringmpi::dtype
