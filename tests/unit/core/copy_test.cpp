// core::copy_bulk: the same bytes as memcpy at every relative page offset,
// by its own forward loops (more than 2 KiB: up to 64 KiB at every offset
// where the CPU has AVX2, else and beyond at 1..63 bytes past the source
// modulo 4 KiB) or not, lengths that are not a multiple of their 64-byte
// step, sources off a cache line, and nothing written outside the
// destination.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <vector>

#include "core/copy.hpp"

using ringmpi::core::bulk_offset_bad;
using ringmpi::core::copy_bulk;

TEST_CASE("copy_bulk copies like memcpy at every relative offset, forward by its own loop where the offset is bad") {
  constexpr std::size_t kPage = 4096;
  std::vector<std::byte> src(3 * kPage + 80000), dst(4 * kPage + 80000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>((i * 131 + 7) & 0xff);
  // Page-aligned bases inside the vectors.
  const auto align = [&](std::byte* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return p + ((kPage - a % kPage) % kPage);
  };
  std::byte* s0 = align(src.data());
  std::byte* d0 = align(dst.data());
  for (std::size_t soff : {0u, 16u, 40u})
    for (std::size_t rel : {0u, 1u, 8u, 16u, 31u, 32u, 63u, 64u, 100u, 4080u, 4095u}) {
      const std::byte* s = s0 + soff;
      for (std::size_t n : {0u, 1u, 64u, 2047u, 2048u, 2049u, 2111u, 2112u, 3000u, 4096u, 4159u, 8192u, 10000u, 16385u,
                            65535u, 65536u, 65537u, 70001u}) {
        std::byte* d = d0 + kPage + soff + rel;
        std::fill(dst.begin(), dst.end(), std::byte{0xee});
        copy_bulk(d, s, n);
        bool same = true;
        for (std::size_t i = 0; i < n; ++i) same = same && d[i] == s[i];
        CHECK(same);
        CHECK(d[-1] == std::byte{0xee});
        CHECK(d[n] == std::byte{0xee});
      }
      CHECK(bulk_offset_bad(d0 + kPage + soff + rel, s) == (rel >= 1 && rel < 64));
    }
}

TEST_CASE("both forward loops copy like memcpy (the one the CPU does not take included)") {
  std::vector<std::byte> src(70000 + 64), dst(70000 + 128);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>((i * 37 + 11) & 0xff);
  for (int which = 0; which < 2; ++which)
    for (std::size_t off : {0u, 16u, 33u})
      for (std::size_t n : {64u, 65u, 127u, 2049u, 8192u, 70000u}) {
        std::fill(dst.begin(), dst.end(), std::byte{0xee});
        std::byte* d = dst.data() + 1 + off;
        const std::byte* s = src.data() + off;
#if defined(__x86_64__) && defined(__GNUC__)
        if (which == 1 && !ringmpi::core::have_avx2()) continue;
        if (which == 1) ringmpi::core::copy_forward_avx2(d, s, n);
#else
        if (which == 1) continue;
#endif
        if (which == 0) ringmpi::core::copy_forward(d, s, n);
        bool same = true;
        for (std::size_t i = 0; i < n; ++i) same = same && d[i] == s[i];
        CHECK(same);
        CHECK(d[-1] == std::byte{0xee});
        CHECK(d[n] == std::byte{0xee});
      }
}
