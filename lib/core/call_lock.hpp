// The lock that makes MPI_THREAD_MULTIPLE correct: one per process, taken by
// every MPI call (api::Call) when, and only when, MPI_Init_thread was asked
// for MPI_THREAD_MULTIPLE (Runtime::serialize_calls). At SINGLE, FUNNELED
// and SERIALIZED no lock is taken at all: Call tests one flag that never
// changes after MPI_Init, a branch the CPU predicts.
//
// Why a single lock is correct. All mutable library state hangs off
// core::Runtime (the rule of the founding design), and every path into it
// starts at an MPI_* entry point, which builds an api::Call first. Holding
// the lock for the whole call makes the calls of different threads
// execute one after another, exactly as at MPI_THREAD_SERIALIZED, for which
// the library is already correct, with one exception: blocking.
//
// Blocking. A blocking call (MPI_Recv, MPI_Wait, a blocking collective, a
// send into a full ring) waits in p2p::wait_until, whose slow path at this
// level is p2p::wait_threaded (lib/p2p/wait.cpp). It gives the lock up
// entirely (release_all: also the levels of a user callback that called
// MPI) between two checks, and takes it back before it runs progress() or
// looks at what it waits for. So:
//   - every progress() and every read of a request or queue happens under
//     the lock; progress() is never entered by two threads;
//   - what a waiting call has built (a request on its stack, a posted
//     receive, a collective schedule) stays valid while it waits: another
//     thread's progress() may complete it, which is what the waiter looks
//     for when it has the lock again;
//   - a thread blocked in MPI_Recv does not stop another thread's MPI_Send:
//     the lock is free whenever the blocked thread is not checking.
// The invariants the engine states for one thread (lib/p2p/progress.cpp,
// lib/p2p/extension.cpp) hold because, between a release and the next
// acquire, a waiter holds no pointer into state other than its own request
// or schedule, which nobody else frees (only its owner hands it back).
//
// Recursion: a user callback run inside a call (an error handler, an
// attribute copy function, a generalized request's query_fn, a user
// reduction) may call MPI; the owner thread just counts the depth.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>

namespace ringmpi::core {

class CallLock {
 public:
  void lock() {
    const std::thread::id self = std::this_thread::get_id();
    if (owner_.load(std::memory_order_relaxed) == self) {  // only we ever store our own id
      ++depth_;
      return;
    }
    if (!mutex_.try_lock()) {
      waiting_.fetch_add(1, std::memory_order_seq_cst);
      mutex_.lock();
      waiting_.fetch_sub(1, std::memory_order_relaxed);
    }
    owner_.store(self, std::memory_order_relaxed);
    depth_ = 1;
  }
  void unlock() {
    if (--depth_ > 0) return;
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    mutex_.unlock();
  }
  bool held_by_me() const { return owner_.load(std::memory_order_relaxed) == std::this_thread::get_id(); }
  // Gives the lock up whatever the depth (a waiter); returns the depth to restore.
  int release_all() {
    const int d = depth_;
    depth_ = 0;
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    mutex_.unlock();
    return d;
  }
  void reacquire(int depth) {
    if (!mutex_.try_lock()) {
      waiting_.fetch_add(1, std::memory_order_seq_cst);
      mutex_.lock();
      waiting_.fetch_sub(1, std::memory_order_relaxed);
    }
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    depth_ = depth;
  }
  // Other threads are blocked on the lock (a hint: a waiter then yields its core).
  bool contended() const { return waiting_.load(std::memory_order_relaxed) > 0; }
  // How many threads are blocked on the lock (deadlock detection at
  // MPI_THREAD_MULTIPLE, lib/p2p/wait.cpp: a thread blocked here is about to run).
  int waiting() const { return waiting_.load(std::memory_order_seq_cst); }

 private:
  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};
  std::atomic<int> waiting_{0};
  int depth_ = 0;  // written only by the owner, under mutex_
};

}  // namespace ringmpi::core
