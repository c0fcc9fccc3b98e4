// The attachment lists of a dynamic window (MPI_Win_create_dynamic,
// MPI-3.1 §11.2.4), kept in the window's shared segment so that an origin
// can tell whether the address it targets is attached by the target rank:
// a put into memory that is mapped in the target but not attached is
// MPI_ERR_RMA_RANGE, not a silent write. The memory-ordering argument is at
// the top of attach.cpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ringmpi::rma {

// Attachments one rank may hold at once on one dynamic window; more is
// MPI_ERR_RMA_ATTACH ("resource exhaustion", MPI-3.1 §11.2.4 allows it).
// Programs attach one piece per list element (MPI-3.1's linked-list example
// of dynamic windows does), so the limit is in the thousands: 4096 slots are
// 64 KiB of the window's segment per rank, and the memfd gives pages only to
// the slots a rank writes.
inline constexpr std::uint32_t kMaxAttached = 4096;

struct AttachSlot {
  std::atomic<std::uint64_t> base;   // the attached memory's address in its owner
  std::atomic<std::uint64_t> bytes;
};

// One rank's list: slots [0, count) in use, written only by that rank.
struct alignas(64) AttachList {
  std::atomic<std::uint32_t> seq;    // even: stable; odd: the owner is rewriting the list
  std::atomic<std::uint32_t> count;
  AttachSlot slot[kMaxAttached];
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

// Owner only. MPI_SUCCESS, or MPI_ERR_RMA_ATTACH with *why set (overlap with
// an earlier attachment, or the list is full).
int attach(AttachList& mine, std::uintptr_t base, std::size_t bytes, std::string* why);
// Owner only. False when no attachment starts at base.
bool detach(AttachList& mine, std::uintptr_t base);
// Anyone: true when every byte of [lo, hi) (lo < hi) is attached, by one
// attachment or by several that meet end to start.
bool covers(const AttachList& list, std::uintptr_t lo, std::uintptr_t hi);

}  // namespace ringmpi::rma
