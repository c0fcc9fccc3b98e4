// RMA synchronisation on shared-memory windows (invariants of the words
// used here: window.hpp).
//
// The memory-ordering argument. Every RMA operation is complete when its
// call returns (transfer.hpp): the origin's copy (memcpy into the mapped
// segment, or process_vm_writev, which has returned) is done. What remains is
// to order those plain stores before the target's (and other origins')
// later loads; each way of ending an epoch does it with a release by the
// writer and an acquire by the reader:
// - MPI_Win_fence: a barrier over the window's private communicator. Its
//   messages travel through the p2p rings, whose record publication is a
//   release store and whose consumption is an acquire load, so every store a
//   rank made before entering the fence happens-before every load any rank
//   makes after leaving it.
// - Post/start/complete/wait: complete[t][o] is bumped by the origin with
//   release after its operations, and the target's wait reads it with
//   acquire. Post bumps post[t][o] with release after the target's own
//   stores to its window; start reads it with acquire, so the origin sees
//   those stores (the exposure epoch's start) before it accesses.
// - Lock/unlock: the lock word is released (fetch_sub/store, release) by
//   unlock after the holder's operations and taken (compare-exchange,
//   acquire) by the next holder, so the next epoch on that target sees them.
// - Accumulates are ordered among themselves by the target's accumulate
//   mutex (transfer.cpp).
// - MPI_Win_flush*, MPI_Win_sync: a seq_cst fence. Operations are already
//   complete at the target, and in the unified model (MPI_WIN_MODEL is
//   MPI_WIN_UNIFIED: public and private copy are the same memory) Win_sync
//   only has to order this rank's loads and stores against the
//   synchronisation that follows (e.g. MPI_Barrier, whose own release/acquire
//   then carries them to the other ranks).
// Waiting (start, wait, lock) goes through p2p::wait_until, so a waiting rank
// progresses its incoming messages and sleeps on its doorbell when the wait
// is long; whoever changes a word someone may wait on wakes the ranks that
// could be waiting on it (p2p::wake only touches ranks that sleep).
#include "rma/sync.hpp"

#include <atomic>

#include "coll/barrier.hpp"
#include "comm/comm.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::rma {

void fence(Window& w, int assert_bits) {
  coll::barrier(w.comm, *comm::lookup(w.comm));
  // MPI_MODE_NOSUCCEED: no RMA calls until the next fence (MPI-3.1 §11.5.5).
  w.fence_open = (assert_bits & MPI_MODE_NOSUCCEED) == 0;
}

void post(Window& w, std::vector<int> group) {
  const std::size_t n = static_cast<std::size_t>(w.size);
  for (int o : group) {
    w.post[std::size_t(w.rank) * n + std::size_t(o)].fetch_add(1, std::memory_order_release);
    p2p::wake(w.world[o]);
  }
  w.exposure_group = std::move(group);
  w.exposure_open = true;
}

void start(Window& w, std::vector<int> group) {
  const std::size_t n = static_cast<std::size_t>(w.size);
  for (int t : group) {
    const std::atomic<std::uint32_t>& posted = w.post[std::size_t(t) * n + std::size_t(w.rank)];
    const std::uint32_t want = w.posts_seen[t] + 1;
    // Counters only grow; compare by difference so wrap-around is harmless.
    p2p::wait_until([&] { return std::int32_t(posted.load(std::memory_order_acquire) - want) >= 0; });
    w.posts_seen[t] = want;
  }
  w.access_group = std::move(group);
  w.access_open = true;
}

void complete(Window& w) {
  const std::size_t n = static_cast<std::size_t>(w.size);
  for (int t : w.access_group) {
    w.complete[std::size_t(t) * n + std::size_t(w.rank)].fetch_add(1, std::memory_order_release);
    p2p::wake(w.world[t]);
  }
  w.access_group.clear();
  w.access_open = false;
}

namespace {

bool all_completed(const Window& w) {
  const std::size_t n = static_cast<std::size_t>(w.size);
  for (int o : w.exposure_group) {
    const std::uint32_t have = w.complete[std::size_t(w.rank) * n + std::size_t(o)].load(std::memory_order_acquire);
    if (std::int32_t(have - (w.completes_seen[o] + 1)) < 0) return false;
  }
  return true;
}

void close_exposure(Window& w) {
  for (int o : w.exposure_group) ++w.completes_seen[o];
  w.exposure_group.clear();
  w.exposure_open = false;
}

void wake_all(const Window& w) {
  for (int r = 0; r < w.size; ++r)
    if (r != w.rank) p2p::wake(w.world[r]);
}

}  // namespace

void wait(Window& w) {
  p2p::wait_until([&] { return all_completed(w); });
  close_exposure(w);
}

bool test(Window& w) {
  p2p::progress();
  if (!all_completed(w)) return false;
  close_exposure(w);
  return true;
}

void lock(Window& w, int target, bool exclusive) {
  std::atomic<std::int32_t>& word = w.ctl[target].lock;
  if (exclusive) {
    p2p::wait_until([&] {
      std::int32_t expect = 0;
      return word.compare_exchange_strong(expect, -1, std::memory_order_acquire, std::memory_order_relaxed);
    });
  } else {
    p2p::wait_until([&] {
      std::int32_t v = word.load(std::memory_order_relaxed);
      while (v >= 0)
        if (word.compare_exchange_weak(v, v + 1, std::memory_order_acquire, std::memory_order_relaxed)) return true;
      return false;
    });
  }
  w.held[target] = exclusive ? Held::exclusive : Held::shared;
}

void unlock(Window& w, int target) {
  std::atomic<std::int32_t>& word = w.ctl[target].lock;
  if (w.held[target] == Held::exclusive)
    word.store(0, std::memory_order_release);
  else
    word.fetch_sub(1, std::memory_order_release);
  w.held[target] = Held::none;
  // Whoever waits for this lock may be asleep on its doorbell.
  wake_all(w);
}

void lock_all(Window& w) {
  for (int t = 0; t < w.size; ++t) lock(w, t, false);
  for (int t = 0; t < w.size; ++t) w.held[t] = Held::none;
  w.lock_all = true;
}

void unlock_all(Window& w) {
  for (int t = 0; t < w.size; ++t) w.ctl[t].lock.fetch_sub(1, std::memory_order_release);
  w.lock_all = false;
  wake_all(w);
}

}  // namespace ringmpi::rma
