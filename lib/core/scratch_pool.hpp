// Reusable temporary buffers for operations that need a vector-sized
// temporary on every call (reductions, packing for collectives).
//
// Why: glibc hands large freed blocks back to the kernel (munmap, or a brk
// trim when the block is at the top of the heap), and the next call's
// allocation comes back as fresh pages whose first touch faults: at about a
// microsecond or more per 4 KiB page (far more in a virtual machine), a
// reduce-scatter of 4 MiB spent most of its time in page faults. Blocks of
// kMinPooled bytes and more are kept here instead, up to kMaxHeld bytes in
// all; smaller ones go to malloc, which reuses them without faults anyway.
// Single-threaded, like the rest of a rank's runtime; memory is not zeroed.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace ringmpi::core {

class ScratchPool {
 public:
  struct Block {
    std::byte* p = nullptr;
    std::size_t cap = 0;
  };
  static constexpr std::size_t kMinPooled = std::size_t(64) << 10;
  static constexpr std::size_t kMaxHeld = std::size_t(64) << 20;

  ScratchPool() = default;
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;
  ~ScratchPool() {
    for (Block& b : free_) std::free(b.p);
  }

  // At least n bytes (n > 0 or not), uninitialized.
  Block take(std::size_t n) {
    if (n < kMinPooled) return Block{allocate(n ? n : 1), n ? n : 1};
    std::size_t best = free_.size();
    for (std::size_t i = 0; i < free_.size(); ++i)
      if (free_[i].cap >= n && (best == free_.size() || free_[i].cap < free_[best].cap)) best = i;
    if (best == free_.size()) return Block{allocate(n), n};
    Block b = free_[best];
    free_[best] = free_.back();
    free_.pop_back();
    held_ -= b.cap;
    return b;
  }

  void give(Block b) {
    if (!b.p) return;
    if (b.cap < kMinPooled) {
      std::free(b.p);
      return;
    }
    // Over the cap: drop the smallest held blocks first (the new one is the likeliest to be asked for again).
    while (held_ + b.cap > kMaxHeld && !free_.empty()) {
      std::size_t small = 0;
      for (std::size_t i = 1; i < free_.size(); ++i)
        if (free_[i].cap < free_[small].cap) small = i;
      held_ -= free_[small].cap;
      std::free(free_[small].p);
      free_[small] = free_.back();
      free_.pop_back();
    }
    if (b.cap > kMaxHeld) {
      std::free(b.p);
      return;
    }
    free_.push_back(b);
    held_ += b.cap;
  }

 private:
  static std::byte* allocate(std::size_t n) {
    void* p = std::malloc(n);
    if (!p) throw std::bad_alloc();
    return static_cast<std::byte*>(p);
  }
  std::vector<Block> free_;
  std::size_t held_ = 0;
};

}  // namespace ringmpi::core
