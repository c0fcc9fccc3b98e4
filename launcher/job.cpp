// The job's event loop: one thread, one Poller (io_uring, or poll(2) as the
// fallback), everything mpiexec waits for is a file descriptor. Starting
// the ranks is in job_start.cpp.
//
// What the loop watches
//   - 2 pipes per rank (stdout, stderr; read ends non-blocking, ours alone)
//   - 1 pidfd per rank: readable once the rank has exited; then waitid()
//   - the signalfd of SIGINT/SIGTERM/SIGHUP (blocked in mpiexec)
//   - the exec error pipes: {slot, errno} from a child whose execve failed
//   - the spawn socket: MPI_Comm_spawn requests (spawn_service.cpp); a
//     spawned process is then supervised exactly like mpiexec's ranks
//   - mpiexec's stdin and rank 0's stdin pipe (StdinForwarder)
//   Deadlines (--timeout, the SIGKILL escalation) are the wait's timeout.
//
// Invariants
//   1. Backends only report readiness; every read and write happens here,
//      on non-blocking fds (except our own stdin/stdout/stderr), so both
//      backends behave the same by construction.
//   2. An fd is unwatched before it is closed, and reports for fds no longer
//      in targets_ are dropped, so a report never reaches the wrong object.
//   3. A rank's output comes before mpiexec's verdict about it: when a rank
//      is reaped its pipes are drained first. Everything the rank wrote is
//      in the pipe by then (a write into a pipe completes before exit).
//   4. The outcome (exit status) is set once, by the first failing rank,
//      the timeout, a signal to mpiexec or an exec failure, and mpiexec
//      prints exactly one line for it. From then on the job is stopping:
//      ranks that die are not judged, whatever their status.
//   5. Stopping = signal every live rank's process group, SIGKILL after
//      kKillGrace if a forwarded SIGINT/SIGTERM does not end them; failures
//      and the timeout send SIGKILL at once, except a rank that exited with
//      status 0 without MPI_Finalize: the others, maybe ending too, get
//      kKillGrace with no signal first (verdict.hpp grace). The loop ends when every rank
//      is reaped. A rank's process group is SIGKILLed when the rank is
//      reaped (between WNOWAIT and the real reap, so the group id cannot
//      have been reused): nothing a rank forked outlives it. Pipes still
//      open after the last reap are drained up to EAGAIN, not waited for.
//   6. Output is forwarded in whole lines (output.hpp), through one Sink per
//      destination; mpiexec's own messages go through the same Sink.
#include "job.hpp"

#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "verdict.hpp"

namespace ringmpi::launcher {
namespace {

constexpr auto kKillGrace = std::chrono::seconds(1);
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kReadsPerTurn = 4;        // fairness between busy streams
constexpr int kMaxDrainReads = 1024;    // a rank's grandchild may keep writing forever

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

std::string ranks_text(int n) { return std::to_string(n) + (n == 1 ? " rank" : " ranks"); }

}  // namespace

Job::Job(const JobSetup& setup) : s_(setup), o_(*setup.options), buf_(kReadChunk) {}

Job::~Job() {
  stdin_.reset();
  for (std::size_t i = 0; i < streams_.size(); ++i) close_stream(static_cast<int>(i));
  for (Rank& r : ranks_)
    if (r.pidfd >= 0) close(r.pidfd);
  for (int fd : exec_error_fds_)
    if (fd >= 0) close(fd);
}

void Job::watch(int fd, Kind kind, int index) {
  targets_[fd] = Target{kind, index};
  s_.poller->set(fd, POLLIN);
}

void Job::unwatch(int fd) {
  s_.poller->set(fd, 0);
  targets_.erase(fd);
}

void Job::message(const std::string& line) { err_.write(-1, "mpiexec: " + line + "\n"); }

int Job::run() {
  if (o_.timeout_s > 0)
    timeout_at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.timeout_s));
  if (s_.signal_fd >= 0) watch(s_.signal_fd, Kind::signal, 0);
  if (s_.spawn_listen_fd >= 0) watch(s_.spawn_listen_fd, Kind::spawn_listen, 0);
  if (o_.deadlock_check && s_.arena) {
    deadlock_.emplace(*s_.arena);
    deadlock_at_ = Clock::now() + std::chrono::milliseconds(kDeadlockTickMs);
  }
  if (!spawn_all() && !outcome_) {
    outcome_ = kExitInternal;
    signal_all(SIGKILL);
  }
  while (live_ > 0) {
    ready_.clear();
    s_.poller->wait(next_timeout_ms(), ready_);
    for (const Ready& r : ready_) dispatch(r);
    check_deadlines();
  }
  for (std::size_t i = 0; i < streams_.size(); ++i) read_stream(static_cast<int>(i), true);
  if (s_.signal_fd >= 0) unwatch(s_.signal_fd);
  if (s_.spawn_listen_fd >= 0) unwatch(s_.spawn_listen_fd);
  stdin_.reset();
  return outcome_.value_or(0);
}

void Job::dispatch(const Ready& ready) {
  if (stdin_ && stdin_->owns(ready.fd)) {
    stdin_->on_ready(ready.fd);
    return;
  }
  const auto it = targets_.find(ready.fd);
  if (it == targets_.end()) return;  // unwatched while this batch was handled
  const Target t = it->second;
  switch (t.kind) {
    case Kind::stream: read_stream(t.index, false); break;
    case Kind::pidfd: reap(t.index); break;
    case Kind::signal: read_signals(); break;
    case Kind::exec_error: read_exec_errors(ready.fd); break;
    case Kind::spawn_listen: accept_spawns(); break;
  }
}

void Job::read_stream(int index, bool drain) {
  Stream& st = streams_[static_cast<std::size_t>(index)];
  for (int reads = 0; st.fd >= 0 && reads < (drain ? kMaxDrainReads : kReadsPerTurn); ++reads) {
    const ssize_t n = read(st.fd, buf_.data(), buf_.size());
    if (n > 0) {
      st.forwarder->feed(std::string_view(buf_.data(), static_cast<std::size_t>(n)));
      Sink& sink = st.to_stdout ? out_ : err_;
      if (sink.broken()) {
        // Nobody reads mpiexec's output any more: close the ranks' pipes so
        // that they see EPIPE/SIGPIPE, as they would writing there directly.
        for (std::size_t i = 0; i < streams_.size(); ++i)
          if (streams_[i].to_stdout == st.to_stdout) close_stream(static_cast<int>(i));
      }
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      return;
    } else {
      close_stream(index);  // EOF: every writer (the rank and its children) is done
    }
  }
}

void Job::close_stream(int index) {
  Stream& st = streams_[static_cast<std::size_t>(index)];
  if (st.fd < 0) return;
  st.forwarder->finish();
  unwatch(st.fd);
  close(st.fd);
  st.fd = -1;
}

void Job::reap(int r) {
  Rank& rank = ranks_[static_cast<std::size_t>(r)];
  siginfo_t info{};
  if (rank.reaped || waitid(P_PID, static_cast<id_t>(rank.pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
      info.si_pid == 0)
    return;
  // While the rank is a zombie its pid, and so its process group id, cannot
  // be reused: take down whatever it left running in its group, then reap.
  kill(-rank.pid, SIGKILL);
  waitid(P_PID, static_cast<id_t>(rank.pid), &info, WEXITED | WNOHANG);
  rank.reaped = true;
  --live_;
  World& world = worlds_[static_cast<std::size_t>(rank.spawn_id)];
  // slot_reuse.hpp, invariant 1: a spawned world's slots, once all of it is gone.
  if (--world.live == 0 && rank.spawn_id != 0 && o_.trace_path.empty())
    for (std::int32_t i = world.base; i < world.base + world.size; ++i) free_[static_cast<std::size_t>(i)] = true;
  unwatch(rank.pidfd);
  close(rank.pidfd);
  rank.pidfd = -1;
  read_exec_errors();  // a child whose exec failed reported it before exiting
  read_stream(2 * r, true);
  read_stream(2 * r + 1, true);
  if (r == 0 && stdin_) stdin_->stop();
  if (outcome_) return;

  const shm::RankSlot& slot = s_.arena->slot(static_cast<std::uint32_t>(r));
  RankEnd end;
  end.rank = r;
  end.label = label(r);
  end.pid = rank.pid;
  end.how = info.si_code;
  end.code = info.si_status;
  end.note = static_cast<shm::ExitKind>(slot.exit_note.kind.load(std::memory_order_acquire));
  if (end.note != shm::ExitKind::none) {
    end.note_code = slot.exit_note.code;
    end.note_text.assign(slot.exit_note.text, strnlen(slot.exit_note.text, sizeof slot.exit_note.text));
  }
  end.called_init = slot.pid.load(std::memory_order_acquire) != 0;
  end.finalized = slot.finalized.load(std::memory_order_acquire) != 0;
  end.nranks = static_cast<int>(ranks_.size());
  end.others_running = live_;
  end.spawned = rank.spawn_id != 0;
  const Verdict v = judge(end);
  if (v.failed) fail(v.exit_status, v.message, v.grace ? 0 : SIGKILL);
}

void Job::read_exec_errors() {
  const std::vector<int> fds = exec_error_fds_;  // EOF removes entries
  for (int fd : fds) read_exec_errors(fd);
}

void Job::read_exec_errors(int fd) {
  for (;;) {
    ExecError e{};
    const ssize_t n = read(fd, &e, sizeof e);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n != static_cast<ssize_t>(sizeof e)) {  // EOF: every child has exec'd or exited
      unwatch(fd);
      close(fd);
      // Removed, not kept as -1: a job that spawns without end must not
      // walk a list that grows with every spawn on each reap.
      exec_error_fds_.erase(std::remove(exec_error_fds_.begin(), exec_error_fds_.end(), fd), exec_error_fds_.end());
      return;
    }
    const bool known = e.rank >= 0 && static_cast<std::size_t>(e.rank) < ranks_.size();
    const std::string program = known ? ranks_[static_cast<std::size_t>(e.rank)].program : o_.program[0];
    fail(e.error == ENOENT || e.error == ENOTDIR ? 127 : 126,
         "cannot run '" + program + "' on " + (known ? label(e.rank) : "rank " + std::to_string(e.rank)) + ": " +
             std::strerror(e.error),
         SIGKILL);
  }
}

void Job::read_signals() {
  signalfd_siginfo si;
  while (read(s_.signal_fd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
    const int sig = static_cast<int>(si.ssi_signo);
    if (sig == SIGQUIT) {  // hang report; the job goes on
      message("SIGQUIT: state of the ranks:" + describe_ranks(*s_.arena, gone_ranks(), labels()));
      continue;
    }
    if (!outcome_) {
      fail(128 + sig,
           "received " + signal_name(sig) + "; passed it on to " + ranks_text(live_) +
               " (SIGKILL if they are still there in 1 s)",
           sig);
    } else {
      signal_all(SIGKILL);  // asked twice: no more patience
    }
  }
}

// signal_to_send 0: no signal now, SIGKILL after kKillGrace (ranks that
// may still end by themselves).
void Job::fail(int exit_status, const std::string& text, int signal_to_send) {
  if (outcome_) return;
  outcome_ = exit_status;
  timeout_at_.reset();
  message(text);
  if (signal_to_send != 0) signal_all(signal_to_send);
  if (signal_to_send != SIGKILL) kill_at_ = Clock::now() + kKillGrace;
}

void Job::signal_all(int sig) {
  for (const Rank& r : ranks_) {
    if (r.pid <= 0 || r.reaped) continue;
    // The rank leads its own group, reaching what it forked; if it left
    // that group, signal it directly.
    if (kill(-r.pid, sig) != 0 || sig == SIGKILL) kill(r.pid, sig);
  }
}

std::vector<bool> Job::gone_ranks() const {
  std::vector<bool> gone(ranks_.size());
  for (std::size_t r = 0; r < ranks_.size(); ++r) gone[r] = ranks_[r].reaped;
  return gone;
}

void Job::check_deadlines() {
  const auto now = Clock::now();
  if (timeout_at_ && now >= *timeout_at_) {
    timeout_at_.reset();
    fail(kExitTimeout,
         "timeout: the job did not finish within " + seconds_text(o_.timeout_s) +
             " s (--timeout / MPIEXEC_TIMEOUT); killing the remaining " + ranks_text(live_) +
             "; they were:" + describe_ranks(*s_.arena, gone_ranks(), labels()),
         SIGKILL);
  }
  if (deadlock_at_ && now >= *deadlock_at_) {
    deadlock_at_ = now + std::chrono::milliseconds(kDeadlockTickMs);
    if (outcome_) {
      deadlock_at_.reset();
    } else if (auto report = deadlock_->tick(gone_ranks(), labels())) {
      deadlock_at_.reset();
      fail(kExitDeadlock, *report + "\nmpiexec: the job cannot make progress; killing the remaining " + ranks_text(live_) +
                              " (exit status 123; --no-deadlock-check turns this check off)",
           SIGKILL);
    }
  }
  if (kill_at_ && now >= *kill_at_) {
    kill_at_.reset();
    signal_all(SIGKILL);
  }
}

int Job::next_timeout_ms() const {
  std::optional<Clock::time_point> next;
  for (const auto& d : {timeout_at_, kill_at_, deadlock_at_})
    if (d && (!next || *d < *next)) next = d;
  if (!next) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, INT_MAX));
}

}  // namespace ringmpi::launcher
