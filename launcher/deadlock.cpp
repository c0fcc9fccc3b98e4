// Deadlock detection (issue 15). See docs/design/insight.md.
//
// What each rank publishes (shm::RankSlot, written only by that rank, read
// only by mpiexec):
//   stuck_call      the MPI call it is blocked in with its arguments
//                   ("MPI_Recv(source 1, tag 7, MPI_COMM_WORLD, 1 x MPI_INT)");
//                   plain bytes, written when the wait enters its sleep phase,
//                   before the first stuck_rounds store (release).
//   stuck_waits_for the world rank that call waits for (-1: none, or any of
//                   several); relaxed, written with stuck_call. Both are only
//                   words for the report: no decision reads them, so a torn
//                   read (the rank re-entering a wait while we copy) garbles a
//                   line at worst.
//   stuck_rounds    written by the rank in the sleep loop of p2p::wait_slow
//                   (release) after every futex wait: the number of
//                   consecutive sleeps that (a) ended by timeout (50 ms),
//                   (b) with the doorbell unchanged, (c) with no data of its
//                   own waiting for ring space, and (d) in whose iteration
//                   progress() consumed no record and completed no request
//                   (p2p::activity() unchanged). Any other iteration stores
//                   0; leaving the wait stores 0.
//   stuck_doorbell  the doorbell value those sleeps waited on (relaxed,
//                   before stuck_rounds).
//
// mpiexec's decision (tick() every 250 ms, reads with acquire): the job is
// deadlocked when, at two consecutive looks, every rank not yet reaped has
//   stuck_rounds >= 20 (1 s of its own running time idle in the wait),
//   doorbell == stuck_doorbell (nobody rang it since it last looked), and
//   at the second look stuck_rounds strictly greater than at the first.
// The last condition is what makes oversubscription safe: a rank that was
// descheduled (2 cores, 8 ranks) keeps a stale count; requiring it to grow
// means the rank ran again after the first look, did a full progress() pass
// (fenced, see lib/p2p/progress.cpp) that found nothing and slept 50 ms
// more without a wake. A message still in a ring would have been found by
// that pass, since its sender, idle for >= 1 s, wrote it before the first
// look (an idle rank sends nothing: in the sleep loop it sends only replies
// to records it consumed or data blocked on ring space, both excluded
// above). A rank that computes, or has not called MPI_Init yet, or spins
// in its first 2 ms of waiting, is never stuck, so the job is not either.
// A rank that finalized but has not exited keeps the job alive (it may
// still be draining); reaped ranks are ignored.
#include "deadlock.hpp"

#include <atomic>
#include <cstdio>

namespace ringmpi::launcher {

std::optional<std::string> DeadlockWatch::tick(const std::vector<bool>& gone, const std::vector<std::string>& labels) {
  // The processes started so far: mpiexec's ranks, then spawned ones.
  const auto n = static_cast<std::uint32_t>(gone.size());
  if (n == 0 || n < arena_.header().started.load(std::memory_order_acquire)) return std::nullopt;  // still starting
  if (last_rounds_.size() != n) last_rounds_.clear();  // a spawn added processes: start over
  std::vector<std::uint32_t> rounds(n, 0);
  bool all_stuck = true, any_live = false;
  for (std::uint32_t r = 0; r < n; ++r) {
    if (gone[r]) continue;
    any_live = true;
    const shm::RankSlot& slot = arena_.slot(r);
    rounds[r] = slot.stuck_rounds.load(std::memory_order_acquire);
    const std::uint32_t seen = slot.stuck_doorbell.load(std::memory_order_relaxed);
    const bool grew = !last_rounds_.empty() && rounds[r] > last_rounds_[r];
    if (rounds[r] < kStuckRounds || slot.doorbell.load(std::memory_order_relaxed) != seen || !grew)
      all_stuck = false;
  }
  last_rounds_ = rounds;
  if (!all_stuck || !any_live) return std::nullopt;
  return "deadlock: every rank still running is blocked in MPI and no message is in flight:" +
         describe_ranks(arena_, gone, labels);
}

namespace {

// A wait-for cycle among the stuck ranks, in words ("rank 0 -> rank 1 ->
// rank 0"), or "" when the edges (one per rank at most) form none.
std::string wait_for_cycle(const std::vector<int>& waits_for, const std::vector<std::string>& names) {
  const std::size_t n = waits_for.size();
  std::vector<int> state(n, 0);  // 0 unvisited, 1 on the current path, 2 done
  for (std::size_t start = 0; start < n; ++start) {
    std::vector<std::size_t> path;
    std::size_t r = start;
    while (r < n && state[r] == 0) {
      state[r] = 1;
      path.push_back(r);
      const int next = waits_for[r];
      if (next < 0) break;
      r = static_cast<std::size_t>(next);
    }
    if (r < n && state[r] == 1 && waits_for[path.back()] >= 0) {
      std::string text;
      bool in = false;
      for (std::size_t p : path) {
        in = in || p == r;
        if (in) text += names[p] + " -> ";
      }
      return text + names[r];
    }
    for (std::size_t p : path) state[p] = 2;
  }
  return "";
}

}  // namespace

std::string describe_ranks(const shm::Arena& arena, const std::vector<bool>& gone,
                           const std::vector<std::string>& labels) {
  std::string text;
  const auto n = static_cast<std::uint32_t>(gone.size());
  std::vector<std::string> names(n);
  for (std::uint32_t r = 0; r < n; ++r) names[r] = r < labels.size() ? labels[r] : "rank " + std::to_string(r);
  std::vector<int> waits_for(n, -1);
  for (std::uint32_t r = 0; r < n; ++r) {
    text += "\n  " + names[r];
    if (r < gone.size() && gone[r]) {
      text += " has exited";
      continue;
    }
    const shm::RankSlot& slot = arena.slot(r);
    const std::uint32_t rounds = slot.stuck_rounds.load(std::memory_order_acquire);
    if (rounds == 0) {
      text += slot.finalized.load(std::memory_order_acquire) ? " has finished MPI_Finalize"
              : slot.pid.load(std::memory_order_acquire) == 0 ? " has not called MPI_Init"
                                                               : " is not waiting in MPI (computing, or progressing a call)";
      continue;
    }
    char call[sizeof slot.stuck_call + 1] = {};
    for (std::size_t i = 0; i < sizeof slot.stuck_call; ++i) call[i] = slot.stuck_call[i];
    const int target = slot.stuck_waits_for.load(std::memory_order_relaxed);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", rounds * 0.05);
    if (target >= 0 && static_cast<std::uint32_t>(target) < n) {
      waits_for[r] = target;
      text += " waits for " + names[static_cast<std::uint32_t>(target)] + " in " + call;
    } else {
      text += std::string(" waits in ") + call;
    }
    text += std::string(" (idle for at least ") + secs + " s)";
  }
  // Only ranks that are stuck have edges, so a cycle here is one of waiting ranks.
  const std::string cycle = wait_for_cycle(waits_for, names);
  if (!cycle.empty()) text += "\n  wait-for cycle: " + cycle;
  return text;
}

}  // namespace ringmpi::launcher
