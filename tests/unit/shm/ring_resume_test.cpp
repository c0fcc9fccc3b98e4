// Resuming a ring in a reused process slot (launcher/slot_reuse.hpp,
// invariant 3): records_end() finds where the records end, a new consumer
// resumes at the head published for it, a new producer right after the old
// producer's records, and the live side never notices. Sizes vary so that
// the rings wrap and pad records occur.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "shm/ring.hpp"

using namespace ringmpi::shm;

namespace {

constexpr std::uint64_t kCap = 64 * 1024;

struct Ring {
  Ring() : mem(kRingHeaderBytes + kCap) {}
  std::byte* base() { return reinterpret_cast<std::byte*>(mem.data()); }
  std::vector<std::uint64_t> mem;  // zeroed, 8-byte aligned
};

std::size_t size_of(std::uint64_t i) { return (i * 7919) % 3 == 0 ? 3000 + (i * 131) % 9000 : (i * 37) % 300; }

void put(RingProducer& p, std::uint64_t i) {
  const std::size_t n = size_of(i);
  std::byte* d = p.reserve(n);
  REQUIRE(d != nullptr);
  for (std::size_t k = 0; k < n; ++k) d[k] = static_cast<std::byte>((i + k) & 0xFF);
  p.commit(static_cast<std::uint8_t>(1 + i % 200), n);
}

// Takes one record and checks it is record i.
void take(RingConsumer& c, std::uint64_t i) {
  Record r;
  REQUIRE(c.peek(&r));
  CHECK(r.kind == 1 + i % 200);
  REQUIRE(r.bytes == size_of(i));
  bool same = true;
  for (std::size_t k = 0; k < r.bytes; ++k) same &= r.payload[k] == static_cast<std::byte>((i + k) & 0xFF);
  CHECK(same);
  c.pop(r);
  c.release_space();
}

}  // namespace

TEST_CASE("a new consumer resumes past the records left for its predecessor") {
  Ring ring;
  RingProducer live(ring.base(), kCap);
  RingConsumer old(ring.base(), kCap);
  std::uint64_t next = 0, read = 0;
  for (int round = 0; round < 40; ++round) {  // several laps
    for (int k = 0; k < 3; ++k) put(live, next++);
    while (read + 1 < next) take(old, read++);  // leaves one unread
  }
  // The old consumer is gone: mpiexec drops what it left (one record).
  auto& hdr = *reinterpret_cast<RingHeader*>(ring.base());
  std::uint64_t dropped = 0;
  const std::uint64_t end = records_end(ring.base(), kCap, hdr.head.load(), &dropped);
  CHECK(dropped == 1);
  CHECK(records_end(ring.base(), kCap, end) == end);  // nothing after the end
  hdr.head.store(end);
  RingConsumer fresh(ring.base(), kCap);
  fresh.resume_at(end);
  Record r;
  CHECK_FALSE(fresh.peek(&r));
  for (int round = 0; round < 40; ++round) {
    for (int k = 0; k < 3; ++k) put(live, next + static_cast<std::uint64_t>(k));
    for (int k = 0; k < 3; ++k) take(fresh, next++);
  }
  CHECK_FALSE(fresh.peek(&r));
}

TEST_CASE("a new producer resumes after the records its predecessor left unread") {
  Ring ring;
  RingConsumer live(ring.base(), kCap);
  std::uint64_t next = 0, read = 0;
  {
    RingProducer old(ring.base(), kCap);
    for (int round = 0; round < 40; ++round) {
      for (int k = 0; k < 3; ++k) put(old, next++);
      while (read + 2 < next) take(live, read++);  // two stay unread
    }
  }
  auto& hdr = *reinterpret_cast<RingHeader*>(ring.base());
  std::uint64_t unread = 0;
  const std::uint64_t end = records_end(ring.base(), kCap, hdr.head.load(), &unread);
  CHECK(unread == 2);
  RingProducer fresh(ring.base(), kCap);
  fresh.resume_at(end);
  // The live consumer reads the old records, then the new ones, in order,
  // over several more laps.
  for (int round = 0; round < 40; ++round) {
    for (int k = 0; k < 3; ++k) put(fresh, next++);
    while (read < next) take(live, read++);
  }
  Record r;
  CHECK_FALSE(live.peek(&r));
}

TEST_CASE("records_end of an untouched ring is its start") {
  Ring ring;
  std::uint64_t n = 0;
  CHECK(records_end(ring.base(), kCap, 0, &n) == 0);
  CHECK(n == 0);
}
