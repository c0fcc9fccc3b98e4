// Thousands of random nested datatypes packed, unpacked, described as iovecs
// and counted in elements, each checked against the naive reference packer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "dtype/elements.hpp"
#include "dtype/layout.hpp"
#include "reference.hpp"
#include "random_types.hpp"

using namespace ringmpi::dtype;
using namespace ringmpi::dtype::test;

namespace {

// A buffer covering every byte the type map of (count, t) touches.
struct Buffer {
  std::vector<unsigned char> bytes;
  std::ptrdiff_t origin = 0;  // bytes[origin] is the buffer's address 0
  unsigned char* base() { return bytes.data() + origin; }

  Buffer(const std::vector<Entry>& map, unsigned seed) {
    std::ptrdiff_t lo = 0, hi = 1;
    for (const Entry& e : map) {
      lo = std::min(lo, e.disp);
      hi = std::max(hi, e.disp + std::ptrdiff_t(e.size));
    }
    bytes.resize(std::size_t(hi - lo) + 16);
    origin = -lo + 8;
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(seed * 31 + i * 7 + (i >> 8));
  }
};

std::vector<Block> merged(const std::vector<Entry>& map) {
  std::vector<Block> out;
  for (const Entry& e : map) {
    if (!out.empty() && out.back().offset + std::ptrdiff_t(out.back().length) == e.disp)
      out.back().length += e.size;
    else
      out.push_back({e.disp, e.size});
  }
  return out;
}

}  // namespace

TEST_CASE("random nested datatypes move like the reference packer") {
  RandomTypes gen(20240611);
  int checked = 0, derived = 0, nested = 0;
  for (int iter = 0; iter < 5000; ++iter) {
    CAPTURE(iter);
    TypePtr t = gen.make(4);
    derived += !t->predefined;
    nested += !t->predefined && !t->env.types.empty() && !t->env.types[0]->predefined;
    commit(*t);
    const int count = gen.uniform(1, 3);
    const std::vector<Entry> map = type_map(*t, count);
    std::size_t total = 0;
    for (const Entry& e : map) total += e.size;
    REQUIRE(total == std::size_t(count) * t->size);
    REQUIRE(MPI_Count(map.size()) == count * t->elements);

    // True bounds are the data's bounds.
    if (t->size > 0) {
      const std::vector<Entry> one = type_map(*t, 1);
      std::ptrdiff_t lo = one[0].disp, hi = one[0].disp;
      for (const Entry& e : one) {
        lo = std::min(lo, e.disp);
        hi = std::max(hi, e.disp + std::ptrdiff_t(e.size));
      }
      CHECK(t->true_lb == lo);
      CHECK(t->true_extent == hi - lo);
      // The flattened blocks (when kept) are the merged type map.
      if (t->layout->nblocks <= kMaxFlatBlocks) {
        const std::vector<Block> want = merged(one);
        REQUIRE(t->blocks.size() == want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
          CHECK(t->blocks[i].offset == want[i].offset);
          CHECK(t->blocks[i].length == want[i].length);
        }
      }
    }

    Buffer src(map, unsigned(iter));
    const std::vector<unsigned char> want = ref_pack(src.base(), map);

    // Whole.
    std::vector<unsigned char> got(total + 1, 0xEE);
    pack(src.base(), count, *t, 0, got.data(), total);
    REQUIRE(std::equal(want.begin(), want.end(), got.begin()));
    CHECK(got[total] == 0xEE);

    // In random pieces, as a transport resuming at an offset does.
    std::fill(got.begin(), got.end(), 0);
    for (std::size_t at = 0; at < total;) {
      const std::size_t n = std::min<std::size_t>(total - at, std::size_t(gen.uniform(1, 40)));
      pack(src.base(), count, *t, at, got.data() + at, n);
      at += n;
    }
    REQUIRE(std::equal(want.begin(), want.end(), got.begin()));

    // As iovecs, a few at a time.
    std::vector<unsigned char> via_iov;
    for (std::size_t at = 0; at < total;) {
      iovec iov[3];
      std::size_t covered = 0;
      const std::size_t k = to_iov(src.base(), count, *t, at, total - at, iov, 3, &covered);
      REQUIRE(k > 0);
      REQUIRE(covered > 0);
      std::size_t sum = 0;
      for (std::size_t i = 0; i < k; ++i) {
        auto* p = static_cast<unsigned char*>(iov[i].iov_base);
        via_iov.insert(via_iov.end(), p, p + iov[i].iov_len);
        sum += iov[i].iov_len;
      }
      REQUIRE(sum == covered);
      at += covered;
    }
    REQUIRE(via_iov == want);

    // Unpacking writes what the reference writes, in pieces too.
    Buffer a(map, 1000u + unsigned(iter)), b(map, 1000u + unsigned(iter));
    ref_unpack(a.base(), map, want.data());
    for (std::size_t at = 0; at < total;) {
      const std::size_t n = std::min<std::size_t>(total - at, std::size_t(gen.uniform(1, 64)));
      unpack(b.base(), count, *t, at, want.data() + at, n);
      at += n;
    }
    REQUIRE(a.bytes == b.bytes);

    // Elements of every prefix of the stream.
    std::size_t prefix = 0;
    MPI_Count whole = 0;
    for (const Entry& e : map) {
      CHECK(elements_in(*t, MPI_Count(prefix)) == whole);
      CHECK(bytes_of_elements(*t, whole) == MPI_Count(prefix));
      if (e.size > 1) CHECK(elements_in(*t, MPI_Count(prefix + 1)) == -1);
      prefix += e.size;
      ++whole;
    }
    CHECK(elements_in(*t, MPI_Count(prefix)) == whole);
    ++checked;
  }
  CHECK(checked == 5000);
  // The generator really produced nested derived types.
  CHECK(derived > 3500);
  CHECK(nested > 1500);
}
