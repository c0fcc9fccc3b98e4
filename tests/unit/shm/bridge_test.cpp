// The bridge of two connected jobs (shm/bridge.hpp) and the room for their
// processes in the pending bitmaps (ArenaLayout::compute).
#include <doctest/doctest.h>
#include <unistd.h>

#include <set>
#include <string>

#include "shm/arena.hpp"
#include "shm/bridge.hpp"

using namespace ringmpi::shm;

TEST_CASE("pending bitmaps hold the job's slots rounded to 64, then kForeignRoom bits") {
  for (std::uint32_t n : {1u, 2u, 34u, 64u, 65u, 300u}) {
    const ArenaLayout l = ArenaLayout::compute(n, default_ring_capacity(n));
    CHECK(l.pending_stride * 8 >= (n + 63) / 64 * 64 + kForeignRoom);
    CHECK(l.pending_stride % kCacheLine == 0);
  }
}

TEST_CASE("bridge: one ring each way per pair, none overlapping, header checked on map") {
  std::string err;
  const std::uint64_t cap = 64 * 1024;
  const int fd = Bridge::create(2, 3, cap, &err);
  REQUIRE(fd >= 0);
  Bridge b;
  REQUIRE(b.map(fd, &err));
  CHECK(b.header().na == 2);
  CHECK(b.header().nb == 3);
  CHECK(b.header().ring_capacity == cap);
  std::set<std::byte*> rings;
  for (std::uint32_t i = 0; i < 2; ++i)
    for (std::uint32_t j = 0; j < 3; ++j) {
      rings.insert(b.ring_a_to_b(i, j));
      rings.insert(b.ring_b_to_a(j, i));
    }
  CHECK(rings.size() == 12);
  std::byte* prev = nullptr;
  for (std::byte* r : rings) {
    if (prev) CHECK(r - prev >= static_cast<std::ptrdiff_t>(kRingHeaderBytes + cap));
    prev = r;
  }
  CHECK(b.ring_b_to_a(2, 1) + kRingHeaderBytes + cap <= reinterpret_cast<const std::byte*>(&b.header()) +
                                                             b.header().total_bytes);
  close(fd);
  // An arena is not a bridge.
  const int a = Arena::create(2, default_ring_capacity(2), 0, &err);
  REQUIRE(a >= 0);
  Bridge wrong;
  CHECK_FALSE(wrong.map(a, &err));
  CHECK(err.find("not a ringmpi bridge") != std::string::npos);
  close(a);
}
