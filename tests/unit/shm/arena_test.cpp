#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "shm/arena.hpp"

using namespace ringmpi::shm;

TEST_CASE("arena layout: aligned regions, one ring per ordered pair, nothing overlaps") {
  for (std::uint32_t n : {1u, 2u, 3u, 8u, 64u, 256u}) {
    const ArenaLayout l = ArenaLayout::compute(n, default_ring_capacity(n));
    CHECK(l.slots_offset % kCacheLine == 0);
    CHECK(l.pending_offset >= l.slots_offset + n * sizeof(RankSlot));
    CHECK(l.pending_stride * 8 >= n);
    CHECK(l.rings_offset % 4096 == 0);
    CHECK(l.rings_offset >= l.pending_offset + n * l.pending_stride);
    CHECK(l.total_bytes >= l.rings_offset + std::uint64_t(n) * n * l.ring_stride);
  }
}

TEST_CASE("arena create/map round trip; a bad header is refused with a clear error") {
  std::string err;
  const int fd = Arena::create(4, default_ring_capacity(4), 0, &err);
  REQUIRE(fd >= 0);
  Arena a = Arena::map(fd, &err);
  REQUIRE(a.mapped());
  CHECK(a.nranks() == 4);
  CHECK(a.ring(1, 2) - a.ring(1, 1) == static_cast<std::ptrdiff_t>(a.header().ring_stride));
  CHECK(a.slot(3).pid.load() == 0);
  a.header().magic = 42;  // corrupt it
  Arena b = Arena::map(fd, &err);
  CHECK_FALSE(b.mapped());
  CHECK(err.find("layout mismatch") != std::string::npos);
  close(fd);

  CHECK(Arena::create(0, kMinDefaultRingCapacity, 0, &err) == -1);
  CHECK(Arena::create(2, 1000, 0, &err) == -1);
}

TEST_CASE("default ring capacity: 1 MiB for small jobs, down to 64 KiB, arena within 256 MiB") {
  CHECK(default_ring_capacity(1) == kMaxDefaultRingCapacity);
  CHECK(default_ring_capacity(8) == kMaxDefaultRingCapacity);
  CHECK(default_ring_capacity(16) == kMaxDefaultRingCapacity);
  CHECK(default_ring_capacity(32) == 256 * 1024);
  CHECK(default_ring_capacity(64) == kMinDefaultRingCapacity);
  CHECK(default_ring_capacity(1024) == kMinDefaultRingCapacity);
  for (std::uint64_t n = 1; n <= 64; ++n) {
    const std::uint64_t cap = default_ring_capacity(n);
    CHECK((cap & (cap - 1)) == 0);
    CHECK(n * n * cap <= (std::uint64_t(256) << 20));
  }
}

TEST_CASE("arena with room for spawns: speed-relevant sizes follow np, not the slot count") {
  std::string err;
  const std::uint32_t np = 64, slots = np + kSpawnHeadroom;
  const int fd = Arena::create(slots, default_ring_capacity(np), 0, &err, np, 100);
  REQUIRE(fd >= 0);
  Arena a = Arena::map(fd, &err);
  REQUIRE(a.mapped());
  CHECK(a.nranks() == slots);
  CHECK(a.header().sized_for == np);
  CHECK(a.header().universe == 100);
  CHECK(a.header().started.load() == np);
  CHECK(a.header().ring_capacity == default_ring_capacity(np));
  CHECK(a.header().coll_slot_bytes == coll_slot_bytes(np));
  CHECK(a.coll_segment(1, 0) - a.coll_segment(0, 0) ==
        static_cast<std::ptrdiff_t>(kCollSegmentsPerOwner * coll_segment_bytes(slots, np)));
  close(fd);
  // Address space of the room at np = 256: rings and segments grow with the
  // square of the slots only (sparse), never the per-pair sizes.
  const ArenaLayout l0 = ArenaLayout::compute(256, default_ring_capacity(256));
  const ArenaLayout l1 = ArenaLayout::compute(256 + kSpawnHeadroom, default_ring_capacity(256), 256);
  CHECK(l1.ring_stride == l0.ring_stride);
  CHECK(l1.total_bytes < 2 * l0.total_bytes);
}

#include "shm/spawn_wire.hpp"

TEST_CASE("spawn wire: request and reply round trip; truncated or trailing bytes refused") {
  SpawnRequest q;
  q.context_slot = 17;
  q.root = 1;
  q.parents = {0, 2, 5};
  SpawnCommand c;
  c.program = "./worker";
  c.args = {"a", "", "x y"};
  c.maxprocs = 4;
  c.soft = {4, 2};
  c.wdir = "/tmp";
  c.path = "/opt/bin";
  q.commands = {c, c};
  const std::string bytes = encode(q);
  SpawnRequest back;
  REQUIRE(decode(bytes.data(), bytes.size(), &back));
  CHECK(back.context_slot == 17);
  CHECK(back.root == 1);
  CHECK(back.parents == q.parents);
  REQUIRE(back.commands.size() == 2);
  CHECK(back.commands[1].args == c.args);
  CHECK(back.commands[1].soft == c.soft);
  CHECK(back.commands[0].wdir == "/tmp");
  CHECK(back.commands[0].path == "/opt/bin");
  CHECK_FALSE(decode(bytes.data(), bytes.size() - 1, &back));
  const std::string longer = bytes + "x";
  CHECK_FALSE(decode(longer.data(), longer.size(), &back));

  SpawnReply r;
  r.error = 26;
  r.codes = {26, 26};
  r.counts = {2};
  r.message = "cannot run 'x'";
  const std::string rb = encode(r);
  SpawnReply rback;
  REQUIRE(decode(rb.data(), rb.size(), &rback));
  CHECK(rback.error == 26);
  CHECK(rback.codes == r.codes);
  CHECK(rback.counts == r.counts);
  CHECK(rback.message == r.message);
}
