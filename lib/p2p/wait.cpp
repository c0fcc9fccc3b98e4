#include "p2p/wait.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <dirent.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "core/runtime.hpp"
#include "p2p/foreign.hpp"
#include "p2p/state.hpp"
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
// (comm/ports.cpp, LazyWaker, starts its socket waker after 1 ms when not
// oversubscribed and no other job's process is bound, counting on this spin
// to last longer than that; with one bound the spin may stop after
// kQueuedCheckNs, below.)
constexpr std::uint64_t kSpinNs = 2'000'000;
constexpr std::uint64_t kYieldNs = 100'000;
// While another job's processes are bound (and in the group's exchanges of
// an accept or connect: foreign.hpp, queued_watch), a spin that has seen
// nothing arrive for this long looks whether the peer it waits for is queued on
// its core (foreign.hpp, peer_queued_here), and again after as long; if it
// is, the spin ends (the yield phase hands it the core). Each mpiexec counts
// only its own processes, so two jobs of one process each "have a core
// each" on 2 cores, yet the kernel often queues both on one (the other busy):
// a spinning waiter then held the core its answer needed for the whole 2 ms
// (a connect at 1 + 1: 2.4 ms of which 2.0 ms was the accepting side
// spinning in its next receive; now about 0.5 ms). A look reads
// /proc/<pid>/stat (10-15 us), so it is made only after the spin saw
// nothing arrive for kQueuedCheckNs: a peer on another core answers within
// microseconds, and steady traffic never looks.
constexpr std::uint64_t kQueuedCheckNs = 50'000;
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
// Oversubscribed, the window grows with the ranks each core has (200 us
// per two of them): the rank waited for gets the core about once in that
// many turns, and a waiter that went to sleep first costs its waker a futex
// wake and itself a trip through the scheduler. 32 ranks on 2 cores
// (bench/coll, us), window 200 / 1000 / 2000 us: MPI_Scan 4 B 25-34 / 7.5 /
// 7.1-7.6, MPI_Exscan 4 B 16-25 / 10 / 7.4-7.9 (Open MPI 8.7-9.4); np = 4,
// 8 and 16 were within their noise across the three.
std::uint64_t yield_window_ns(bool over) {
  std::uint64_t fallback = kYieldNs;
  if (over) {
    const auto per_core = static_cast<std::uint64_t>(core::rt().processes() / std::max(1, online_cores()));
    fallback = kYieldNsOversubscribed * std::max<std::uint64_t>(1, per_core / 2);
  }
  return tunables::value(tunables::Id::yield_us, fallback / 1000) * 1000;
}

bool oversubscribed_now() { return core::rt().processes() > online_cores(); }

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1'000'000'000u + std::uint64_t(ts.tv_nsec);
}

// ---- Deadlock detection at MPI_THREAD_MULTIPLE --------------------------------
//
// The rule (docs/design/threads.md, insight.md): the process counts as idle
// -- and publishes growing stuck_rounds, as a single-threaded rank does in
// wait_slow -- only while
//   (a) at least one thread waits in wait_threaded and every thread that
//       does is in its sleep phase (past the ~2 ms spin and yield);
//   (b) no other thread is inside an MPI call: nobody is blocked on the call
//       lock but those waiters re-taking it (the evaluating thread holds it);
//   (c) every thread of the process that is not one of those waiters is
//       blocked in an untimed futex wait (pthread_join, a mutex or condition
//       variable without timeout: it can only be woken by another thread of
//       this process, all of which are blocked), as /proc/self/task/*/syscall
//       shows (a thread computing, sleeping with a timeout, or in any other
//       system call makes the process busy: it might still call MPI);
//   (d) each wake of a waiting thread was a timeout with the doorbell
//       unchanged, with none of our data waiting for ring space and no
//       progress() activity since the last look.
// Anything else marks the process busy (stuck_rounds 0). stuck_rounds is the
// number of 50 ms periods the process has been idle without a break, so
// mpiexec's rule (>= 20, growing between two looks) reads as before.
struct Waiter {
  long tid = 0;
  bool asleep = false;  // in the sleep phase
  int waits_for = -1;
  char call[sizeof(shm::RankSlot::stuck_call)] = {};
};

struct Threads {
  std::vector<Waiter*> waiters;     // threads in wait_threaded; under the call lock
  std::atomic<int> reacquiring{0};  // waiters on their way into CallLock::reacquire
  std::uint64_t busy_ns = 0;        // when the process was last seen doing something
  std::uint64_t activity = 0;       // p2p::activity() at the last look
  std::uint64_t scanned_ns = 0;     // the last /proc scan and its result
  bool others_blocked = false;
  bool published = false;  // stuck words written for the current idle stretch
};

Threads& threads() {
  static Threads* t = new Threads;  // never destroyed: a thread may still wait while the process exits
  return *t;
}

constexpr std::uint64_t kRoundNs = 50'000'000;  // one stuck round, as wait_slow's sleep
constexpr std::uint64_t kScanNs = 20'000'000;   // /proc is read at most this often

void mark_busy(Threads& t, shm::RankSlot& me, std::uint64_t now) {
  t.busy_ns = now;
  if (t.published) {
    me.stuck_rounds.store(0, std::memory_order_release);
    t.published = false;
  }
}

// A thread blocked for good unless another thread of this process wakes it:
// an untimed futex wait (its timeout argument NULL). "running", "-1 ..." (not
// in a system call) and anything unreadable are not.
bool blocked_untimed(long tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", tid);
  FILE* f = std::fopen(path, "re");
  if (!f) return false;
  char line[256] = {};
  const bool ok = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  if (!ok) return false;
  char* p = line;
  char* end = nullptr;
  const long nr = std::strtol(p, &end, 10);
  if (end == p || nr != SYS_futex) return false;
  unsigned long long args[4];
  for (unsigned long long& a : args) {
    p = end;
    a = std::strtoull(p, &end, 0);
    if (end == p) return false;
  }
  const unsigned long long op = args[1] & FUTEX_CMD_MASK;
  const bool waits = op == FUTEX_WAIT || op == FUTEX_WAIT_BITSET || op == FUTEX_LOCK_PI || op == FUTEX_WAIT_REQUEUE_PI;
  return waits && args[3] == 0;
}

// (c): every thread but the waiters is blocked in an untimed futex wait.
bool others_blocked(const Threads& t) {
  DIR* d = opendir("/proc/self/task");
  if (!d) return false;
  bool all = true;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    const long tid = std::strtol(e->d_name, nullptr, 10);
    if (std::any_of(t.waiters.begin(), t.waiters.end(), [tid](const Waiter* w) { return w->tid == tid; })) continue;
    if (!blocked_untimed(tid)) {
      all = false;
      break;
    }
  }
  closedir(d);
  return all;
}

// After one sleep of a waiting thread (call lock held): is the process idle,
// and if so for how long; publishes the words mpiexec reads.
void look(Threads& t, shm::RankSlot& me, core::CallLock& lock, bool quiet_wake, std::uint32_t seen) {
  const std::uint64_t now = now_ns();
  if (foreign_watch()) {  // a peer in another job may still answer (p2p/foreign.hpp)
    mark_busy(t, me, now);
    return;
  }
  const std::uint64_t act = activity();
  bool idle = quiet_wake && act == t.activity;
  t.activity = act;
  idle = idle && std::all_of(t.waiters.begin(), t.waiters.end(), [](const Waiter* w) { return w->asleep; });
  idle = idle && lock.waiting() <= t.reacquiring.load(std::memory_order_seq_cst);
  if (idle && now - t.scanned_ns >= kScanNs) {
    t.scanned_ns = now;
    t.others_blocked = others_blocked(t);
  }
  if (!idle || !t.others_blocked) {
    if (!idle) t.scanned_ns = 0;  // look again at once next time
    mark_busy(t, me, now);
    return;
  }
  const std::uint64_t rounds = (now - t.busy_ns) / kRoundNs;
  if (rounds == 0) return;
  if (!t.published) {
    // Every blocked call, in the order the threads started waiting.
    int waits_for = -1;
    std::string text;
    if (t.waiters.size() > 1) text = std::to_string(t.waiters.size()) + " threads: ";
    for (std::size_t i = 0; i < t.waiters.size(); ++i) {
      if (i) text += "; ";
      text += t.waiters[i]->call;
      if (waits_for < 0) waits_for = t.waiters[i]->waits_for;
    }
    const std::size_t n = std::min(text.size(), sizeof me.stuck_call - 1);
    std::memcpy(me.stuck_call, text.data(), n);
    me.stuck_call[n] = '\0';
    me.stuck_waits_for.store(waits_for, std::memory_order_relaxed);
    t.published = true;
  }
  me.stuck_doorbell.store(seen, std::memory_order_relaxed);
  me.stuck_rounds.store(static_cast<std::uint32_t>(std::min<std::uint64_t>(rounds, UINT32_MAX)),
                        std::memory_order_release);
}

// A waiting thread's registration (call lock held while it is made and undone).
class Registered {
 public:
  Registered(Threads& t, shm::RankSlot& me) : t_(t), me_(me) {
    w_.tid = static_cast<long>(syscall(SYS_gettid));
    t_.waiters.push_back(&w_);
    mark_busy(t_, me_, now_ns());
  }
  ~Registered() {
    t_.waiters.erase(std::find(t_.waiters.begin(), t_.waiters.end(), &w_));
    mark_busy(t_, me_, now_ns());
  }
  Registered(const Registered&) = delete;
  Registered& operator=(const Registered&) = delete;
  Waiter& waiter() { return w_; }

 private:
  Threads& t_;
  shm::RankSlot& me_;
  Waiter w_;
};

}  // namespace

bool g_oversubscribed_known = false, g_oversubscribed = false;

bool oversubscribed_slow() {
  g_oversubscribed = oversubscribed_now();
  g_oversubscribed_known = true;
  return g_oversubscribed;
}

std::uint64_t yield_window_us() { return yield_window_ns(oversubscribed()) / 1000; }

void yield_if_idle(std::uint64_t activity_before) {
  if (oversubscribed() && activity() == activity_before) sched_yield();
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
    // With another job's processes bound (or in the handshake of an accept
    // or connect), a peer may be queued on this very core (two mpiexec runs
    // do not know of each other's processes): while nothing arrives, look
    // every kQueuedCheckNs whether the peer waited for is; if so, stop
    // spinning and go on to the yield phase.
    const bool watch = queued_watch();
    std::uint64_t check_at = start + kQueuedCheckNs;
    std::uint64_t seen_work = activity();
    int waits_for = -2;  // not asked yet
    for (std::uint64_t t = start; t - start < kSpinNs; t = now_ns()) {
      for (int i = 0; i < 64; ++i) {
        progress();
        if (done()) return;
      }
      if (watch && t >= check_at) {
        check_at = t + kQueuedCheckNs;
        const std::uint64_t work = activity();
        if (work != seen_work) {  // the peer is evidently running
          seen_work = work;
          continue;
        }
        if (waits_for == -2) {
          waits_for = -1;
          char text[sizeof r.arena.slot(0).stuck_call];
          if (r.describe_call && r.arena.mapped()) r.describe_call(text, sizeof text, &waits_for);
        }
        if (peer_queued_here(waits_for)) break;
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
    if (work_left()) {  // records already in the rings: no doorbell will ring for them
      me.sleeping.store(0, std::memory_order_relaxed);
      continue;
    }
    const timespec timeout{0, sending ? 1'000'000 : 50'000'000};
    const long rc = futex(&me.doorbell, FUTEX_WAIT, seen, &timeout);
    const std::uint64_t work_now = activity();
    const bool idle = rc == -1 && errno == ETIMEDOUT && !sending && work_now == work &&
                      me.doorbell.load(std::memory_order_relaxed) == seen;
    work = work_now;
    const bool other_job = foreign_watch();  // foreign.hpp: another job may still answer; is it alive?
    idle_rounds = idle && !other_job ? idle_rounds + 1 : 0;
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
// The deadlock-detection hook is fed here by the whole process: see
// Threads above for when a process of several threads counts as idle.
//
// While this thread has the lock given up, other threads' calls overwrite
// core::Runtime::current_call and call_args (what the deadlock report and
// error messages read); they are this thread's again each time it takes the
// lock back.
void wait_threaded(const std::function<bool()>& done) {
  core::Runtime& r = core::rt();
  core::CallLock& lock = r.call_lock;
  shm::RankSlot& me = r.arena.slot(r.rank);
  Threads& th = threads();
  Registered reg(th, me);
  Waiter& w = reg.waiter();
  const char* const my_call = r.current_call;
  const core::Runtime::CallArgs my_args = r.call_args;
  const auto retake = [&](int depth) {
    th.reacquiring.fetch_add(1, std::memory_order_seq_cst);
    lock.reacquire(depth);
    th.reacquiring.fetch_sub(1, std::memory_order_seq_cst);
    r.current_call = my_call;
    r.call_args = my_args;
  };
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
      retake(depth);
      continue;
    }
    if (!w.asleep && r.arena.mapped()) {
      // Entering the sleep phase: this thread's call, for the report.
      w.asleep = true;
      w.waits_for = -1;
      if (r.describe_call) {
        r.describe_call(w.call, sizeof w.call, &w.waits_for);
      } else {
        std::snprintf(w.call, sizeof w.call, "%s", r.current_call ? r.current_call : "MPI call");
      }
    }
    const std::uint32_t seen = me.doorbell.load(std::memory_order_acquire);
    const bool sending = prepare_to_sleep();
    me.sleeping.fetch_add(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    progress();
    const bool finished = done();
    bool quiet = false;
    if (!finished && !work_left()) {  // (records already in the rings: no doorbell will ring for them)
      const int depth = lock.release_all();
      const timespec timeout{0, sending ? 200'000 : 1'000'000};
      const long rc = futex(&me.doorbell, FUTEX_WAIT, seen, &timeout);
      quiet = rc == -1 && errno == ETIMEDOUT && !sending;
      retake(depth);
    }
    me.sleeping.fetch_sub(1, std::memory_order_relaxed);
    if (finished) return;
    look(th, me, lock, quiet && me.doorbell.load(std::memory_order_relaxed) == seen, seen);
  }
}

// Through the engine's table of RankSlots, which also reaches processes of a
// connected job (p2p/foreign.hpp).
namespace {
shm::RankSlot& slot_of(int world_rank) {
  const State& s = state();
  const auto i = static_cast<std::size_t>(world_rank);
  return i < s.slots.size() ? *s.slots[i] : core::rt().arena.slot(static_cast<std::uint32_t>(world_rank));
}
}  // namespace

void ring_doorbell(int world_rank) { ring_doorbell(slot_of(world_rank)); }

void ring_doorbell(shm::RankSlot& peer) {
  peer.doorbell.fetch_add(1, std::memory_order_release);
  futex(&peer.doorbell, FUTEX_WAKE, INT_MAX, nullptr);  // all its sleeping threads
}

void wake(int world_rank) {
  shm::RankSlot& peer = slot_of(world_rank);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (peer.sleeping.load(std::memory_order_relaxed)) {
    peer.doorbell.fetch_add(1, std::memory_order_release);
    futex(&peer.doorbell, FUTEX_WAKE, INT_MAX, nullptr);  // all its sleeping threads
  }
}

}  // namespace ringmpi::p2p
