#include "comm/context.hpp"

#include <bit>

#include "comm/comm.hpp"
#include "p2p/engine.hpp"
#include "p2p/partitioned.hpp"

namespace ringmpi::comm {

ContextPool::ContextPool() { free_.fill(~std::uint64_t{0}); }

int ContextPool::lowest(const Mask& mask) {
  for (int w = 0; w < kWords; ++w)
    if (mask[w]) return w * 64 + std::countr_zero(mask[w]);
  return -1;
}

int ContextPool::slot_of(std::uint32_t context) {
  if (context < kFirstDynamic) return -1;
  const std::uint32_t s = (context - kFirstDynamic) / 2;
  return s < std::uint32_t(kSlots) ? int(s) : -1;
}

void ContextPool::claim(int slot) {
  free_[slot / 64] &= ~(std::uint64_t{1} << (slot % 64));
  ++used_;
}

ContextPool::Mask ContextPool::reserve(std::uint64_t key, const Mask& busy) {
  // Slot i of the visiting order is (a * i + b) mod kSlots, a odd: a
  // permutation of all slots, drawn from the key.
  static_assert((kSlots & (kSlots - 1)) == 0, "kSlots must be a power of two");
  std::uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  const std::uint64_t a = ((h >> 20) | 1) & (kSlots - 1), b = h & (kSlots - 1);
  const Mask m = mask(busy);
  Mask out{};
  int n = 0;
  for (std::uint64_t i = 0; i < kSlots && n < kIdupSlots; ++i) {
    const std::uint64_t slot = (a * i + b) & (kSlots - 1), bit = std::uint64_t{1} << (slot % 64);
    if (m[slot / 64] & bit) {
      out[slot / 64] |= bit;
      ++n;
    }
  }
  for (int w = 0; w < kWords; ++w) reserved_[w] |= out[w];
  return out;
}

void ContextPool::unreserve(const Mask& m) {
  for (int w = 0; w < kWords; ++w) reserved_[w] &= ~m[w];
}

void ContextPool::release(std::uint32_t context) {
  const int s = slot_of(context);
  if (s < 0 || is_free(s)) return;
  free_[s / 64] |= std::uint64_t{1} << (s % 64);
  --used_;
  const std::uint32_t first = context_of(s);
  p2p::forget_contexts(first, first + 1);
}

ContextPool::Mask busy_slots() {
  ContextPool::Mask busy{};
  for (std::uint32_t id : p2p::pinned_contexts())
    if (const int s = ContextPool::slot_of(id); s >= 0) busy[s / 64] |= std::uint64_t{1} << (s % 64);
  return busy;
}

}  // namespace ringmpi::comm
