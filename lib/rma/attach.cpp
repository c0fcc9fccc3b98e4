// Dynamic windows' attachment lists (attach.hpp).
//
// The memory-ordering argument. Each rank's AttachList is written by that
// rank only (MPI_Win_attach / MPI_Win_detach are local calls) and read by
// every origin that targets it, with no lock between them: a seqlock.
// - The owner makes seq odd (relaxed store, then a release fence), rewrites
//   the slots and count with relaxed stores, then makes seq even again with
//   a release store. Only the owner writes, so it needs no read-modify-write.
// - A reader loads seq with acquire, gives up the round if it is odd, loads
//   count and the slots (relaxed), issues an acquire fence and loads seq
//   again: if it is unchanged, no rewrite overlapped the reads (the owner's
//   release fence after its odd store pairs with the reader's acquire fence:
//   had the reader seen any store of a rewrite, it would see the odd seq
//   too), so what it read is one consistent list. Every word is an atomic,
//   so a torn round is a retry, never a data race.
// - Why the reader sees an attachment at all: MPI-3.1 §11.2.4 makes the
//   program tell the origin the address (a message, a collective) after
//   MPI_Win_attach; that synchronisation carries the owner's even seq store
//   (release, made before the message) to the origin, whose acquire load of
//   seq comes after it. Likewise a detach followed by a synchronisation is
//   seen by every later access. Accesses racing with an attach or detach of
//   the same memory are erroneous programs; they get one answer or the other.
// The owner never blocks while seq is odd (a few stores), so a reader that
// sees it odd spins briefly; it yields in case the owner lost its core.
#include "rma/attach.hpp"

#include <sched.h>

#include <cstdio>

#include "mpi.h"

namespace ringmpi::rma {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return buf;
}

// Brackets the owner's rewrite (see the argument above).
class Rewrite {
 public:
  explicit Rewrite(AttachList& l) : l_(l), seq_(l.seq.load(kRelaxed)) {
    l_.seq.store(seq_ + 1, kRelaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  ~Rewrite() { l_.seq.store(seq_ + 2, std::memory_order_release); }
  Rewrite(const Rewrite&) = delete;
  Rewrite& operator=(const Rewrite&) = delete;

 private:
  AttachList& l_;
  std::uint32_t seq_;
};

}  // namespace

int attach(AttachList& mine, std::uintptr_t base, std::size_t bytes, std::string* why) {
  const std::uint32_t n = mine.count.load(kRelaxed);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint64_t b = mine.slot[i].base.load(kRelaxed), len = mine.slot[i].bytes.load(kRelaxed);
    if (base < b + len && b < base + bytes) {
      *why = "memory at " + hex(base) + " (" + std::to_string(bytes) + " bytes) overlaps memory attached before at " +
             hex(b) + " (" + std::to_string(len) + " bytes)";
      return MPI_ERR_RMA_ATTACH;
    }
  }
  if (n == kMaxAttached) {
    *why = "this rank has " + std::to_string(kMaxAttached) +
           " attachments on the window already, the most a dynamic window keeps per rank; detach some first";
    return MPI_ERR_RMA_ATTACH;
  }
  Rewrite r(mine);
  mine.slot[n].base.store(base, kRelaxed);
  mine.slot[n].bytes.store(bytes, kRelaxed);
  mine.count.store(n + 1, kRelaxed);
  return MPI_SUCCESS;
}

bool detach(AttachList& mine, std::uintptr_t base) {
  const std::uint32_t n = mine.count.load(kRelaxed);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (mine.slot[i].base.load(kRelaxed) != base) continue;
    // The last slot moves into the hole; order does not matter to readers.
    Rewrite r(mine);
    mine.slot[i].base.store(mine.slot[n - 1].base.load(kRelaxed), kRelaxed);
    mine.slot[i].bytes.store(mine.slot[n - 1].bytes.load(kRelaxed), kRelaxed);
    mine.count.store(n - 1, kRelaxed);
    return true;
  }
  return false;
}

bool covers(const AttachList& list, std::uintptr_t lo, std::uintptr_t hi) {
  for (int spins = 0;; ++spins) {
    const std::uint32_t seq = list.seq.load(std::memory_order_acquire);
    if ((seq & 1) == 0) {
      std::uint32_t n = list.count.load(kRelaxed);
      if (n > kMaxAttached) n = kMaxAttached;  // a torn read; the seq check below retries it
      // Walk [lo, hi) from attachment to attachment: an access may span
      // regions attached back to back (MPICH and Open MPI accept it, and the
      // bytes are all attached). Attachments never overlap (attach refuses
      // it), so at most one holds `at`; each step moves `at` to that one's
      // end, so at most n steps.
      std::uint64_t at = lo;
      for (std::uint32_t step = 0; step < n && at < hi; ++step) {
        std::uint64_t next = at;
        for (std::uint32_t i = 0; i < n; ++i) {
          const std::uint64_t b = list.slot[i].base.load(kRelaxed), len = list.slot[i].bytes.load(kRelaxed);
          if (at >= b && at - b < len) {
            next = b + len;
            break;
          }
        }
        if (next == at) break;  // `at` is not attached
        at = next;
      }
      const bool inside = at >= hi;
      std::atomic_thread_fence(std::memory_order_acquire);
      if (list.seq.load(kRelaxed) == seq) return inside;
    }
    if (spins > 64) sched_yield();
  }
}

}  // namespace ringmpi::rma
