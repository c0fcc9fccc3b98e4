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

// Large copies whose destination lies 1..63 bytes past the source modulo
// a 4 KiB page. glibc's memcpy (2.36) copies from 4 KiB (AVX2; the
// threshold scales with the vector width) with `rep movsb`, which on this
// machine's AMD EPYC runs 30-60x slower at those relative offsets: 64 KiB
// took 41-88 us instead of 1.3 (offsets 4..28; 32 and up, and every
// negative offset, run at full speed; 8 KiB 2.7 us instead of 0.1). The
// kernel's copy (process_vm_readv) has the same fault. It hits the
// collectives' slot paths all the time: a slot region starts on a cache
// line, a malloc'd buffer 16 bytes past a page (glibc's chunk header), so
// a reader copying out of the slot into such a buffer was exactly 16 bytes
// off (MPI_Exscan of 64 KiB at np 2: 22.9 us, 10.4 with the buffers placed
// elsewhere). Copied in pieces below glibc's `rep movsb` threshold, which
// take its vector loop, those offsets run at 1.48 us for 64 KiB (1.30 at a
// good offset). The relative offset is a property of the two addresses and
// cannot be changed by splitting, so the pieces are the fix.
inline constexpr std::size_t kBulkPiece = 1024;
inline bool bulk_offset_bad(const void* dst, const void* src) {
  const std::uintptr_t rel = (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) & 4095;
  return rel != 0 && rel < 64;
}
inline void copy_bulk(void* dst, const void* src, std::size_t n) {
  if (n < 2 * kBulkPiece || !bulk_offset_bad(dst, src)) {
    std::memcpy(dst, src, n);
    return;
  }
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  for (std::size_t i = 0; i < n; i += kBulkPiece) std::memcpy(d + i, s + i, n - i < kBulkPiece ? n - i : kBulkPiece);
}

// Any n; inline up to 64 bytes, copy_bulk beyond (the eager messages of
// point-to-point copy into and out of ring records at any page offset).
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  if (n > 64) {
    copy_bulk(d, s, n);
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
