// Copies of a few bytes without a library call. Small messages and struct
// members are a few to a few dozen bytes; a call into libc's memcpy costs
// more than the copy there. Two overlapping fixed-size moves cover every
// length in [k, 2k], so each size class is two loads and two stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/cpu.hpp"

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
// From 2 KiB to 64 KiB the loop runs at every offset where the CPU has
// AVX2 (copy_forward_avx2, 32-byte steps): a copy of lines the other core
// has just written (a reader out of a slot region or a ring record) or
// into lines the other core holds (the writer) is the two-rank collectives'
// and messages' cost there, and `rep movsb` (glibc's memcpy from 2112
// bytes on this CPU) moves such lines slower than the loop at any offset.
// Measured (issue 36, session 9: one core copies 8 KiB into a shared buffer
// and posts, the other copies it out and acknowledges, buffers 16 bytes
// past a page as malloc's; best of 100 batches of 200 rounds, ns per
// round): with a cache line taking 25-30 ns between the cores, memcpy
// 725-816, 16-byte loop 649, 32-byte loop 483-617; with 146-157 ns,
// 2612-3206 / 2483 / 1968-2074. 4 KiB 429 / 282, 16 KiB 1484 / 1362,
// 64 KiB 9123 / 8924 (fast lines). Copies within one core's cache lose
// 3-13 % to `rep movsb` (8 KiB 87 against 77 ns, 1 MiB 22.7 against
// 21.5 us), so beyond 64 KiB memcpy keeps them.
inline constexpr std::size_t kBulkForwardMin = 2049;
inline constexpr std::size_t kBulkLoopMax = 65536;
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
#if defined(__x86_64__) && defined(__GNUC__)
// copy_forward in 32-byte steps (two a line), for CPUs with AVX2 (have_avx2).
[[gnu::target("avx2")]] inline void copy_forward_avx2(std::byte* d, const std::byte* s, std::size_t n) {
  using V = char __attribute__((vector_size(32)));
  const auto step = [](std::byte* to, const std::byte* from) {
    V a, b;
    std::memcpy(&a, from, 32);
    std::memcpy(&b, from + 32, 32);
    std::memcpy(to, &a, 32);
    std::memcpy(to + 32, &b, 32);
  };
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    step(d + i, s + i);
    asm("" : "+r"(i));
  }
  if (i < n) step(d + n - 64, s + n - 64);
}
#endif

inline void copy_bulk(void* dst, const void* src, std::size_t n) {
  const bool bad = bulk_offset_bad(dst, src);
  if (n < kBulkForwardMin || (n > kBulkLoopMax && !bad)) {
    std::memcpy(dst, src, n);
    return;
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if (have_avx2()) {
    copy_forward_avx2(static_cast<std::byte*>(dst), static_cast<const std::byte*>(src), n);
    return;
  }
#endif
  if (!bad) {
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
