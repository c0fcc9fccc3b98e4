// mpiexec's preparation of a reused slot (launcher/slot_reuse.hpp,
// invariant 3) on a real arena: what the old process left is dropped or
// kept, its shared state reset, and RINGMPI_RESUME says where the new one
// continues; rings nobody used are left alone (and unallocated).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "../../../launcher/slot_reuse.hpp"
#include "shm/ring.hpp"

using namespace ringmpi;

namespace {

void put(shm::RingProducer& p, std::size_t n) {
  std::byte* d = p.reserve(n);
  REQUIRE(d != nullptr);
  std::memset(d, 0x5a, n);
  p.commit(7, n);
}

}  // namespace

TEST_CASE("prepare_slots drops what was sent to the old process, keeps what it sent, resets its slot") {
  std::string err;
  const std::uint64_t cap = shm::kMinDefaultRingCapacity;
  const int fd = shm::Arena::create(4, cap, 0, &err, 2);
  REQUIRE(fd >= 0);
  shm::Arena a = shm::Arena::map(fd, &err);
  REQUIRE(a.mapped());
  // Slot 2 was a spawned process talking with slot 0: 0 sent it three
  // records, it read one; it sent 0 two records, 0 read one.
  shm::RingProducer to_old(a.ring(0, 2), cap);
  shm::RingConsumer old_in(a.ring(0, 2), cap);
  shm::RingProducer old_out(a.ring(2, 0), cap);
  shm::RingConsumer live_in(a.ring(2, 0), cap);
  for (std::size_t n : {100, 5000, 40}) put(to_old, n);
  shm::Record r;
  REQUIRE(old_in.peek(&r));
  old_in.pop(r);
  old_in.release_space();
  for (std::size_t n : {64, 300}) put(old_out, n);
  REQUIRE(live_in.peek(&r));
  live_in.pop(r);
  live_in.release_space();
  auto& in_hdr = *reinterpret_cast<shm::RingHeader*>(a.ring(0, 2));
  in_hdr.polled.store(1);  // the old process polled that ring
  shm::RankSlot& s = a.slot(2);
  s.pid.store(1234);
  s.finalized.store(1);
  s.open_ports.store(5);
  s.exit_note.kind.store(1);
  a.pending(2)[0].store(1);
  a.header().started.store(4);

  const launcher::SlotReuse prep = launcher::prepare_slots(a, fd, 2, 1, 4);
  CHECK(prep.discarded == 2);  // the two records slot 0 sent that nobody read
  CHECK(prep.unread == 1);     // slot 0 still reads the old process's second record
  CHECK(in_hdr.polled.load() == 0);
  const std::uint64_t in_head = in_hdr.head.load();
  CHECK(in_head == shm::records_end(a.ring(0, 2), cap, in_head));  // empty from there
  CHECK(s.pid.load() == 0);
  CHECK(s.finalized.load() == 0);
  CHECK(s.open_ports.load() == 0);
  CHECK(s.exit_note.kind.load() == 0);
  CHECK(s.generation.load() == 1);
  CHECK(a.pending(2)[0].load() == 0);
  REQUIRE(prep.resume.size() == 1);
  // Slot 0 only: "0:in_head:out_tail".
  const std::string& env = prep.resume[0];
  CHECK(env.rfind("0:" + std::to_string(in_head) + ":", 0) == 0);
  CHECK(env.find(';') == std::string::npos);
  const std::uint64_t tail = std::stoull(env.substr(env.rfind(':') + 1));

  // The new process resumes there; both live ends carry on unchanged.
  shm::RingConsumer new_in(a.ring(0, 2), cap);
  new_in.resume_at(in_head);
  shm::RingProducer new_out(a.ring(2, 0), cap);
  new_out.resume_at(tail);
  put(to_old, 123);
  REQUIRE(new_in.peek(&r));
  CHECK(r.bytes == 123);
  put(new_out, 77);
  REQUIRE(live_in.peek(&r));
  CHECK(r.bytes == 300);  // the old process's last record first
  live_in.pop(r);
  REQUIRE(live_in.peek(&r));
  CHECK(r.bytes == 77);
  close(fd);
}

TEST_CASE("prepare_slots leaves fresh slots and untouched rings alone") {
  std::string err;
  const std::uint64_t cap = shm::kMinDefaultRingCapacity;
  const int fd = shm::Arena::create(6, cap, 0, &err, 2);
  REQUIRE(fd >= 0);
  shm::Arena a = shm::Arena::map(fd, &err);
  REQUIRE(a.mapped());
  a.header().started.store(4);
  // Slots 3..4: 3 had a process that never talked, 4 is fresh.
  const launcher::SlotReuse prep = launcher::prepare_slots(a, fd, 3, 2, 4);
  REQUIRE(prep.resume.size() == 2);
  CHECK(prep.resume[0].empty());
  CHECK(prep.resume[1].empty());
  CHECK(a.slot(3).generation.load() == 1);
  CHECK(a.slot(4).generation.load() == 0);  // never had a process: nothing to reset
  CHECK(prep.discarded == 0);
  CHECK(prep.unread == 0);
  close(fd);
}
