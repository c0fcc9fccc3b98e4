// Typed messages for the collectives: (buf, count, datatype) moved as the
// datatype's packed byte stream over the internal point-to-point calls on a
// communicator's coll_context(). Contiguous layouts go without a copy.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "comm/comm.hpp"
#include "core/scratch_pool.hpp"
#include "dtype/datatype.hpp"

namespace ringmpi::coll {

// Tags of the user-level collectives on coll_context() (see exchange/tags.hpp for
// the library-internal ones, which stay above -100).
inline constexpr int kTagUserBcast = -101;
inline constexpr int kTagUserGather = -102;
inline constexpr int kTagUserScatter = -103;
inline constexpr int kTagUserAlltoall = -104;
inline constexpr int kTagUserReduce = -105;
inline constexpr int kTagUserScan = -106;
inline constexpr int kTagUserAllreduce = -107;

struct Typed {
  const void* buf;
  int count;
  const dtype::Datatype* type;
  std::size_t bytes() const { return static_cast<std::size_t>(count) * type->size; }
  // The address of element i (elements are `extent` apart).
  const std::byte* at(std::ptrdiff_t i) const { return static_cast<const std::byte*>(buf) + i * type->extent; }
};

// The block of `count` elements of t that starts `displ` elements into
// base (a v form's block i: displs[i], counts[i]).
inline Typed block(const void* base, const dtype::Datatype& t, int displ, int count) {
  return {static_cast<const std::byte*>(base) + static_cast<std::ptrdiff_t>(displ) * t.extent, count, &t};
}

// The packed stream of t (a view of t's own memory when contiguous).
class Packed {
 public:
  explicit Packed(const Typed& t);
  const void* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::vector<std::byte> copy_;
  const void* data_;
  std::size_t size_;
};

void send_typed(const comm::Comm& c, int dest, int tag, const Typed& t);
// Receives into t; returns the bytes received (at most t.bytes()).
std::size_t recv_typed(const comm::Comm& c, int src, int tag, const Typed& t);
// Local copy between two typed buffers of the same signature.
void copy_typed(const Typed& from, const Typed& to);

void send_bytes(const comm::Comm& c, int dest, int tag, const void* data, std::size_t n);
std::size_t recv_bytes(const comm::Comm& c, int src, int tag, void* data, std::size_t max);

// Binomial-tree broadcast of n bytes from root (n known on every rank).
void bcast_bytes(const comm::Comm& c, int root, void* data, std::size_t n);

// The memory `count` elements of t touch: `bytes` from `offset` (relative to
// the buffer address; negative for a negative lower bound).
struct Footprint {
  std::ptrdiff_t offset;
  std::size_t bytes;
};
// (Inline, with Scratch's constructor and destructor: a 4-byte scan made
// three calls of them, about 55 instructions of a call's 1100.)
inline Footprint footprint(int count, const dtype::Datatype& t) {
  // Elements span [true_lb, (count-1)*extent + true_lb + true_extent).
  const std::ptrdiff_t span = count > 0 ? (count - 1) * t.extent + t.true_extent : 0;
  const std::ptrdiff_t lo = std::min<std::ptrdiff_t>(t.true_lb, t.true_lb + (count > 0 ? (count - 1) * t.extent : 0));
  const std::ptrdiff_t hi = std::max<std::ptrdiff_t>(t.true_lb + span, t.true_lb + t.true_extent);
  return {lo, static_cast<std::size_t>(std::max<std::ptrdiff_t>(hi - lo, 1))};
}

// Storage for `count` elements of a type laid out as in user memory, for
// reduction operands: base() is the address of element 0. Small footprints
// live in the object itself (a loop of small reductions or scans then makes
// no heap allocation: malloc and free were a sixth of a 4-byte MPI_Exscan's
// instructions, callgrind); larger ones come from the engine's scratch pool
// (core/scratch_pool.hpp). Not zeroed.
class Scratch {
 public:
  Scratch(int count, const dtype::Datatype& t) : count_(count), type_(&t) {
    const Footprint f = footprint(count, t);
    offset_ = f.offset;
    block_ = f.bytes <= kInlineBytes ? core::ScratchPool::Block{inline_, kInlineBytes} : take(f.bytes);
  }
  ~Scratch() {
    if (block_.p != inline_) give(block_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  void* base() { return block_.p - offset_; }
  Typed typed() { return {base(), count_, type_}; }

 private:
  static constexpr std::size_t kInlineBytes = 256;
  // The engine's scratch pool (p2p::scratch()), out of line.
  static core::ScratchPool::Block take(std::size_t bytes);
  static void give(core::ScratchPool::Block b);
  core::ScratchPool::Block block_;  // block_.p == inline_ when the footprint fits
  std::ptrdiff_t offset_;
  int count_;
  const dtype::Datatype* type_;
  alignas(std::max_align_t) std::byte inline_[kInlineBytes];
};

}  // namespace ringmpi::coll
