#include "comm/context.hpp"

#include <bit>

#include "comm/comm.hpp"

namespace ringmpi::comm {

ContextPool::ContextPool() : pins_(kSlots, 0) { free_.fill(~std::uint64_t{0}); }

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
  pins_[slot] = 1;
  ++used_;
}

ContextPool::Mask ContextPool::reserve() {
  Mask m = mask(), out{};
  int n = 0;
  for (int w = 0; w < kWords && n < kIdupSlots; ++w)
    while (m[w] && n < kIdupSlots) {
      const std::uint64_t bit = m[w] & -m[w];
      m[w] &= ~bit;
      out[w] |= bit;
      ++n;
    }
  for (int w = 0; w < kWords; ++w) reserved_[w] |= out[w];
  return out;
}

void ContextPool::unreserve(const Mask& m) {
  for (int w = 0; w < kWords; ++w) reserved_[w] &= ~m[w];
}

void ContextPool::hold(std::uint32_t context) {
  const int s = slot_of(context);
  if (s >= 0 && pins_[s] > 0) ++pins_[s];
}

void ContextPool::release(std::uint32_t context) {
  const int s = slot_of(context);
  if (s < 0 || pins_[s] == 0) return;
  if (--pins_[s] == 0) {
    free_[s / 64] |= std::uint64_t{1} << (s % 64);
    --used_;
  }
}

void hold_context(std::uint32_t context) { state().contexts.hold(context); }
void release_context(std::uint32_t context) { state().contexts.release(context); }

}  // namespace ringmpi::comm
