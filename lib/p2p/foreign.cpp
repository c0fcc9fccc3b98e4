// Peers in another job (invariants: foreign.hpp).
#include "p2p/foreign.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/runtime.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/state.hpp"
#include "p2p/wait.hpp"
#include "shm/arena.hpp"
#include "shm/bridge.hpp"

namespace ringmpi::p2p {
namespace {

std::vector<int> g_refs;  // per index: live connections binding it (-1: ended after MPI_Finalize)
std::vector<std::string> g_labels;
std::vector<std::string> g_jobs;
std::vector<std::uint32_t> g_generations;  // per index: the RankSlot generation of the process bound there
int g_bound = 0;  // indices with g_refs > 0
int g_holds = 0;  // waits for another job under way (hold_foreign)
int g_watches = 0;  // handshakes under way (watch_queued)
std::uint64_t g_checked_ns = 0;

std::uint64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::uint64_t(t.tv_sec) * 1'000'000'000u + std::uint64_t(t.tv_nsec);
}

// The waiting policy (wait.hpp, oversubscribed()) counts the job's own
// processes only. With another job's processes bound it also counts them,
// and a process bound to cores that a bound foreign process may run on
// waits as if oversubscribed (no 2 ms spin before yielding): each mpiexec
// binds its ranks from the first core on, so rank 0 of both jobs share a
// core, and a spinning waiter there held the core for a whole time slice
// (4 ms per message at 8 B before this, 0.4 us unbound).
void settle_policy(int pid) {
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mine, theirs, both;
  CPU_ZERO(&mine);
  CPU_ZERO(&theirs);
  bool share = false;
  if (pid > 0 && sched_getaffinity(0, sizeof mine, &mine) == 0 && sched_getaffinity(pid, sizeof theirs, &theirs) == 0) {
    CPU_AND(&both, &mine, &theirs);
    share = CPU_COUNT(&both) > 0 && CPU_COUNT(&mine) < online;
  }
  if (share || core::rt().processes() + g_bound > online) {
    g_oversubscribed = true;
    g_oversubscribed_known = true;
  }
}

// /proc/<pid>/stat descriptors of the processes looked at lately (reread
// with pread, which regenerates the text: cheaper than open each time). A
// descriptor of an ended process reads nothing; it is then dropped.
struct StatFd {
  int pid = 0;
  int fd = -1;
};
std::array<StatFd, 8> g_stat_fds;
std::size_t g_stat_next = 0;  // the entry to replace next
std::size_t g_turn = 0;       // peer_queued_here(-1): the process to look at next

int stat_fd(int pid) {
  for (const StatFd& e : g_stat_fds)
    if (e.pid == pid) return e.fd;
  char path[48];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  StatFd& e = g_stat_fds[g_stat_next];
  g_stat_next = (g_stat_next + 1) % g_stat_fds.size();
  if (e.fd >= 0) close(e.fd);
  e = StatFd{pid, fd};
  return fd;
}

void drop_stat_fd(int pid) {
  for (StatFd& e : g_stat_fds)
    if (e.pid == pid) {
      close(e.fd);
      e = StatFd{};
    }
}

// Whether process `pid` is runnable (state R) and queued on core `cpu`
// (field 39 of /proc/<pid>/stat, the core whose run queue holds it; we run
// on `cpu`, so it is not running there).
bool queued_on(int pid, int cpu) {
  if (pid <= 0 || pid == getpid()) return false;
  const int fd = stat_fd(pid);
  if (fd < 0) return false;
  char buf[1024];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) {
    drop_stat_fd(pid);
    return false;
  }
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');  // the command name may hold spaces and parentheses
  if (!p || p[1] != ' ') return false;
  p += 2;
  const char state = *p;
  for (int field = 3; field < 39 && p; ++field) {
    p = std::strchr(p, ' ');
    if (p) ++p;
  }
  return p && state == 'R' && std::atoi(p) == cpu;
}

}  // namespace

int foreign_base() { return (core::rt().size + 63) / 64 * 64; }

int foreign_room() {
  const shm::Arena& a = core::rt().arena;
  return static_cast<int>(a.header().pending_stride * 8) - foreign_base();
}

bool bind_foreign(int index, const ForeignPeer& p) {
  State& s = state();
  const auto i = static_cast<std::size_t>(index);
  if (s.out.size() <= i) {
    s.out.resize(i + 1);
    s.in.resize(i + 1);
    s.peer_pending.resize(i + 1, nullptr);
    s.slots.resize(i + 1, nullptr);
  }
  if (g_refs.size() <= i) {
    g_refs.resize(i + 1, 0);
    g_labels.resize(i + 1);
    g_jobs.resize(i + 1);
    g_generations.resize(i + 1, 0);
  }
  if (g_refs[i] > 0 && g_jobs[i] != p.job) return false;
  if (g_refs[i] < 0) g_refs[i] = 0;
  // Bound already: the same process (another connection) keeps its rings;
  // a later process of the slot (its job reused it: the old one ended while
  // a communicator still held it, e.g. children that finalized without a
  // disconnect) is pointed at its own bridge, as if bound the first time.
  const std::uint32_t generation = p.slot->generation.load(std::memory_order_relaxed);
  const bool fresh = g_refs[i]++ == 0;
  if (!fresh && g_generations[i] == generation) return true;
  if (fresh) ++g_bound;
  g_generations[i] = generation;
  g_labels[i] = p.label;
  g_jobs[i] = p.job;
  s.out[i].ring = shm::RingProducer(p.out_ring, p.capacity);
  s.in[i].ring = shm::RingConsumer(p.in_ring, p.capacity);
  s.in[i].readable = false;
  if (s.in[i].hot) s.in[i].ring.header().polled.store(1, std::memory_order_relaxed);
  s.peer_pending[i] = p.their_pending_word;
  s.slots[i] = p.slot;
  s.pending_words = std::max(s.pending_words, i / 64 + 1);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  s.my_pending[i / 64].fetch_or(1ull << (i % 64), std::memory_order_seq_cst);
  settle_policy(p.slot->pid.load(std::memory_order_relaxed));
  return true;
}

void unbind_foreign(int index) {
  const auto i = static_cast<std::size_t>(index);
  if (i >= g_refs.size() || g_refs[i] <= 0) return;
  if (--g_refs[i] == 0 && --g_bound == 0) g_oversubscribed_known = false;  // the job's own policy again
}

void hold_foreign(int delta) { g_holds += delta; }

std::string foreign_job(int index) {
  const auto i = static_cast<std::size_t>(index);
  return i < g_refs.size() && g_refs[i] > 0 ? g_jobs[i] : std::string();
}

bool foreign_bound() { return g_bound > 0; }

bool queued_watch() { return g_bound > 0 || g_watches > 0; }

void watch_queued(int delta) { g_watches += delta; }

bool peer_queued_here(int waits_for) {
  const int cpu = sched_getcpu();
  if (cpu < 0) return false;
  const State& s = state();
  if (waits_for >= 0) {
    const auto i = static_cast<std::size_t>(waits_for);
    const shm::RankSlot* slot = i < s.slots.size() ? s.slots[i] : nullptr;
    if (!slot && i < static_cast<std::size_t>(core::rt().processes()))
      slot = &core::rt().arena.slot(static_cast<std::uint32_t>(i));
    return slot && queued_on(slot->pid.load(std::memory_order_relaxed), cpu);
  }
  // A wait on several (a collective, MPI_ANY_SOURCE): one process of this
  // job or a bound one of the other job at each look, in turn.
  const core::Runtime& rt = core::rt();
  const auto own = static_cast<std::size_t>(rt.processes());
  const std::size_t total = own + g_refs.size();
  for (std::size_t k = 0; k < total; ++k) {
    const std::size_t i = (g_turn + k) % total;
    const shm::RankSlot* slot = nullptr;
    if (i < own) {
      if (i != static_cast<std::size_t>(rt.rank)) slot = &rt.arena.slot(static_cast<std::uint32_t>(i));
    } else if (g_refs[i - own] > 0) {
      slot = s.slots[i - own];
    }
    if (!slot) continue;
    g_turn = i + 1;
    return queued_on(slot->pid.load(std::memory_order_relaxed), cpu);
  }
  return false;
}

bool foreign_watch() {
  if (g_bound == 0) return g_holds > 0;
  const std::uint64_t now = now_ns();
  if (now - g_checked_ns < 100'000'000u) return true;
  g_checked_ns = now;
  State& s = state();
  for (std::size_t i = 0; i < g_refs.size(); ++i) {
    if (g_refs[i] <= 0) continue;
    const shm::RankSlot& peer = *s.slots[i];
    const int pid = peer.pid.load(std::memory_order_relaxed);
    if (pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (peer.finalized.load(std::memory_order_acquire)) {
      g_refs[i] = -1;  // ended normally: waits on it are the program's affair (--timeout)
      --g_bound;
      continue;
    }
    char line[400];
    std::snprintf(line, sizeof line,
                  "rank %d: %s (pid %d), connected to this job, ended without MPI_Finalize (its job failed); "
                  "this job ends too",
                  core::rt().rank, g_labels[i].c_str(), pid);
    std::fprintf(stderr, "ringmpi: %s\n", line);
    core::abort_job(shm::ExitKind::fatal_error, 1, line);
  }
  return g_bound > 0 || g_holds > 0;
}

}  // namespace ringmpi::p2p
