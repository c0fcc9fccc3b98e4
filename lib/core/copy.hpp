// Copies of a few bytes without a library call. Small messages and struct
// members are a few to a few dozen bytes; a call into libc's memcpy costs
// more than the copy there. Two overlapping fixed-size moves cover every
// length in [k, 2k], so each size class is two loads and two stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ringmpi::core {

template <std::size_t k>
inline void overlapping_pair(std::byte* d, const std::byte* s, std::size_t n) {
  struct Chunk {
    unsigned char b[k];
  };
  Chunk a, z;
  std::memcpy(&a, s, k);
  std::memcpy(&z, s + n - k, k);
  std::memcpy(d, &a, k);
  std::memcpy(d + n - k, &z, k);
}

// Any n; inline up to 64 bytes, memcpy beyond.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  if (n > 64) {
    std::memcpy(d, s, n);
  } else if (n >= 32) {
    overlapping_pair<32>(d, s, n);
  } else if (n >= 16) {
    overlapping_pair<16>(d, s, n);
  } else if (n >= 8) {
    overlapping_pair<8>(d, s, n);
  } else if (n >= 4) {
    overlapping_pair<4>(d, s, n);
  } else if (n >= 2) {
    overlapping_pair<2>(d, s, n);
  } else if (n == 1) {
    *d = *s;
  }
}

}  // namespace ringmpi::core
