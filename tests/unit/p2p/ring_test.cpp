// The SPSC ring: record format, wrap-around, full/empty, and stress tests
// across two threads (run under ThreadSanitizer too) and two processes.
#include <doctest/doctest.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "shm/ring.hpp"

using namespace ringmpi::shm;

namespace {

// Zeroed, page-aligned memory for one ring, shared with children after fork.
struct SharedRing {
  explicit SharedRing(std::uint64_t capacity) : cap(capacity), bytes(kRingHeaderBytes + capacity) {
    mem = static_cast<std::byte*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    REQUIRE(mem != MAP_FAILED);
  }
  ~SharedRing() { munmap(mem, bytes); }
  SharedRing(const SharedRing&) = delete;
  SharedRing& operator=(const SharedRing&) = delete;
  std::uint64_t cap;
  std::size_t bytes;
  std::byte* mem;
};

// Record i: kind 1..254 and a payload derived from i, so the consumer can
// check each record without shared state.
std::size_t size_of(std::uint64_t i, std::size_t max) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  // Mostly small records, now and then a big one (forces wraps and full rings).
  return (x % 16 == 0) ? static_cast<std::size_t>(x >> 8) % (max + 1) : static_cast<std::size_t>(x >> 8) % 200;
}
std::uint8_t kind_of(std::uint64_t i) { return static_cast<std::uint8_t>(1 + i % 254); }
void fill(std::uint64_t i, std::byte* p, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) p[k] = static_cast<std::byte>((i * 31 + k * 7) & 0xFF);
}
bool check(std::uint64_t i, const std::byte* p, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k)
    if (p[k] != static_cast<std::byte>((i * 31 + k * 7) & 0xFF)) return false;
  return true;
}

void produce(std::byte* ring, std::uint64_t cap, std::uint64_t count) {
  RingProducer p(ring, cap);
  const std::size_t max = p.max_payload();
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t n = size_of(i, max);
    std::byte* dst;
    for (int spin = 0; !(dst = p.reserve(n)); ++spin)
      if (spin > 100) sched_yield();
    fill(i, dst, n);
    p.commit(kind_of(i), n);
  }
}

// Returns the number of records that arrived intact and in order.
std::uint64_t consume(std::byte* ring, std::uint64_t cap, std::uint64_t count) {
  RingConsumer c(ring, cap);
  const std::size_t max = RingProducer(ring, cap).max_payload();
  std::uint64_t good = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    Record r;
    for (int spin = 0; !c.peek(&r); ++spin) {
      c.release_space();  // the producer may be waiting for exactly this room
      if (spin > 100) sched_yield();
    }
    if (r.kind == kind_of(i) && r.bytes == size_of(i, max) && check(i, r.payload, r.bytes)) ++good;
    c.pop(r);
    if (i % 8 == 0) c.release_space();
  }
  c.release_space();
  return good;
}

// `count` records from a forked producer to this process through a shared ring.
void two_processes(std::uint64_t capacity, std::uint64_t count) {
  SharedRing m(capacity);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    produce(m.mem, m.cap, count);
    _exit(0);
  }
  const std::uint64_t good = consume(m.mem, m.cap, count);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(good == count);
}

}  // namespace

TEST_CASE("ring: zero bytes are the empty state; records come out in order with their kind and size") {
  SharedRing m(4096);
  RingProducer p(m.mem, m.cap);
  RingConsumer c(m.mem, m.cap);
  Record r;
  CHECK_FALSE(c.ready());
  CHECK_FALSE(c.peek(&r));
  const char a[] = "hello";
  CHECK(p.push(7, a, sizeof a));
  CHECK(p.push(9, nullptr, 0));
  CHECK(c.ready());
  REQUIRE(c.peek(&r));
  CHECK(r.kind == 7);
  CHECK(r.bytes == sizeof a);
  CHECK(std::memcmp(r.payload, a, sizeof a) == 0);
  c.pop(r);
  REQUIRE(c.peek(&r));
  CHECK(r.kind == 9);
  CHECK(r.bytes == 0);
  c.pop(r);
  CHECK_FALSE(c.peek(&r));
}

TEST_CASE("ring: a full ring refuses records until the consumer publishes its progress") {
  SharedRing m(4096);
  RingProducer p(m.mem, m.cap);
  RingConsumer c(m.mem, m.cap);
  std::vector<std::byte> data(900, std::byte{0x5A});
  int pushed = 0;
  while (p.push(1, data.data(), data.size())) ++pushed;
  CHECK(pushed == 4);  // 4 x 960 bytes (whole cache lines) + the zeroed line after them fit in 4096, a fifth does not
  CHECK(p.max_payload() == 4096 / 2 - 64 - 8);
  Record r;
  REQUIRE(c.peek(&r));
  c.pop(r);
  CHECK_FALSE(p.push(1, data.data(), data.size()));  // consumed but not yet published
  c.release_space();
  // 256 bytes are left before the end: the record goes to position 0 behind a
  // pad record, which needs the room of a second consumed record.
  CHECK_FALSE(p.push(1, data.data(), data.size()));
  REQUIRE(c.peek(&r));
  c.pop(r);
  c.release_space();
  CHECK(p.push(1, data.data(), data.size()));
  int seen = 0;
  while (c.peek(&r)) {
    CHECK(r.kind == 1);
    CHECK(r.bytes == 900);
    CHECK(r.payload[899] == std::byte{0x5A});
    c.pop(r);
    ++seen;
  }
  CHECK(seen == 3);
}

TEST_CASE("ring: stale bytes of an older lap never read as a record") {
  // Payload words that look like record headers must not confuse the
  // consumer once the ring wraps over them: many laps of records of 1 to 7
  // lines, so header positions land on old payload, pads and the lines the
  // producer zeroes ahead of its tail.
  SharedRing m(4096);
  RingProducer p(m.mem, m.cap);
  RingConsumer c(m.mem, m.cap);
  std::vector<std::uint64_t> fake(64, (std::uint64_t(16) << 8) | 3);
  for (int lap = 0; lap < 2000; ++lap) {
    const std::size_t n = (lap % 7 + 1) * 60;
    REQUIRE(p.push(2, fake.data(), n));
    Record r;
    REQUIRE(c.peek(&r));
    CHECK(r.kind == 2);
    CHECK(r.bytes == n);
    c.pop(r);
    c.release_space();
    CHECK_FALSE(c.peek(&r));
  }
}

TEST_CASE("ring: two threads, half a million random-size records, none lost, reordered or torn") {
  const std::uint64_t count = 500'000;
  SharedRing m(1 << 14);
  std::uint64_t good = 0;
  std::thread consumer([&] { good = consume(m.mem, m.cap, count); });
  produce(m.mem, m.cap, count);
  consumer.join();
  CHECK(good == count);
}

TEST_CASE("ring: two processes, two million random-size records through shared memory") {
#ifdef __SANITIZE_THREAD__
  const std::uint64_t count = 100'000;  // a forked child under ThreadSanitizer is very slow
#else
  const std::uint64_t count = 2'000'000;
#endif
  two_processes(1 << 16, count);
}

TEST_CASE("ring: a large ring found empty past 64 KiB goes back to position 0 (recycling)") {
  // Batches of 1..40 records of random size, each batch consumed before the
  // next: the producer finds the ring empty at its once-a-lap check, so
  // records keep going back to the start behind pad records, next to laps
  // where the check finds records in flight.
  SharedRing m(1 << 18);
  RingProducer p(m.mem, m.cap);
  RingConsumer c(m.mem, m.cap);
  const std::size_t max = p.max_payload();
  std::uint64_t next = 0, good = 0, low_positions = 0;
  for (std::uint64_t batch = 0; batch < 3000; ++batch) {
    const std::uint64_t k = 1 + (batch * 7919) % 40;
    for (std::uint64_t j = 0; j < k; ++j) {
      const std::uint64_t i = next + j;
      const std::size_t n = size_of(i, max / 8);
      std::byte* dst = p.reserve(n);
      REQUIRE(dst != nullptr);
      if (static_cast<std::size_t>(dst - (m.mem + kRingHeaderBytes)) < kRecycleBytes) ++low_positions;
      fill(i, dst, n);
      p.commit(kind_of(i), n);
    }
    for (std::uint64_t j = 0; j < k; ++j) {
      const std::uint64_t i = next + j;
      Record r;
      REQUIRE(c.peek(&r));
      if (r.kind == kind_of(i) && r.bytes == size_of(i, max / 8) && check(i, r.payload, r.bytes)) ++good;
      c.pop(r);
    }
    c.release_space();
    Record r;
    CHECK_FALSE(c.peek(&r));
    next += k;
  }
  CHECK(good == next);
  // Without recycling about a quarter of the records would sit in the first
  // 64 KiB of the 256 KiB ring (deterministic sizes: about half do with it).
  CHECK(low_positions > next / 3);
}

// Pages of the ring that are in memory (mincore on the shared mapping).
std::size_t resident_pages(const SharedRing& m) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((m.bytes + page - 1) / page);
  REQUIRE(mincore(m.mem, m.bytes, in.data()) == 0);
  std::size_t n = 0;
  for (unsigned char v : in) n += v & 1;
  return n;
}

TEST_CASE("ring: a pair that exchanges a few small records maps a page or two, not the whole ring") {
  // At np = 256 an MPI_Alltoall puts one record into each of 65536 rings of
  // 64 KiB: mapping whole rings on first use zeroed 4 GiB (see "Pages").
  SharedRing m(1 << 20);
  RingProducer p(m.mem, m.cap);
  RingConsumer c(m.mem, m.cap);
  for (std::uint64_t i = 0; i < 4; ++i) REQUIRE(p.push(kind_of(i), "abcdefgh", 8));
  for (std::uint64_t i = 0; i < 4; ++i) {
    Record r;
    REQUIRE(c.peek(&r));
    CHECK(r.kind == kind_of(i));
    c.pop(r);
  }
  c.release_space();
  CHECK(resident_pages(m) <= 2);
  // A stream still gets its pages, a growing prefix at a time, and every
  // record comes through intact.
  const std::size_t n = 3000;
  std::vector<std::byte> payload(n);
  for (std::uint64_t i = 0; i < 200; ++i) {
    fill(i, payload.data(), n);
    REQUIRE(p.push(kind_of(i), payload.data(), n));
    Record r;
    REQUIRE(c.peek(&r));
    CHECK((r.kind == kind_of(i) && r.bytes == n && check(i, r.payload, n)));
    c.pop(r);
    c.release_space();
  }
  CHECK(resident_pages(m) < m.bytes / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
}

TEST_CASE("ring: two processes through a 1 MiB ring (recycling and wraps under load)") {
#ifdef __SANITIZE_THREAD__
  const std::uint64_t count = 100'000;
#else
  const std::uint64_t count = 1'000'000;
#endif
  two_processes(1 << 20, count);
}
