// What the segment collectives (seg_movement.cpp, seg_reduction.cpp) share:
// moving typed data into and out of slots and published buffers.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "coll/reduction.hpp"
#include "coll/segment.hpp"
#include "coll/typed.hpp"
#include "core/copy.hpp"
#include "core/counters.hpp"
#include "core/small_vec.hpp"
#include "dtype/op.hpp"
#include "p2p/engine.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::coll::seg {

// Per-rank table entry of a v-collective published in a slot: where the
// block is (a byte offset in the slot region, or an address) and its length.
struct Entry {
  std::uint64_t where;
  std::uint64_t bytes;
};
// How a writer's blocks travel (the first word of its region).
inline constexpr std::uint64_t kInSlot = 0;
inline constexpr std::uint64_t kByAddress = 1;
// In the slot with a packed table (PackedEntry, 4 bytes an entry): the small
// blocking MPI_Scatter(v) root's (seg_movement.cpp scatter_root_in_slot), so
// that head, table and small blocks share a cache line (np 4, 4 B: one line
// instead of three); take_block reads it like kInSlot.
inline constexpr std::uint64_t kInSlotPacked = 2;
struct PackedEntry {
  std::uint16_t where;
  std::uint16_t bytes;
};

inline std::size_t align64(std::size_t v) { return (v + 63) & ~std::size_t{63}; }

// Where a block of `bytes` goes in a slot region whose next free byte is
// `at` (publish_blocks): a block of a cache line or more starts on a line,
// a smaller one on the next 8 bytes. Small blocks share lines: the writer
// writes them all before its post and readers only read them after it, so
// nothing bounces. (Each on a line of its own, the 4-byte blocks of an
// MPI_Alltoall or MPI_Scatter at np = 64 did not fit the 4 KiB region beside
// the table and went one process_vm_readv each, the writer waiting for
// every reader: alltoall 9-11 ms a call on 2 cores, 3.9 ms by messages.)
// slot_place(bytes, bytes) is what one such block takes in a run of them.
inline std::size_t slot_place(std::size_t at, std::size_t bytes) {
  return bytes >= 64 ? align64(at) : (at + 7) & ~std::size_t{7};
}

inline Typed block_of(const void* base, const dtype::Datatype& t, int displ, int count) {
  return {static_cast<const std::byte*>(base) + static_cast<std::ptrdiff_t>(displ) * t.extent, count, &t};
}

// Per-call lists of one entry per member, inline up to kInlineMembers
// members (core/small_vec.hpp): the small collectives' start then
// allocates nothing (two mallocs and frees were a third of an
// MPI_Iscatter root's start at np = 2).
inline constexpr std::size_t kInlineMembers = 16;
using MemberFlags = core::SmallVec<char, kInlineMembers>;
using MemberBlocks = core::SmallVec<Typed, kInlineMembers>;

// The blocks of count[j] elements at displs[j] of base, for every member j.
inline MemberBlocks blocks_at(const void* base, const dtype::Datatype& t, const int* counts, const int* displs, int n) {
  MemberBlocks b(static_cast<std::size_t>(n), Typed{});
  for (int j = 0; j < n; ++j) b[static_cast<std::size_t>(j)] = block_of(base, t, displs[j], counts[j]);
  return b;
}

// t's packed bytes into dst (t.bytes() of them).
inline void pack_to(const Typed& t, std::byte* dst) {
  if (t.bytes() == 0) return;
  if (t.type->contiguous())
    core::copy_bytes(dst, t.buf, t.bytes());  // inline up to 64 bytes (the small collectives' blocks)
  else
    dtype::pack(t.buf, t.count, *t.type, 0, dst, t.bytes());
}

// `bytes` packed bytes at src into t (at most t.bytes()).
inline void unpack_from(const std::byte* src, std::size_t bytes, const Typed& t) {
  bytes = std::min(bytes, t.bytes());
  if (bytes == 0) return;
  if (t.type->contiguous())
    core::copy_bytes(const_cast<void*>(t.buf), src, bytes);
  else
    dtype::unpack(const_cast<void*>(t.buf), t.count, *t.type, 0, src, bytes);
}

// Memory from the engine's scratch pool, given back on destruction.
class Temp {
 public:
  Temp() = default;
  explicit Temp(std::size_t bytes) : block_(p2p::scratch().take(bytes ? bytes : 1)), live_(true) {}
  ~Temp() {
    if (live_) p2p::scratch().give(block_);
  }
  Temp(const Temp&) = delete;
  Temp& operator=(const Temp&) = delete;
  std::byte* get() const { return block_.p; }

 private:
  core::ScratchPool::Block block_{};
  bool live_ = false;
};

// Reads `bytes` packed bytes at member i's address into t (single copy;
// through a temporary when t is not contiguous).
inline void read_into(const Segment& s, int i, std::uint64_t addr, std::size_t bytes, const Typed& t) {
  bytes = std::min(bytes, t.bytes());
  if (bytes == 0) return;
  core::count(core::Counter::seg_single_copy);
  if (t.type->contiguous()) {
    s.read(i, addr, const_cast<void*>(t.buf), bytes);
    return;
  }
  Temp tmp(bytes);
  s.read(i, addr, tmp.get(), bytes);
  dtype::unpack(const_cast<void*>(t.buf), t.count, *t.type, 0, tmp.get(), bytes);
}

// t's packed stream at a stable address for others to read: t's own memory
// when contiguous, else a packed copy kept as long as this object.
class Published {
 public:
  explicit Published(const Typed& t) {
    if (t.type->contiguous() || t.bytes() == 0) {
      addr_ = reinterpret_cast<std::uint64_t>(t.buf);
    } else {
      tmp_ = std::make_unique<Temp>(t.bytes());
      pack_to(t, tmp_->get());
      addr_ = reinterpret_cast<std::uint64_t>(tmp_->get());
    }
  }
  std::uint64_t addr() const { return addr_; }

 private:
  std::unique_ptr<Temp> tmp_;
  std::uint64_t addr_ = 0;
};

// Whether member j has posted collective k (or a later one); every member
// from `from` to `to`.
inline bool posted(const Segment& s, int j, std::uint64_t k) {
  return Segment::seq_of(s.line(j).posted.load(std::memory_order_acquire)) >= k;
}

inline bool all_posted(const Segment& s, std::uint64_t k, int from, int to) {
  for (int j = from; j <= to; ++j)
    if (!posted(s, j, k)) return false;
  return true;
}

// Calls fn(j) once for every member j with want[j] set, as soon as j has
// posted collective k, in the order they post. `want` (one char per
// member): a std::vector<char>, or a core::SmallVec where the caller builds
// it on every call (seg_neighbor.cpp).
template <class Want, class Fn>
void each_posted(const Segment& s, std::uint64_t k, Want want, Fn&& fn) {
  int left = 0;
  for (char w : want) left += w ? 1 : 0;
  while (left > 0) {
    bool any = false;
    for (int j = 0; j < s.size(); ++j)
      if (want[static_cast<std::size_t>(j)] && posted(s, j, k)) {
        fn(j);
        want[static_cast<std::size_t>(j)] = 0;
        --left;
        any = true;
      }
    if (!any)
      p2p::wait_until([&] {
        for (int j = 0; j < s.size(); ++j)
          if (want[static_cast<std::size_t>(j)] && posted(s, j, k)) return true;
        return false;
      });
  }
}

// From this size a copy between two ranks that each have a core is split
// between them: the reader reads the first half while the writer, idle
// otherwise, writes the second half into the reader's buffer (a scan's hop,
// a two-rank bcast; the point-to-point engine's split_min, 64 KiB, for the
// same reason: one core's copy does not reach the machine's bandwidth).
// The size is Segment::split_min() (RINGMPI_COLL_SPLIT_MIN, 64 KiB).

// The part of an m-byte split copy that the reader copies itself.
inline std::size_t split_half(std::size_t m) { return (m / 2) & ~std::size_t{63}; }

// Tables of blocks (seg_movement.cpp): a writer's region holds how its
// blocks travel (kInSlot, kInSlotPacked or kByAddress) and the table's length, a table of
// Entry (one per block; n, one per member, for the rooted and all-to-all
// collectives), optionally each entry's destination rank, then (in the
// slot) the blocks; the mode is in the region, so a reader follows whatever
// the writer chose.
// Publishes blocks[j] for every j in `to` from this member: packed into its
// slot region when they all fit there and none is large enough for single
// copy (Segment::prefer_single_copy), else by address (their own memory when contiguous, a
// packed copy in `keep` otherwise). `dests` (as long as blocks): each
// entry's destination, for entry_for. Posts k; returns the mode.
// `by_address`: whatever their size (a gather member that may push);
// `nonblocking`: the nonblocking forms' size for single copy.
std::uint64_t publish_blocks(Segment& s, std::uint64_t k, std::span<const Typed> blocks, std::span<const char> to,
                             std::unique_ptr<Temp>* keep, const std::vector<int>* dests = nullptr,
                             bool by_address = false, bool nonblocking = false);
// Pushes (gather, blocking and nonblocking). A member whose block is large
// lets the root decide how it travels: the root publishes a table with one
// entry per member, the address of that member's receive block where it
// wants the member to write the block itself (push_to: its receive blocks
// are contiguous and it expects a large block from that member), 0 where
// it reads the block. So the copies run on the members' cores, not all on
// the root's, and the root knows from its own counts whom it waits for. A
// nonblocking root with single copy always posts the table; a blocking root
// posts it only when it asks somebody, and stores done = k only after the
// members it asked have, so a member seeing its done without a table was
// not asked (Segment::wait_posted_or_done). Either way a member whose count
// disagrees with the root's (erroneous, MPI-3.1 §5.5) neither waits for a
// table that never comes nor writes into a buffer the root has returned.
// Order: the root writes the table into its region, then posts (release);
// a member reads it after seeing posted (acquire), writes with
// process_vm_writev, then stores done = k (release); the root reads its
// buffer, or returns, only after loading that done (acquire).
// Whether a nonblocking gather member's block of `bytes` travels by
// address, to be pushed where the root asks (Pushes): single copy, and
// large enough that single copy is preferred, or that a region for it
// would take more than a quarter of the member's slot. (Through the slot,
// a member's next start would wait in reserve() for the root to have read
// the region three collectives back: oversubscribed, 64 KiB blocks at
// np = 8 left nothing of MPI_Igather's compute phase overlapped.) Member
// and root decide alike from the same size; the member then waits for the
// root's table.
bool may_push(const Segment& s, std::size_t bytes);
// Zero bytes (docs/design/collectives.md, "Zero bytes in the v and w
// forms"): whether every block counts[j] of t for a member j other than
// this one is empty. A member that sends nothing to anybody then posts
// nothing: it takes the call's number and stores its done only, and its
// readers, who know their blocks from it are empty, neither wait for it nor
// read it (a reader that wrongly expects data waits, as for a uniform
// call whose root returned at once: mpiexec reports the deadlock).
bool others_empty(const Segment& s, const int* counts, const dtype::Datatype& t);
// A gather root's table (Pushes): for every member j, the address of its
// receive block blocks[j] where push[j] is set, else 0; posted.
void publish_destinations(Segment& s, std::uint64_t k, std::span<const Typed> blocks, std::span<const char> push);
// A gather member with a large block, once the root has posted: writes
// `bytes` at its address `from` into the root's receive block when the
// root's entry for it asks for that (as much as fits there); whether it did.
bool push_to(const Segment& s, std::uint64_t k, int root, std::uint64_t from, std::size_t bytes);
// The same for a nonblocking member, from the block it published in its
// own one-entry table.
bool push_block(const Segment& s, std::uint64_t k, int root);
// The nonblocking root's side, once member j has posted: j's block into
// dst unless j pushed it (`pushed`: the root asked, and j's block did not
// go into its slot); MPI_ERR_TRUNCATE when j's block is longer than dst.
int take_gathered(const Segment& s, std::uint64_t k, int j, const Typed& dst, bool pushed);
// Takes the block of member i's table at `entry` (-1: this member's) into t.
void take_block(const Segment& s, std::uint64_t k, int i, const Typed& t, int entry = -1);
// The entry of member i's table (published with dests) that is the
// occurrence-th (from 0) addressed to this member, or -1.
int entry_for(const Segment& s, std::uint64_t k, int i, int occurrence);
// Whether a table of `entries` entries with destinations fits a region with room to spare.
bool table_fits(const Segment& s, std::size_t entries);
// Whether a collective that publishes a table of n blocks can run here: the
// table fits a slot region with room to spare, and the blocks travel by
// single copy or, with `block` >= 0 (n blocks of that many bytes, a size
// every rank knows), fit the region beside the table.
bool tables_apply(const Segment& s, long long block);
// Whether the table and n blocks of `block` bytes fit a slot region (the
// way segment_slot of MPI_Scatter and MPI_Alltoall).
bool blocks_in_slot(const Segment& s, std::size_t block);

// What an allgather publishes: the send block (copied into the own block
// afterwards by the caller: *from_send) or the own block of recvbuf.
Typed allgather_source(const Typed& send, bool in_place, const Typed& own, bool* from_send);
// A scatter root's start: the blocks for the others published as a table
// and posted (large blocks by address), the others woken, its own
// block copied unless in place. Returns the mode.
std::uint64_t start_scatter_root(Segment& s, std::uint64_t k, const void* sendbuf, const int* counts,
                                 const int* displs, const dtype::Datatype& stype, const Typed& recv, bool in_place,
                                 std::unique_ptr<Temp>* keep, bool nonblocking = false);
// Whether an allgather member's own block of `bytes` travels by address
// (single copy): larger than a slot region, or large enough that single
// copy is faster (Segment::prefer_single_copy). Every member knows every
// block's size, so writer and readers decide alike.
bool own_block_by_address(const Segment& s, std::size_t bytes, bool nonblocking = false);
// Whether an allgather(v) with these counts runs on s (blocks by address
// need single copy); *any_large: whether some block travels by address.
bool allgather_applies(const Segment& s, const int* counts, const dtype::Datatype& rtype, bool* any_large,
                       bool nonblocking = false);
// An allgather member's own block into its region and posted: packed, or
// its address (own_block_by_address; the returned object keeps a packed
// copy alive when src is not contiguous).
std::shared_ptr<Published> publish_own_block(Segment& s, std::uint64_t k, const Typed& src, std::size_t bytes,
                                             bool nonblocking = false);
// Member j's allgather block into dst.
void take_own_block(const Segment& s, std::uint64_t k, int j, const Typed& dst, bool nonblocking = false);
// An all-to-all member's start: its outgoing blocks published as a table
// and posted (with MPI_IN_PLACE from packed copies in *saved; by address
// from packed copies in *keep where not contiguous), the others woken, its
// own block copied into place. Returns the mode.
std::uint64_t start_alltoall(Segment& s, std::uint64_t k, const void* sendbuf, const int* scounts, const int* sdispls,
                             const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                             const dtype::Datatype& rtype, bool in_place, std::unique_ptr<Temp>* saved,
                             std::unique_ptr<Temp>* keep, bool nonblocking = false);

// Every member but this one.
inline MemberFlags others(const Segment& s) {
  MemberFlags w(static_cast<std::size_t>(s.size()), 1);
  w[static_cast<std::size_t>(s.me())] = 0;
  return w;
}

// Up to Segment::fold_whole() bytes (RINGMPI_COLL_FOLD_WHOLE_MAX, 2048),
// reductions fold whole vectors rather than by blocks (one round of
// synchronisation instead of two; see docs/design/collectives.md),
// blocking (seg_reduction.cpp) and nonblocking (seg_nonblocking.cpp) alike.

// inout = in op inout for `count` elements of r's type (0: nothing).
inline int apply(const Reduction& r, const void* in, void* inout, int count) {
  return count > 0 ? dtype::reduce(r.op, in, inout, count, *r.type, r.type_handle) : MPI_SUCCESS;
}

// The right fold of the message code (reduction.hpp), over contiguous data:
// result = x(top), then result = x(j) op result for j = top - 1 .. 0, where
// source(j) gives x(j) (and may wait for it). Returns the operation's first
// error class.
template <class Source>
int fold_down(const Reduction& r, int top, Source&& source, void* result) {
  core::copy_bulk(result, source(top), static_cast<std::size_t>(r.count) * r.type->size);
  int err = MPI_SUCCESS;
  for (int j = top - 1; j >= 0; --j) {
    const int e = apply(r, source(j), result, r.count);
    if (err == MPI_SUCCESS) err = e;
  }
  return err;
}

// The prefix fold of the scans: ((x(0) op x(1)) op ...) op x(top), the
// order in which the rank chain (reduction.cpp, and the large-vector path of
// seg_scan) combines, so every path gives the same bits. Each step copies
// x(j) next to the running value and folds into it (op(in, inout) computes
// inout = in op inout); with two vectors, x(1) is copied into the result
// and x(0) folded into it where it lies (source(1) is taken first).
template <class Source>
int fold_up(const Reduction& r, int top, Source&& source, void* result) {
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  std::byte* acc = static_cast<std::byte*>(result);
  if (top == 1) {  // x(1) into the result, x(0) folded in from where it is: one copy (np 2's scan)
    const std::byte* x1 = source(1);
    if (x1 != acc) core::copy_bulk(acc, x1, m);
    return apply(r, source(0), acc, r.count);
  }
  core::copy_bulk(acc, source(0), m);
  if (top == 0) return MPI_SUCCESS;
  // The second buffer: on the stack for the small vectors most scans fold.
  alignas(64) std::byte small[512];
  std::unique_ptr<Temp> large = m > sizeof small ? std::make_unique<Temp>(m) : nullptr;
  std::byte* next = large ? large->get() : small;
  int err = MPI_SUCCESS;
  for (int j = 1; j <= top; ++j) {
    core::copy_bulk(next, source(j), m);
    const int e = apply(r, acc, next, r.count);
    if (err == MPI_SUCCESS) err = e;
    std::swap(acc, next);
  }
  if (acc != result) core::copy_bulk(result, acc, m);
  return err;
}

}  // namespace ringmpi::coll::seg
