// One MPI job: the ranks, their output streams, and the event loop that
// supervises them until the last rank is reaped. See job.cpp for the
// loop's design and invariants.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "binding.hpp"
#include "deadlock.hpp"
#include "options.hpp"
#include "output.hpp"
#include "poller.hpp"
#include "shm/arena.hpp"
#include "shm/spawn_wire.hpp"
#include "spawn.hpp"
#include "stdin_forward.hpp"

namespace ringmpi::launcher {

// Exit status when mpiexec itself fails (fork, pipes, the arena...).
inline constexpr int kExitInternal = 125;
inline constexpr int kExitTimeout = 124;
inline constexpr int kExitDeadlock = 123;

// What mpiexec inherits and must hand back to the ranks unchanged.
struct Inherited {
  sigset_t sigmask;
  struct sigaction sigpipe;
  struct rlimit nofile;
};

struct JobSetup {
  const Options* options = nullptr;
  std::string program_path;
  const BindPlan* binding = nullptr;
  int arena_fd = -1;
  const shm::Arena* arena = nullptr;
  Poller* poller = nullptr;
  int signal_fd = -1;             // signalfd for the forwarded signals
  bool forward_stdin = true;      // false: rank 0 reads /dev/null too
  const Inherited* inherited = nullptr;
  // MPI_Comm_spawn (spawn_service.cpp): the listening socket and its
  // abstract name (shm::kEnvLauncher); -1 / empty: no spawning.
  int spawn_listen_fd = -1;
  std::string launcher_name;
};

class Job {
 public:
  explicit Job(const JobSetup& setup);
  ~Job();
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  // Starts every rank and supervises them; returns mpiexec's exit status.
  int run();
  // Processes the job had: mpiexec's ranks and the spawned ones (slots
  // 0..processes()-1), e.g. for --trace's merge.
  int processes() const { return static_cast<int>(ranks_.size()); }

 private:
  using Clock = std::chrono::steady_clock;
  enum class Kind { stream, pidfd, signal, exec_error, spawn_listen };
  struct Target {
    Kind kind;
    int index;
  };
  struct Stream {
    int fd = -1;
    int rank = 0;
    std::unique_ptr<LineForwarder> forwarder;
    bool to_stdout = true;
  };
  // Every process of the job, by slot: mpiexec's ranks, then the spawned
  // ones (spawn_service.cpp).
  struct Rank {
    pid_t pid = 0;
    int pidfd = -1;
    bool reaped = false;
    int spawn_id = 0;    // 0: started by mpiexec; s: by the s-th spawn
    int world_rank = 0;  // its rank in its MPI_COMM_WORLD
    std::string program;
  };
  // What start_one needs besides the slot.
  struct Launch {
    const char* path = nullptr;
    char* const* argv = nullptr;
    char* const* sh_argv = nullptr;
    char* const* envp = nullptr;
    const char* wdir = nullptr;
    const cpu_set_t* cpus = nullptr;
    bool feed_stdin = false;
    int devnull = -1;
    int exec_error_fd = -1;  // write end
  };

  bool spawn_all();
  // Forks process `slot` (ranks_ and streams_ sized already) and watches it.
  bool start_one(int slot, const Launch& l);
  // "rank 3", or "spawn 1 rank 0 (process 4)".
  std::string label(int slot) const;
  std::vector<std::string> labels() const;
  // The spawn service (spawn_service.cpp).
  void accept_spawns();
  shm::SpawnReply serve_spawn(const shm::SpawnRequest& req);
  void dispatch(const Ready& ready);
  void watch(int fd, Kind kind, int index);
  void unwatch(int fd);
  void read_stream(int index, bool drain);
  void close_stream(int index);
  void reap(int rank);
  void read_exec_errors();
  void read_exec_errors(int fd);
  void read_signals();
  void fail(int exit_status, const std::string& message, int signal_to_send);
  void signal_all(int sig);
  void check_deadlines();
  std::vector<bool> gone_ranks() const;  // reaped, by rank
  int next_timeout_ms() const;
  void message(const std::string& line);

  JobSetup s_;
  const Options& o_;
  Sink out_{1};
  Sink err_{2};
  std::vector<Rank> ranks_;
  std::vector<Stream> streams_;
  std::unique_ptr<StdinForwarder> stdin_;
  std::unordered_map<int, Target> targets_;
  // Read ends of the exec error pipes (one for mpiexec's ranks, one per
  // spawn); the children hold the write ends until they exec.
  std::vector<int> exec_error_fds_;
  int spawns_ = 0;  // spawns done so far
  // Slot reuse (slot_reuse.hpp): each world (by spawn id, 0: mpiexec's
  // ranks) with its processes not reaped yet, and the slots free again.
  struct World {
    std::int32_t base = 0, size = 0, live = 0;
  };
  std::vector<World> worlds_;
  std::vector<bool> free_;  // by slot, below ranks_.size()
  // The first run of n free slots, slots past ranks_.size() counting as
  // free, or -1; longest_room(): the longest such run.
  std::int32_t find_room(std::int32_t n) const;
  std::int32_t longest_room() const;
  // Reaps spawned processes that have exited (or, with wait_ms > 0, that
  // finalized and exit within that time), so their worlds' slots free up.
  void reap_finished(int wait_ms);
  int live_ = 0;            // ranks not reaped yet
  std::vector<char> buf_;
  std::vector<Ready> ready_;

  // The outcome is decided by the first of: a failing rank, the timeout, a
  // signal to mpiexec, an exec failure. Later events never change it.
  std::optional<int> outcome_;
  std::optional<Clock::time_point> timeout_at_;
  std::optional<Clock::time_point> kill_at_;  // escalation to SIGKILL while stopping
  std::optional<DeadlockWatch> deadlock_;       // empty with --no-deadlock-check
  std::optional<Clock::time_point> deadlock_at_;  // next look for a deadlock
};

}  // namespace ringmpi::launcher
