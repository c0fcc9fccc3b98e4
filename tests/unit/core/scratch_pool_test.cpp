#include <doctest/doctest.h>

#include <cstring>

#include "core/scratch_pool.hpp"

using ringmpi::core::ScratchPool;

TEST_CASE("large scratch blocks are reused, small ones are not kept") {
  ScratchPool pool;
  ScratchPool::Block a = pool.take(1 << 20);
  REQUIRE(a.p != nullptr);
  CHECK(a.cap >= (1u << 20));
  std::memset(a.p, 7, a.cap);  // writable over its whole capacity
  std::byte* first = a.p;
  pool.give(a);
  ScratchPool::Block b = pool.take(512 << 10);  // smaller request: the held block fits
  CHECK(b.p == first);
  pool.give(b);
  ScratchPool::Block small = pool.take(100);
  CHECK(small.cap >= 100);
  pool.give(small);
  ScratchPool::Block zero = pool.take(0);
  CHECK(zero.p != nullptr);
  pool.give(zero);
}

TEST_CASE("the smallest held block that fits is chosen, and the pool keeps at most kMaxHeld") {
  ScratchPool pool;
  ScratchPool::Block big = pool.take(8 << 20), mid = pool.take(1 << 20);
  std::byte *bigp = big.p, *midp = mid.p;
  pool.give(big);
  pool.give(mid);
  ScratchPool::Block got = pool.take(900 << 10);
  CHECK(got.p == midp);
  ScratchPool::Block got2 = pool.take(900 << 10);
  CHECK(got2.p == bigp);
  pool.give(got);
  pool.give(got2);
  // A block larger than the cap is handed back to malloc, not held; a new
  // request of that size still gets enough memory.
  ScratchPool::Block huge = pool.take(ScratchPool::kMaxHeld + 1);
  pool.give(huge);
  ScratchPool::Block again = pool.take(ScratchPool::kMaxHeld + 1);
  CHECK(again.cap >= ScratchPool::kMaxHeld + 1);
  pool.give(again);
}
