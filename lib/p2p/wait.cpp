#include "p2p/wait.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <ctime>

#include "core/runtime.hpp"

namespace ringmpi::p2p {
namespace {

long futex(std::atomic<std::uint32_t>* addr, int op, std::uint32_t val, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(addr), op, val, timeout, nullptr, 0);
}

int online_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    // The launcher may have bound us to one core; count what the machine has.
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : CPU_COUNT(&set);
  }
  return 1;
}

}  // namespace

bool oversubscribed() {
  static const bool over = core::rt().size > online_cores();
  return over;
}

void wait_until(const std::function<bool()>& done) {
  core::Runtime& r = core::rt();
  // Spinning only pays while the peer runs on another core.
  const int spins = oversubscribed() ? 16 : 4000;
  const int yields = oversubscribed() ? 4 : 64;
  for (int i = 0; i < spins; ++i) {
    progress();
    if (done()) return;
  }
  for (int i = 0; i < yields; ++i) {
    sched_yield();
    progress();
    if (done()) return;
  }
  if (!r.arena.mapped()) {  // before MPI_Init: nothing can wake us
    while (!done()) {
      sched_yield();
      progress();
    }
    return;
  }
  shm::RankSlot& me = r.arena.slot(r.rank);
  for (;;) {
    const std::uint32_t seen = me.doorbell.load(std::memory_order_acquire);
    me.sleeping.store(1, std::memory_order_seq_cst);
    progress();
    if (done()) break;
    const timespec timeout{0, 50'000'000};
    futex(&me.doorbell, FUTEX_WAIT, seen, &timeout);
    me.sleeping.store(0, std::memory_order_relaxed);
    progress();
    if (done()) return;
  }
  me.sleeping.store(0, std::memory_order_relaxed);
}

void wake(int world_rank) {
  core::Runtime& r = core::rt();
  shm::RankSlot& peer = r.arena.slot(static_cast<std::uint32_t>(world_rank));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (peer.sleeping.load(std::memory_order_relaxed)) {
    peer.doorbell.fetch_add(1, std::memory_order_release);
    futex(&peer.doorbell, FUTEX_WAKE, 1, nullptr);
  }
}

}  // namespace ringmpi::p2p
