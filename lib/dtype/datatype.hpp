// Datatypes: the layout of one element, and the typed byte stream that
// point-to-point moves.
//
// The "stream" of (buf, count, type) is the concatenation of the type's data
// bytes for count elements, in type-map order; pack/unpack/to_iov address it
// by byte offset so that transports can move it in pieces.
//
// A type's layout is a small tree (layout.hpp) that stays compact for large
// regular types (a vector of 1e6 blocks is one node); `blocks` is the same
// layout flattened into merged (offset, length) blocks, filled at commit when
// it has at most kMaxFlatBlocks entries and left EMPTY otherwise (commit
// stops flattening there: its cost must not grow with the type's size;
// flattening 64K blocks made a commit take 1.5 ms, MPICH perf/twovec). Transports
// must therefore use contiguous(), pack(), unpack() and to_iov(), never walk
// `blocks` themselves.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/attributes.hpp"
#include "core/handle.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

namespace ringmpi::dtype {

struct Block {
  std::ptrdiff_t offset;  // from the element's start (buf + i*extent)
  std::size_t length;
};

struct Node;  // layout.hpp
using NodePtr = std::shared_ptr<const Node>;

struct Datatype;
// Types are shared: a handle, the derived types built from it and the handles
// MPI_Type_get_contents returns all hold the same object, so freeing a handle
// never invalidates a type still in use.
using TypePtr = std::shared_ptr<Datatype>;

// How a type was made: the arguments MPI_Type_get_envelope/get_contents report.
struct Envelope {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<TypePtr> types;
  // A type made by a large-count constructor (MPI_Type_*_c) with a value
  // that does not fit an int: its counts and displacements, in the order
  // MPI-4.1's get_contents_c returns them (then `addrs` is empty and `ints`
  // holds only the int arguments, e.g. subarray's ndims and order).
  std::vector<MPI_Count> counts;
  // Block length i of a struct, whichever constructor made it.
  MPI_Count struct_blocklength(std::size_t i) const { return counts.empty() ? ints[i + 1] : counts[i + 1]; }
};

inline constexpr std::size_t kMaxFlatBlocks = 64;

struct Datatype {
  std::size_t size = 0;        // data bytes of one element
  std::ptrdiff_t lb = 0, extent = 0;
  std::ptrdiff_t true_lb = 0, true_extent = 0;
  bool committed = false;
  bool predefined = false;
  std::vector<Block> blocks;   // flattened, merged, in type-map order (see above: may be empty)
  std::string name;
  // Mutable so that attribute caching can work through the const pointer
  // lookup() returns; nothing else about a type changes after creation.
  mutable core::AttributeSet attrs;
  // One element is one block at offset 0 of length extent: (buf,count) is
  // buf[0 .. count*size) and moves without packing.
  bool contiguous() const { return blocks.size() == 1 && blocks[0].offset == 0 && std::ptrdiff_t(size) == extent; }

  NodePtr layout;              // the compact layout of one element
  bool lb_marker = false;      // bounds set explicitly (MPI_Type_create_resized), MPI-3.1 §4.1.7
  bool ub_marker = false;
  std::size_t align = 1;       // largest alignment of its basic types (the struct epsilon rule)
  MPI_Count elements = 0;      // basic elements in one element (a pair type counts 2)
  MPI_Datatype basic = MPI_DATATYPE_NULL;  // the one predefined type all data is made of, if any
  MPI_Datatype handle = MPI_DATATYPE_NULL; // predefined types only: their fixed handle
  Envelope env;
  int handle_refs = 0;         // live user handles naming this object (attributes die with the last)

  std::ptrdiff_t ub() const { return lb + extent; }
  std::ptrdiff_t true_ub() const { return true_lb + true_extent; }
};

// A reduction operation (functions in op.hpp).
struct Op {
  MPI_User_function* fn = nullptr;  // user ops only
  MPI_User_function_c* fn_c = nullptr;  // user ops of MPI_Op_create_c (a pointer to an MPI_Count length)
  bool user() const { return fn != nullptr || fn_c != nullptr; }
  bool commute = true;
  MPI_Op builtin = MPI_OP_NULL;     // predefined ops: their handle
  const char* name = "";
};

// Datatype handles. Each slot holds a shared reference; get() gives the
// object (mutable, for attribute caching), get_shared() the reference.
class TypeTable {
 public:
  Datatype* get(int h) const {
    const TypePtr* p = table_.get(h);
    return p ? p->get() : nullptr;
  }
  TypePtr get_shared(int h) const {
    const TypePtr* p = table_.get(h);
    return p ? *p : nullptr;
  }
  bool is_predefined(int h) const { return table_.is_predefined(h); }
  int put_predefined(std::uint32_t index, TypePtr t) {
    return table_.put_predefined(index, std::make_unique<TypePtr>(std::move(t)));
  }
  int add(TypePtr t) { return table_.add(std::make_unique<TypePtr>(std::move(t))); }
  TypePtr remove(int h) {
    std::unique_ptr<TypePtr> p = table_.remove(h);
    return p ? *p : nullptr;
  }
  std::size_t live() const { return table_.live(); }
  template <class F>
  void for_each(F&& f) const {
    table_.for_each([&](int h, const TypePtr& p) { f(h, *p); });
  }

 private:
  core::HandleTable<TypePtr> table_{core::Kind::datatype};
};

struct State {
  State();   // installs the predefined types and ops
  ~State();
  TypeTable table;
  core::HandleTable<Op> ops{core::Kind::op};
  // The types of MPI_Type_create_f90_* by (combiner, p, r): one handle each (fortran.hpp).
  std::map<std::tuple<int, int, int>, MPI_Datatype> f90_types;
};
State& make_state();
inline State& state() {
  auto& p = core::rt().dtypes;
  return __builtin_expect(p != nullptr, 1) ? *p : make_state();
}

// The datatype behind h, or nullptr for an invalid/freed handle.
inline const Datatype* lookup(MPI_Datatype h) { return state().table.get(h); }
// The shared object behind h (nullptr for invalid handles): hold it to keep
// a type alive across MPI_Type_free (a pending request, a collective).
TypePtr lookup_shared(MPI_Datatype h);
// "MPI_INT", or "datatype 0x4c100005 'name'" for messages.
std::string describe(MPI_Datatype h);
// A new user handle for t (MPI_DATATYPE_NULL when the table is full).
MPI_Datatype new_handle(TypePtr t);
// Drops handle h (not a predefined one); the object lives on while used.
void release_handle(MPI_Datatype h);
// Marks t committed and fills t.blocks (MPI_Type_commit).
void commit(Datatype& t);

// Copies stream bytes [offset, offset+bytes) of (buf,count,type) to dst.
void pack(const void* buf, int count, const Datatype& t, std::size_t offset, void* dst, std::size_t bytes);
// Copies src into stream bytes [offset, offset+bytes) of (buf,count,type).
void unpack(void* buf, int count, const Datatype& t, std::size_t offset, const void* src, std::size_t bytes);
// Describes stream bytes [offset, offset+bytes) of (buf,count,type) as at most
// maxiov iovecs; returns how many were filled and sets *covered to the bytes
// they cover (less than `bytes` when maxiov ran out).
std::size_t to_iov(const void* buf, int count, const Datatype& t, std::size_t offset, std::size_t bytes,
                   iovec* iov, std::size_t maxiov, std::size_t* covered);

}  // namespace ringmpi::dtype
