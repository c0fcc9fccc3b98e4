// Preparing freed slots for new processes: the invariants are in
// slot_reuse.hpp.
#include "slot_reuse.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>

#include "shm/ring.hpp"

namespace ringmpi::launcher {
namespace {

// What mpiexec needs of one ring, read without touching the mapping
// (invariant 4): the consumer's head, the two flags, the word at head.
struct RingLook {
  std::uint64_t head = 0;
  std::uint32_t polled = 0, producer_waiting = 0;
  std::uint64_t word_at_head = 0;
  bool zero() const { return head == 0 && polled == 0 && producer_waiting == 0 && word_at_head == 0; }
};

bool read_at(int fd, void* to, std::size_t bytes, std::uint64_t offset) {
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t n = pread(fd, static_cast<char*>(to) + got, bytes - got, static_cast<off_t>(offset + got));
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

// Falls back to the mapping (a page more, no harm) if pread fails.
RingLook look(const shm::Arena& a, int fd, std::byte* ring) {
  RingLook l;
  const std::uint64_t off = static_cast<std::uint64_t>(ring - a.base());
  const std::uint64_t mask = a.header().ring_capacity - 1;
  unsigned char h[sizeof(shm::RingHeader)];
  if (fd >= 0 && read_at(fd, h, sizeof h, off)) {
    std::memcpy(&l.head, h + offsetof(shm::RingHeader, head), sizeof l.head);
    std::memcpy(&l.polled, h + offsetof(shm::RingHeader, polled), sizeof l.polled);
    std::memcpy(&l.producer_waiting, h + offsetof(shm::RingHeader, producer_waiting), sizeof l.producer_waiting);
    if (read_at(fd, &l.word_at_head, sizeof l.word_at_head, off + shm::kRingHeaderBytes + (l.head & mask))) return l;
  }
  const auto& live = *reinterpret_cast<const shm::RingHeader*>(ring);
  l.head = live.head.load(std::memory_order_acquire);
  l.polled = live.polled.load(std::memory_order_relaxed);
  l.producer_waiting = live.producer_waiting.load(std::memory_order_relaxed);
  l.word_at_head = std::atomic_ref<std::uint64_t>(
                       *reinterpret_cast<std::uint64_t*>(ring + shm::kRingHeaderBytes + (l.head & mask)))
                       .load(std::memory_order_acquire);
  return l;
}

void reset_rank_slot(shm::RankSlot& r) {
  r.sleeping.store(0, std::memory_order_relaxed);
  r.pid.store(0, std::memory_order_relaxed);
  r.finalized.store(0, std::memory_order_relaxed);
  r.open_ports.store(0, std::memory_order_relaxed);
  r.stuck_rounds.store(0, std::memory_order_relaxed);
  r.stuck_doorbell.store(0, std::memory_order_relaxed);
  r.stuck_waits_for.store(-1, std::memory_order_relaxed);
  std::memset(r.stuck_call, 0, sizeof r.stuck_call);
  r.exit_note.code = 0;
  std::memset(r.exit_note.text, 0, sizeof r.exit_note.text);
  r.exit_note.kind.store(0, std::memory_order_relaxed);
  r.barrier_count.store(0, std::memory_order_relaxed);
  r.barrier_generation.store(0, std::memory_order_relaxed);
  // The forks that follow order these stores before the new process's loads.
  r.generation.fetch_add(1, std::memory_order_release);
}

}  // namespace

SlotReuse prepare_slots(const shm::Arena& a, int fd, std::uint32_t base, std::uint32_t n, std::uint32_t started) {
  SlotReuse out;
  out.resume.resize(n);
  const std::uint64_t cap = a.header().ring_capacity;
  const std::uint32_t reused_end = std::min(base + n, started);  // [base, reused_end) had processes
  if (base >= reused_end) return out;
  // Pass 1: rings into the range (invariant 3, ring j->s).
  std::vector<std::uint64_t> in_head(static_cast<std::size_t>(n) * started, 0);
  for (std::uint32_t s = base; s < reused_end; ++s) {
    for (std::uint32_t j = 0; j < started; ++j) {
      std::byte* ring = a.ring(j, s);
      const RingLook l = look(a, fd, ring);
      if (l.zero()) continue;
      auto& h = *reinterpret_cast<shm::RingHeader*>(ring);
      std::uint64_t head = l.head;
      if (l.word_at_head != 0) {
        head = shm::records_end(ring, cap, l.head, &out.discarded);
        h.head.store(head, std::memory_order_release);
      }
      if (l.polled) h.polled.store(0, std::memory_order_relaxed);
      if (l.producer_waiting) h.producer_waiting.store(0, std::memory_order_relaxed);
      in_head[static_cast<std::size_t>(s - base) * started + j] = head;
    }
    std::atomic<std::uint64_t>* pending = a.pending(s);
    for (std::uint32_t w = 0; w < (a.nranks() + 63) / 64; ++w)
      if (pending[w].load(std::memory_order_relaxed) != 0) pending[w].store(0, std::memory_order_relaxed);
    reset_rank_slot(a.slot(s));
  }
  // Pass 2: rings out of the range (ring s->j): the new producer's tail.
  // For j in the range too, pass 1 emptied the ring and this is its head.
  for (std::uint32_t s = base; s < reused_end; ++s) {
    std::string& env = out.resume[s - base];
    for (std::uint32_t j = 0; j < started; ++j) {
      std::byte* ring = a.ring(s, j);
      const RingLook l = look(a, fd, ring);
      std::uint64_t tail = l.head;
      if (l.word_at_head != 0) tail = shm::records_end(ring, cap, l.head, &out.unread);
      // The old producer may have been waiting for room: not the new one.
      if (l.producer_waiting) reinterpret_cast<shm::RingHeader*>(ring)->producer_waiting.store(0, std::memory_order_relaxed);
      const std::uint64_t head = in_head[static_cast<std::size_t>(s - base) * started + j];
      if (head == 0 && tail == 0) continue;
      if (!env.empty()) env += ';';
      env += std::to_string(j) + ':' + std::to_string(head) + ':' + std::to_string(tail);
    }
  }
  return out;
}

}  // namespace ringmpi::launcher
