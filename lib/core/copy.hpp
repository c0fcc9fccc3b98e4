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
// a 4 KiB page. glibc's memcpy (2.36) copies from its `rep movsb`
// threshold on with `rep movsb` (4 KiB for AVX2, 8 KiB for AVX-512, but
// 2112 bytes on a CPU with fast short rep movsb, FSRM, as this machine's
// AMD EPYC), which here runs 10-60x slower at those relative offsets:
// 64 KiB took 41-88 us instead of 1.3 (offsets 4..28; 32 and up, and
// every negative offset, run at full speed; 8 KiB 2.7 us instead of 0.1;
// 2176 bytes 1.6 us against 0.25). The kernel's copy (process_vm_readv)
// has the same fault. It hits the collectives' slot paths all the time: a
// slot region starts on a cache line, a malloc'd buffer 16 bytes past a
// page (glibc's chunk header), so a reader copying out of the slot into
// such a buffer was exactly 16 bytes off (MPI_Exscan of 64 KiB at np 2:
// 22.9 us, 10.4 with the buffers placed elsewhere). The relative offset is
// a property of the two addresses and cannot be changed by splitting, so
// such a copy takes its own loop, forward, 64 bytes a step. (It first
// went in 1 KiB memcpy pieces from 2 KiB, below the threshold, but glibc's
// vector loop copies backward whenever the destination is less than 256
// bytes past the source modulo a page, its 4 KiB-aliasing check, and a
// backward copy in pieces of lines that the other core just wrote, a slot
// region or a ring record, runs about twice as long as a forward one: the
// 2-16 KiB band of np 2 collectives, issue 36.) Measured copying out of a
// region the other core had just written, offset 16, best of 40 x 1000
// rounds, us per gather-like round, quiet state (a cache line 45 ns one
// way): 2 KiB 0.53 in 1 KiB pieces, 0.18-0.23 one memcpy, 0.23 forward;
// 4 KiB 0.95 in pieces, 0.40 forward (one `rep movsb` 3.0); 8 KiB 1.18 /
// 0.64 (3.2); 16 KiB 2.14 / 1.20. In bench/coll (buffers from mmap, page
// + 16), np 2, rotating root: gather 4 KiB 0.96 -> 0.57 us (MPICH 0.88),
// 8 KiB 1.54 -> 0.89 (1.10), reduce 4 KiB 1.49 -> 0.87
// (bench/results/2026-12-07-issue36-midband.md).
// Up to 2 KiB one memcpy, below every threshold, is as fast as the loop.
inline constexpr std::size_t kBulkForwardMin = 2049;
inline bool bulk_offset_bad(const void* dst, const void* src) {
  const std::uintptr_t rel = (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) & 4095;
  return rel != 0 && rel < 64;
}
inline void move64(std::byte* d, const std::byte* s) {
  // Four 16-byte values (a 64-byte aggregate would go through the stack).
  using V = std::uint64_t __attribute__((vector_size(16)));
  V a, b, c, e;
  std::memcpy(&a, s, 16);
  std::memcpy(&b, s + 16, 16);
  std::memcpy(&c, s + 32, 16);
  std::memcpy(&e, s + 48, 16);
  std::memcpy(d, &a, 16);
  std::memcpy(d + 16, &b, 16);
  std::memcpy(d + 32, &c, 16);
  std::memcpy(d + 48, &e, 16);
}
// n >= 64 bytes forward, 64 a step, the last step overlapping the one
// before it. The empty asm hides the index from the compiler, which would
// turn the loop back into a memcpy call.
inline void copy_forward(std::byte* d, const std::byte* s, std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    move64(d + i, s + i);
    asm("" : "+r"(i));
  }
  if (i < n) move64(d + n - 64, s + n - 64);
}
inline void copy_bulk(void* dst, const void* src, std::size_t n) {
  if (n < kBulkForwardMin || !bulk_offset_bad(dst, src)) {
    std::memcpy(dst, src, n);
    return;
  }
  copy_forward(static_cast<std::byte*>(dst), static_cast<const std::byte*>(src), n);
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
