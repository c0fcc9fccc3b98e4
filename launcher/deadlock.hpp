// Deadlock detection: mpiexec watches the ranks' published wait state in the
// arena and decides when the job can no longer make progress. Protocol and
// proof sketch at the top of deadlock.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shm/arena.hpp"

namespace ringmpi::launcher {

// How often mpiexec looks, and how many consecutive idle 50 ms sleeps make a
// rank "stuck" (20 x 50 ms = 1 s of that rank's own time in the wait).
inline constexpr int kDeadlockTickMs = 250;
inline constexpr std::uint32_t kStuckRounds = 20;

// One line per rank ("  rank 2 waits in MPI_Recv (idle for at least 1.5 s)",
// "  rank 0 is not waiting in MPI (computing, or just entered a call)",
// "  rank 3 has exited"), for the deadlock report and the hang report.
// Covers the processes started so far (gone.size(): mpiexec's ranks and the
// spawned ones); labels[r] names process r ("rank 3", "spawn 1 rank 0 ...";
// empty: "rank r" for all).
std::string describe_ranks(const shm::Arena& arena, const std::vector<bool>& gone,
                           const std::vector<std::string>& labels = {});

class DeadlockWatch {
 public:
  explicit DeadlockWatch(const shm::Arena& arena) : arena_(arena) {}
  // One look. `gone[r]`: rank r has been reaped. Returns the report (several
  // lines) when the job is deadlocked, nothing otherwise.
  std::optional<std::string> tick(const std::vector<bool>& gone, const std::vector<std::string>& labels = {});

 private:
  const shm::Arena& arena_;
  std::vector<std::uint32_t> last_rounds_;  // stuck_rounds at the previous look; empty: none
};

}  // namespace ringmpi::launcher
