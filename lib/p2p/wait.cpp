#include "p2p/wait.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <ctime>

#include "core/runtime.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::p2p {
namespace {

long futex(std::atomic<std::uint32_t>* addr, int op, std::uint32_t val, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(addr), op, val, timeout, nullptr, 0);
}

// How long a waiter spins and then yields before it sleeps. With a core of
// its own a rank spins for a while: a sleep costs a futex wake and a trip
// through the scheduler (tens of microseconds on a busy machine), and
// sched_yield would hand the core to unrelated work. Oversubscribed, the
// rank we wait for may need our core, so we yield at once and sleep soon.
constexpr std::uint64_t kSpinNs = 2'000'000;
constexpr std::uint64_t kYieldNs = 100'000;
constexpr std::uint64_t kYieldNsOversubscribed = 200'000;

int online_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    // The launcher may have bound us to one core; count what the machine has.
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : CPU_COUNT(&set);
  }
  return 1;
}

// RINGMPI_YIELD_US overrides how long a waiter yields before it sleeps.
std::uint64_t yield_window_ns(bool over) {
  const std::uint64_t fallback = over ? kYieldNsOversubscribed : kYieldNs;
  return tunables::value(tunables::Id::yield_us, fallback / 1000) * 1000;
}

bool oversubscribed_now() { return core::rt().size > online_cores(); }

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1'000'000'000u + std::uint64_t(ts.tv_nsec);
}

}  // namespace

bool g_oversubscribed_known = false, g_oversubscribed = false;

bool oversubscribed_slow() {
  g_oversubscribed = oversubscribed_now();
  g_oversubscribed_known = true;
  return g_oversubscribed;
}

// Spin while the awaited event is likely to be near (a peer on another core
// answers within microseconds), yield while it may still come soon, then
// sleep. Oversubscribed, every spin takes time from the rank we wait for, so
// we yield almost at once.
void wait_slow(const std::function<bool()>& done) {
  core::Runtime& r = core::rt();
  if (__builtin_expect(r.serialize_calls, 0) && r.call_lock.held_by_me()) return wait_threaded(done);
  const bool over = oversubscribed();
  const std::uint64_t start = now_ns();
  if (!over) {
    while (now_ns() - start < kSpinNs) {
      for (int i = 0; i < 64; ++i) {
        progress();
        if (done()) return;
      }
    }
  }
  static const std::uint64_t yield_ns = yield_window_ns(over);
  const std::uint64_t yield_until = now_ns() + yield_ns;
  do {
    sched_yield();
    progress();
    if (done()) return;
  } while (now_ns() < yield_until || !r.arena.mapped());  // before MPI_Init nothing can wake us
  shm::RankSlot& me = r.arena.slot(r.rank);
  // Deadlock-detection hook (protocol: launcher/deadlock.cpp): publish the call, then count
  // the sleeps that end by timeout with the doorbell unchanged and no data waiting to go out.
  // The call with its arguments and the rank it waits for come from the api
  // layer's describer (core::Runtime::describe_call), formatted only here.
  {
    int waits_for = -1;
    if (r.describe_call) {
      r.describe_call(me.stuck_call, sizeof me.stuck_call, &waits_for);
    } else {
      const char* call = r.current_call ? r.current_call : "MPI call";
      std::size_t i = 0;
      for (; call[i] && i + 1 < sizeof me.stuck_call; ++i) me.stuck_call[i] = call[i];
      me.stuck_call[i] = '\0';
    }
    me.stuck_waits_for.store(waits_for, std::memory_order_relaxed);
  }
  std::uint32_t idle_rounds = 0;
  std::uint64_t work = activity();
  for (;;) {
    const std::uint32_t seen = me.doorbell.load(std::memory_order_acquire);
    // Data we could not hand over yet: the consumer wakes us when it makes
    // room, and the 1 ms timeout covers the one race that check leaves (it
    // is part of the liveness argument: wait.hpp, "The timeouts").
    const bool sending = prepare_to_sleep();
    me.sleeping.store(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    progress();
    if (done()) break;
    const timespec timeout{0, sending ? 1'000'000 : 50'000'000};
    const long rc = futex(&me.doorbell, FUTEX_WAIT, seen, &timeout);
    const std::uint64_t work_now = activity();
    const bool idle = rc == -1 && errno == ETIMEDOUT && !sending && work_now == work &&
                      me.doorbell.load(std::memory_order_relaxed) == seen;
    work = work_now;
    idle_rounds = idle ? idle_rounds + 1 : 0;
    me.stuck_doorbell.store(seen, std::memory_order_relaxed);
    me.stuck_rounds.store(idle_rounds, std::memory_order_release);
    me.sleeping.store(0, std::memory_order_relaxed);
    progress();
    if (done()) {
      me.stuck_rounds.store(0, std::memory_order_release);
      return;
    }
  }
  me.stuck_rounds.store(0, std::memory_order_release);
  me.sleeping.store(0, std::memory_order_relaxed);
}

// MPI_THREAD_MULTIPLE (core/call_lock.hpp): the same spin, yield, sleep,
// but the call lock is given up between two checks, so that other threads
// of this process run their calls; progress() and done() run only under it.
// Several threads may sleep on the doorbell: `sleeping` counts them (the
// peers only test it for nonzero) and a wake wakes them all. A thread whose
// request another thread of this process completes is not rung: the short
// sleep bounds that delay, and the waker rings us when it saw sleepers.
// The deadlock-detection hook is not fed here: with several threads one
// thread's idle sleep says nothing about the process.
void wait_threaded(const std::function<bool()>& done) {
  core::Runtime& r = core::rt();
  core::CallLock& lock = r.call_lock;
  shm::RankSlot& me = r.arena.slot(r.rank);
  const bool over = oversubscribed();
  static const std::uint64_t yield_ns = yield_window_ns(over);
  const std::uint64_t start = now_ns();
  const std::uint64_t spin_until = start + (over ? 0 : kSpinNs);
  const std::uint64_t yield_until = spin_until + yield_ns;
  for (;;) {
    const std::uint64_t before = activity();
    progress();
    if (done()) return;
    // Work done here may be what a sleeping thread of ours waits for.
    if (activity() != before && me.sleeping.load(std::memory_order_relaxed) != 0) ring_doorbell(r.rank);
    const std::uint64_t t = now_ns();
    if (t < yield_until) {
      const int depth = lock.release_all();
      if (t >= spin_until || lock.contended()) sched_yield();
      lock.reacquire(depth);
      continue;
    }
    const std::uint32_t seen = me.doorbell.load(std::memory_order_acquire);
    const bool sending = prepare_to_sleep();
    me.sleeping.fetch_add(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    progress();
    const bool finished = done();
    if (!finished) {
      const int depth = lock.release_all();
      const timespec timeout{0, sending ? 200'000 : 1'000'000};
      futex(&me.doorbell, FUTEX_WAIT, seen, &timeout);
      lock.reacquire(depth);
    }
    me.sleeping.fetch_sub(1, std::memory_order_relaxed);
    if (finished) return;
  }
}

void ring_doorbell(int world_rank) {
  shm::RankSlot& peer = core::rt().arena.slot(static_cast<std::uint32_t>(world_rank));
  peer.doorbell.fetch_add(1, std::memory_order_release);
  futex(&peer.doorbell, FUTEX_WAKE, INT_MAX, nullptr);  // all its sleeping threads
}

void wake(int world_rank) {
  core::Runtime& r = core::rt();
  shm::RankSlot& peer = r.arena.slot(static_cast<std::uint32_t>(world_rank));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (peer.sleeping.load(std::memory_order_relaxed)) {
    peer.doorbell.fetch_add(1, std::memory_order_release);
    futex(&peer.doorbell, FUTEX_WAKE, INT_MAX, nullptr);  // all its sleeping threads
  }
}

}  // namespace ringmpi::p2p
