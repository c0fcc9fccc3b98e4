// A single-producer single-consumer ring of variable-length records in shared
// memory (one per ordered pair of ranks, see Arena::ring).
//
// Memory: [RingHeader: kRingHeaderBytes][data: capacity bytes, a power of two].
// All bytes zero is the valid empty state, so a ring nobody writes costs no
// resident memory.
//
// Records. A record is an 8-byte header word followed by its payload, padded
// to whole cache lines and starting on one: a small message is one line, so
// the consumer takes one cache miss for it. A record never wraps around the
// end: when it does not fit before the end, the producer writes a pad record
// (kind kPad) that fills the rest and puts the record at position 0.
// Header word: bits 0..7 kind (never 0), bits 8..39 payload length in bytes.
//
// Who writes what (producer P, consumer C), and in which order:
// - Indices are byte counts that only grow (positions are index & (cap-1)).
//   P owns `tail` and C owns `head` privately, in process-local memory.
// - Zeroed lines. Every header position is a line start, and before C can
//   see a header, the line start right after its record must read zero
//   ("empty"), so C never takes stale bytes of an older lap for a header.
//   P keeps `zeroed_`: every line start in [tail, zeroed_) holds zero. It
//   zeroes line starts ahead of tail (kZeroAhead bytes) right AFTER it
//   publishes a header, off the next message's critical path: x86 commits
//   stores in program order, so a zeroing store issued just before a header
//   would hold the header back until that line's ownership arrives (a second
//   cross-core round trip per message). Only a record that reaches past the
//   zeroed window zeroes the line after its end before its header.
// - P writes a record: payload, the zero after it if not zeroed yet, then
//   the header word with memory_order_release, then zeroes ahead. At a
//   wrap: the record at 0 (payload, zero, header) first, the pad header
//   last (release).
// - C reads the header word at head with memory_order_acquire: zero means
//   empty; non-zero means the whole record (and the zero after it) is visible.
//   C reads the payload, then advances head privately, and publishes it in
//   RingHeader::head with memory_order_release (release_space()).
// - P may write bytes [tail, head_published + cap) only: it keeps a private
//   copy of head and reloads RingHeader::head (acquire) only when the ring
//   looks full, so C's reads of a record happen before P overwrites it. A
//   record needs the line after it writable too (the zero after its end
//   must never land on a record C has not consumed yet); zeroing ahead stops
//   at the limit P last knew.
// - RingHeader::polled is written only by C, P only reads it;
//   producer_waiting is set by P and cleared by C (lib/p2p/progress.cpp has
//   the protocols that use them).
// Neither side ever writes the other's cache line on the fast path: P's only
// shared writes are into the data area, C's only shared write is `head`.
//
// Recycling. Past kRecycleBytes into the ring, every kRecycleCheckEvery
// bytes, P reads `head`; if C has consumed everything, the next record goes
// to position 0 behind a pad record, as at a wrap. Traffic that does not
// fill the ring (ping-pong, small windows) then keeps reusing its first
// 64 KiB, which stay in cache, while a stream still gets the whole ring (and
// pays one read of C's line per 4 KiB). Not less: right after going back to
// 0, P has only kRecycleBytes of room until C reads the pad record (a burst
// to a peer that is computing stalls beyond it); recycling at 16 KiB would
// map 5 pages in the first lap instead of 17 (on a virtual machine a page
// first touched costs 10-30 us: about 0.1 ms less, once per pair and
// direction), and unit-p2p's recycling test, whose batches need more
// than 16 KiB of room, fails with it.
//
// Pages. The arena is sparse: a ring's pages exist once written. Each side
// maps (populates) a prefix of the ring with one madvise call when a record
// reaches past what it has mapped, instead of taking a page fault every 4 KiB
// during the first lap (two faults per 64 small messages with a 1 MiB ring).
// The prefix starts at one page and at least doubles each time, up to
// kPopulateStep more per call: a pair that exchanges a few small messages
// maps one or two pages, not its whole ring (at np = 256 an MPI_Alltoall
// touches all 65536 rings; mapping each whole zeroed 4 GiB and made the
// first call take 3.6 s), and a stream still maps its first lap in a few
// calls. Records only move forward from offset 0 until they wrap or are
// recycled to 0, so what a side has mapped is always a prefix [0, mapped).
// Pairs that never talk still cost nothing, except in jobs of up to 4
// ranks with a core each: there p2p's init maps every ring's first lap
// (map_first_lap, 17 pages a ring) before the first call, since on a
// virtual machine a page touched for the first time costs 10-30 us and a
// ping-pong's first 1000 round trips ran at about twice the steady cost.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#include "shm/arena.hpp"

namespace ringmpi::shm {

struct RingHeader {
  alignas(kCacheLine) std::atomic<std::uint64_t> head;  // consumer: bytes consumed so far
  alignas(kCacheLine) std::atomic<std::uint32_t> polled; // consumer: 1 while it polls this ring directly
  // Producer sets it before sleeping on a full ring; the consumer clears it
  // and wakes the producer after making room.
  alignas(kCacheLine) std::atomic<std::uint32_t> producer_waiting;
};
static_assert(sizeof(RingHeader) <= kRingHeaderBytes);

inline constexpr std::uint8_t kPad = 0xFF;  // record kind that means "continue at position 0"
inline constexpr std::size_t kRecordHeaderBytes = 8;
inline constexpr std::uint64_t kZeroAhead = 8 * kCacheLine;  // line starts kept zero ahead of tail
inline constexpr std::uint64_t kRecycleBytes = 64 * 1024;  // see "Recycling"
inline constexpr std::uint64_t kRecycleCheckEvery = 4096;

inline constexpr std::size_t record_bytes(std::size_t payload) {
  return (kRecordHeaderBytes + payload + kCacheLine - 1) & ~(kCacheLine - 1);
}

inline constexpr std::uint64_t kPopulateFirst = 4096;        // see "Pages"
inline constexpr std::uint64_t kPopulateStep = 256 * 1024;   // see "Pages"

namespace detail {
inline std::atomic_ref<std::uint64_t> word(std::byte* p) {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(p));
}

// Populates the pages of [p, p+n) for reading or writing (best effort: an
// old kernel without MADV_POPULATE_* just faults them in one by one).
[[gnu::cold]] inline void populate(std::byte* p, std::size_t n, bool write) {
#if defined(MADV_POPULATE_WRITE)
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
  const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(p) + n + page - 1) & ~(page - 1);
  madvise(reinterpret_cast<void*>(lo), hi - lo, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
#else
  (void)p, (void)n, (void)write;
#endif
}

// Grows the mapped prefix [0, *mapped) of a ring's data area of `capacity`
// bytes so that it covers [0, end): see "Pages".
[[gnu::cold]] inline void populate_prefix(std::byte* data, std::uint64_t capacity, std::uint64_t* mapped,
                                          std::uint64_t end, bool write) {
  // Traffic that recycles (ping-pong) reaches one page past kRecycleBytes
  // (a record's zero-ahead window): that page alone, then doubling again
  // (doubling there mapped 16 pages a ping-pong never uses, 0.1-0.15 ms on
  // this virtual machine).
  const std::uint64_t grown = *mapped == kRecycleBytes ? kRecycleBytes + kPopulateFirst
                                                        : *mapped + std::clamp(*mapped, kPopulateFirst, kPopulateStep);
  const std::uint64_t upto = std::min(capacity, std::max(end, grown));
  populate(data + *mapped, static_cast<std::size_t>(upto - *mapped), write);
  *mapped = upto;
}

// Maps [0, kRecycleBytes + one page) of a ring's data area at once.
inline void map_first_lap(std::byte* data, std::uint64_t capacity, std::uint64_t* mapped, bool write) {
  const std::uint64_t lap = std::min(capacity, kRecycleBytes + kPopulateFirst);
  if (*mapped < lap) populate_prefix(data, capacity, mapped, lap, write);
}
}  // namespace detail

// The largest payload one record of a ring of `capacity` bytes holds.
constexpr std::size_t max_payload_of(std::uint64_t capacity) {
  return static_cast<std::size_t>(capacity / 2) - kCacheLine - kRecordHeaderBytes;
}

class RingProducer {
 public:
  RingProducer() = default;
  // A fresh ring is all zero: its whole first lap counts as zeroed.
  RingProducer(std::byte* ring, std::uint64_t capacity)
      : hdr_(reinterpret_cast<RingHeader*>(ring)), data_(ring + kRingHeaderBytes), mask_(capacity - 1),
        zeroed_(capacity) {}
  bool attached() const { return hdr_ != nullptr; }
  RingHeader& header() const { return *hdr_; }
  std::uint64_t capacity() const { return mask_ + 1; }
  // A process in a reused slot (launcher/slot_reuse.hpp) continues the
  // ring where its predecessor's records end: `tail` is that index, and
  // the line start there reads zero (the old producer's invariant), so the
  // zeroed window starts empty and the first commit zeroes past its record.
  void resume_at(std::uint64_t tail) {
    tail_ = zeroed_ = recycle_check_at_ = tail;
    head_cache_ = hdr_->head.load(std::memory_order_acquire);
  }
  // The largest payload one record can carry: half the ring, so that a record
  // behind a pad record still fits.
  std::size_t max_payload() const { return max_payload_of(capacity()); }
  // Maps the first lap of traffic that recycles (kRecycleBytes and the page
  // after it) now, in one call, instead of during the first messages (see
  // "Pages"): p2p's init does it for small jobs.
  void map_first_lap() { detail::map_first_lap(data_, capacity(), &mapped_, true); }

  // Room for a record of `payload` bytes: returns where to write the payload
  // (8-byte aligned), or nullptr when the ring is too full right now.
  // Call commit() to publish it; nothing is visible before that.
  [[gnu::always_inline]] std::byte* reserve(std::size_t payload) {
    const std::uint64_t need = record_bytes(payload);
    const std::uint64_t pos = tail_ & mask_;
    const std::uint64_t to_end = capacity() - pos;
    bool recycle = false;
    if (pos >= kRecycleBytes && tail_ >= recycle_check_at_) {  // see "Recycling" above
      recycle_check_at_ = tail_ + kRecycleCheckEvery;
      head_cache_ = hdr_->head.load(std::memory_order_acquire);
      recycle = head_cache_ == tail_ && need + kRecordHeaderBytes <= pos;
    }
    const std::uint64_t span = need <= to_end && !recycle ? need : to_end + need;
    if (tail_ + span + kRecordHeaderBytes > head_cache_ + capacity()) {
      head_cache_ = hdr_->head.load(std::memory_order_acquire);
      if (tail_ + span + kRecordHeaderBytes > head_cache_ + capacity()) return nullptr;
    }
    pad_ = span == need ? 0 : to_end;
    at_ = pad_ ? 0 : pos;
    need_ = need;
    // The record and the line starts commit() zeroes after it (see "Pages").
    const std::uint64_t end = std::min(capacity(), at_ + need + kZeroAhead + kCacheLine);
    if (__builtin_expect(end > mapped_, 0)) detail::populate_prefix(data_, capacity(), &mapped_, end, true);
    return data_ + at_ + kRecordHeaderBytes;
  }

  [[gnu::always_inline]] void commit(std::uint8_t kind, std::size_t payload) {
    const std::uint64_t end = tail_ + pad_ + need_;  // index of the next header
    // Line starts inside the record (and its pad) are payload, not headers.
    if (zeroed_ < end) zeroed_ = end;
    if (zeroed_ == end) zero_until(end + kCacheLine);  // beyond the window: before the header
    const std::uint64_t h = std::uint64_t(kind) | (std::uint64_t(payload) << 8);
    if (pad_) {
      detail::word(data_ + at_).store(h, std::memory_order_relaxed);
      const std::uint64_t pos = tail_ & mask_;
      detail::word(data_ + pos).store(std::uint64_t(kPad) | (std::uint64_t(pad_ - kRecordHeaderBytes) << 8),
                                      std::memory_order_release);
    } else {
      detail::word(data_ + at_).store(h, std::memory_order_release);
    }
    tail_ = end;
    // Ahead, within what C is known to have consumed.
    zero_until(std::min(end + kZeroAhead, head_cache_ + capacity()));
  }

  // Copies a whole record in one go; false when the ring is too full.
  bool push(std::uint8_t kind, const void* payload, std::size_t bytes) {
    std::byte* p = reserve(bytes);
    if (!p) return false;
    if (bytes) std::memcpy(p, payload, bytes);  // payload may be null when empty
    commit(kind, bytes);
    return true;
  }

 private:
  void zero_until(std::uint64_t upto) {
    for (; zeroed_ < upto; zeroed_ += kCacheLine) detail::word(data_ + (zeroed_ & mask_)).store(0, std::memory_order_relaxed);
  }

  RingHeader* hdr_ = nullptr;
  std::byte* data_ = nullptr;
  std::uint64_t mask_ = 0;
  std::uint64_t tail_ = 0;
  std::uint64_t head_cache_ = 0;
  std::uint64_t zeroed_ = 0;  // line starts in [tail_, zeroed_) read zero
  std::uint64_t mapped_ = 0;  // data offsets [0, mapped_) are populated in this process
  std::uint64_t recycle_check_at_ = 0;  // next emptiness check when tail_ gets here
  // The reservation in progress.
  std::uint64_t at_ = 0, pad_ = 0, need_ = 0;
};

struct Record {
  std::uint8_t kind = 0;
  std::size_t bytes = 0;
  const std::byte* payload = nullptr;
};

class RingConsumer {
 public:
  RingConsumer() = default;
  RingConsumer(std::byte* ring, std::uint64_t capacity)
      : hdr_(reinterpret_cast<RingHeader*>(ring)), data_(ring + kRingHeaderBytes), mask_(capacity - 1) {}
  bool attached() const { return hdr_ != nullptr; }
  RingHeader& header() const { return *hdr_; }
  // A process in a reused slot starts reading at `head`, the index mpiexec
  // published for it (launcher/slot_reuse.hpp).
  void resume_at(std::uint64_t head) { head_ = published_ = head; }
  // As RingProducer::map_first_lap, for reading.
  void map_first_lap() { detail::map_first_lap(data_, mask_ + 1, &mapped_, false); }

  // True when a record may be waiting (one acquire load; no side effects).
  bool ready() const { return detail::word(data_ + (head_ & mask_)).load(std::memory_order_acquire) != 0; }

  // The oldest record, or false when the ring is empty. The payload stays
  // valid until pop().
  [[gnu::always_inline]] bool peek(Record* r) {
    std::uint64_t h = detail::word(data_ + (head_ & mask_)).load(std::memory_order_acquire);
    if (h == 0) return false;
    if ((h & 0xFF) == kPad) {
      head_ += kRecordHeaderBytes + (h >> 8);
      h = detail::word(data_ + (head_ & mask_)).load(std::memory_order_acquire);
      if (h == 0) return false;  // cannot happen: the record at 0 precedes its pad
    }
    r->kind = static_cast<std::uint8_t>(h & 0xFF);
    r->bytes = static_cast<std::size_t>(h >> 8);
    const std::uint64_t end = (head_ & mask_) + record_bytes(r->bytes);
    if (__builtin_expect(end > mapped_, 0)) detail::populate_prefix(data_, mask_ + 1, &mapped_, end, false);
    r->payload = data_ + (head_ & mask_) + kRecordHeaderBytes;
    return true;
  }
  // Consumes the record last returned by peek().
  void pop(const Record& r) { head_ += record_bytes(r.bytes); }
  // Hands the consumed space back to the producer.
  void release_space() {
    if (head_ != published_) {
      hdr_->head.store(head_, std::memory_order_release);
      published_ = head_;
    }
  }
  std::uint64_t consumed_unpublished() const { return head_ - published_; }

 private:
  RingHeader* hdr_ = nullptr;
  std::byte* data_ = nullptr;
  std::uint64_t mask_ = 0;
  std::uint64_t head_ = 0;
  std::uint64_t published_ = 0;
  std::uint64_t mapped_ = 0;  // data offsets [0, mapped_) are populated in this process
};

// The index just past the last record in a ring whose consumer is at
// `from`: where a consumer taking every record now there would stop (at the
// first empty header), at most one capacity ahead; *records (if given)
// counts them. Reads only; used by mpiexec when a slot is reused
// (launcher/slot_reuse.hpp).
inline std::uint64_t records_end(std::byte* ring, std::uint64_t capacity, std::uint64_t from,
                                 std::uint64_t* records = nullptr) {
  std::byte* data = ring + kRingHeaderBytes;
  const std::uint64_t mask = capacity - 1;
  std::uint64_t at = from;
  while (at - from < capacity) {
    const std::uint64_t h = detail::word(data + (at & mask)).load(std::memory_order_acquire);
    if (h == 0) break;
    if (records && (h & 0xFF) != kPad) ++*records;
    at += (h & 0xFF) == kPad ? kRecordHeaderBytes + (h >> 8) : record_bytes(static_cast<std::size_t>(h >> 8));
  }
  return at;
}

}  // namespace ringmpi::shm
