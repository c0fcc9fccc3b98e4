// core::copy_bulk: the same bytes as memcpy at every relative page offset,
// by its own forward loop (1..63 bytes past the source modulo 4 KiB, more
// than 2 KiB) or not, lengths that are not a multiple of its 64-byte step,
// and nothing written outside the destination.
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
  std::vector<std::byte> src(3 * kPage + 20000), dst(4 * kPage + 20000);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::byte>((i * 131 + 7) & 0xff);
  // Page-aligned bases inside the vectors.
  const auto align = [&](std::byte* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    return p + ((kPage - a % kPage) % kPage);
  };
  std::byte* s0 = align(src.data());
  std::byte* d0 = align(dst.data());
  for (std::size_t rel : {0u, 1u, 8u, 16u, 31u, 32u, 63u, 64u, 100u, 4080u, 4095u}) {
    for (std::size_t n : {0u, 1u, 64u, 2047u, 2048u, 2049u, 2111u, 2112u, 3000u, 4096u, 4159u, 10000u, 16385u}) {
      std::byte* d = d0 + kPage + rel;
      std::fill(dst.begin(), dst.end(), std::byte{0xee});
      copy_bulk(d, s0, n);
      bool same = true;
      for (std::size_t i = 0; i < n; ++i) same = same && d[i] == s0[i];
      CHECK(same);
      CHECK(d[-1] == std::byte{0xee});
      CHECK(d[n] == std::byte{0xee});
    }
    CHECK(bulk_offset_bad(d0 + kPage + rel, s0) == (rel >= 1 && rel < 64));
  }
}
