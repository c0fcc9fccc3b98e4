// mpiexec / mpirun: starts an MPI job of N ranks on this machine.
// Order of work: command line, program lookup, limits, binding plan, arena,
// signals, event loop backend, then the Job (job.cpp) runs and supervises.
#include <fcntl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "binding.hpp"
#include "shm/trace_record.hpp"
#include "job.hpp"
#include "mpi.h"
#include "options.hpp"
#include "poller.hpp"
#include "shm/arena.hpp"
#include "shm/spawn_wire.hpp"
#include "spawn.hpp"
#include "trace.hpp"
#include "coll_report.hpp"
#include "tunables/coll_rules.hpp"
#include "tunables/tunables.hpp"

using namespace ringmpi;
using namespace ringmpi::launcher;

namespace {

void say(const std::string& line) { std::fprintf(stderr, "mpiexec: %s\n", line.c_str()); }

// Closed standard fds would be reused by our pipes and then clobbered by the
// children's dup2 onto 0-2.
void ensure_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) open("/dev/null", O_RDWR);
}

// Ring capacity: RINGMPI_RING_BYTES (checked by check_all before), else the
// default for the job's size.
std::uint64_t ring_capacity(int nranks) {
  return tunables::value(tunables::Id::ring_bytes, shm::default_ring_capacity(static_cast<std::uint64_t>(nranks)));
}

// The environment the ranks get: mpiexec's own, overridden by -env/-genv/-x.
const char* rank_env(const Options& o, const char* name) {
  for (auto it = o.env.rbegin(); it != o.env.rend(); ++it)
    if (it->first == name) return it->second.c_str();
  return std::getenv(name);
}

// Each rank costs mpiexec 3-4 fds (2 pipes, a pidfd, rank 0's stdin).
bool raise_fd_limit(int nranks, const rlimit& now) {
  const rlim_t need = static_cast<rlim_t>(nranks) * 4 + 64;
  if (now.rlim_cur != RLIM_INFINITY && now.rlim_cur >= need) return true;
  if (now.rlim_cur == RLIM_INFINITY) return true;
  rlimit raised = now;
  raised.rlim_cur = now.rlim_max == RLIM_INFINITY ? need : std::min(now.rlim_max, std::max(need, now.rlim_cur));
  setrlimit(RLIMIT_NOFILE, &raised);
  return raised.rlim_cur >= need;
}

// The spawn service's socket (spawn_service.cpp): abstract (no file to
// remove on any exit path), named after mpiexec's pid and a random number;
// -1 when it cannot be made (MPI_Comm_spawn then says so).
int listen_for_spawns(std::string* name) {
  std::uint64_t nonce = 0;
  if (getrandom(&nonce, sizeof nonce, 0) != static_cast<ssize_t>(sizeof nonce)) nonce = static_cast<std::uint64_t>(getpid());
  char text[64];
  std::snprintf(text, sizeof text, "ringmpi-%d-%016llx", static_cast<int>(getpid()), static_cast<unsigned long long>(nonce));
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::size_t len = std::strlen(text);
  std::memcpy(addr.sun_path + 1, text, len);
  int rcvbuf = static_cast<int>(shm::kSpawnMaxMessage) + 4096;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + len)) != 0 ||
      listen(fd, 64) != 0) {
    close(fd);
    return -1;
  }
  *name = text;
  return fd;
}

std::unique_ptr<Poller> choose_poller(bool verbose) {
  if (tunables::value(tunables::Id::launcher_poll, 0) == 1) {
    if (verbose) say("event loop: poll (RINGMPI_LAUNCHER_POLL=1)");
    return make_poll_poller();
  }
  std::string why;
  if (auto p = make_uring_poller(&why)) {
    if (verbose) say("event loop: io_uring");
    return p;
  }
  if (verbose) say("event loop: poll (io_uring unavailable: " + why + ")");
  return make_poll_poller();
}

}  // namespace

int main(int argc, char** argv) {
  ensure_standard_fds();
  const ParseResult parsed =
      parse_options(std::vector<std::string>(argv + 1, argv + argc), [](const char* n) { return std::getenv(n); });
  switch (parsed.action) {
    case ParseResult::Action::help: std::fputs(usage_text().c_str(), stdout); return 0;
    case ParseResult::Action::version: std::printf("mpiexec (ringmpi) %s\n", RINGMPI_VERSION); return 0;
    case ParseResult::Action::error: say(parsed.error); return kExitUsage;
    case ParseResult::Action::run: break;
  }
  Options options = parsed.options;
  const Options& o = options;

  const Resolved program = resolve_program(o.program[0], std::getenv("PATH"));
  if (!program.error.empty()) {
    say(program.error);
    return program.exit_status;
  }
  if (const std::string bad = tunables::check_all([&o](const char* n) { return rank_env(o, n); }); !bad.empty()) {
    std::fprintf(stderr, "mpiexec: %s", bad.c_str());
    say("see mpiexec --help for the RINGMPI_* variables");
    return kExitUsage;
  }
  // The collective rules file the ranks will read (RINGMPI_COLL_RULES or
  // its standard places): a malformed one stops the job before it starts.
  if (const std::string bad = tunables::check_coll_rules([&o](const char* n) { return rank_env(o, n); });
      !bad.empty()) {
    say(bad);
    return kExitUsage;
  }
  const std::uint64_t capacity = ring_capacity(o.nranks);

  // --trace: the ranks write into a private directory that `trace` removes
  // on every way out of main; merged into o.trace_path after the job.
  std::optional<TraceDir> trace;
  if (!o.trace_path.empty()) {
    if (FILE* f = std::fopen(o.trace_path.c_str(), "a")) {
      std::fclose(f);
    } else {
      say("--trace: cannot write " + o.trace_path + ": " + std::strerror(errno));
      return kExitUsage;
    }
    trace.emplace();
    if (trace->path().empty()) {
      say(std::string("--trace: cannot make a temporary directory: ") + std::strerror(errno));
      return kExitInternal;
    }
    options.env.emplace_back(shm::kEnvTraceDir, trace->path());
  } else if (std::getenv(shm::kEnvTraceDir)) {
    options.env.emplace_back(shm::kEnvTraceDir, "");  // not inherited from an outer traced job
  }

  // --coll-report: the ranks write their counts at MPI_Finalize into a
  // private directory (removed on every way out), read after the job.
  std::optional<TraceDir> coll_dir;
  if (o.coll_report) {
    coll_dir.emplace();
    if (coll_dir->path().empty()) {
      say(std::string("--coll-report: cannot make a temporary directory: ") + std::strerror(errno));
      return kExitInternal;
    }
    options.env.emplace_back(kEnvCollReport, coll_dir->path());
  } else if (std::getenv(kEnvCollReport)) {
    options.env.emplace_back(kEnvCollReport, "");  // not inherited from an outer reported job
  }

  Inherited inherited{};
  sigprocmask(SIG_BLOCK, nullptr, &inherited.sigmask);
  sigaction(SIGPIPE, nullptr, &inherited.sigpipe);
  getrlimit(RLIMIT_NOFILE, &inherited.nofile);
  if (!raise_fd_limit(o.nranks, inherited.nofile)) {
    say(std::to_string(o.nranks) + " ranks need about " + std::to_string(o.nranks * 4 + 64) +
        " open files but the hard limit is " + std::to_string(inherited.nofile.rlim_max) + " (ulimit -Hn)");
    return kExitInternal;
  }

  const BindPlan binding = plan_binding(o.bind, o.nranks);
  if ((o.bind == Bind::core || o.bind == Bind::numa) && binding.policy == Bind::none)
    say("warning: cannot bind ranks (" + binding.reason + "); running them unbound");
  if (o.verbose) say(std::string("binding: ") + bind_name(binding.policy) + " (" + binding.reason + ")");
  if (o.report_bindings) {
    for (int r = 0; r < o.nranks; ++r) {
      if (binding.policy == Bind::none) say("rank " + std::to_string(r) + " not bound (" + binding.reason + ")");
      else
        say("rank " + std::to_string(r) + " bound to " + binding.ranks[static_cast<std::size_t>(r)].where +
            (binding.apply ? "" : " [not applied: foreign topology]"));
    }
  }

  std::string error;
  std::uint32_t flags = tunables::value(tunables::Id::force_copy_fallback, 0) == 1 ? std::uint32_t{shm::kFlagForceCopyFallback} : 0u;
  if (o.check) flags |= shm::kFlagCheck;  // --check
  // Room for MPI_Comm_spawn (docs/design/dynamic-processes.md): process
  // slots for max(universe, np) + kSpawnHeadroom, ring and collective sizes
  // still those of np.
  const int universe = o.universe_size > 0 ? o.universe_size : default_universe(binding, o.nranks);
  const auto slots = static_cast<std::uint32_t>(std::max(universe, o.nranks)) + shm::kSpawnHeadroom;
  const int arena_fd = shm::Arena::create(slots, capacity, flags, &error, static_cast<std::uint32_t>(o.nranks),
                                          static_cast<std::uint32_t>(universe));
  if (arena_fd < 0) {
    say("cannot create the shared arena for " + std::to_string(o.nranks) + " ranks: " + error);
    return kExitInternal;
  }
  // Spawned processes cost fds too; best effort (a spawn that runs out
  // fails the job with a message naming the open-file limit).
  raise_fd_limit(static_cast<int>(slots), inherited.nofile);
  std::string launcher_name;
  const int spawn_fd = listen_for_spawns(&launcher_name);
  if (spawn_fd < 0 && o.verbose) say(std::string("MPI_Comm_spawn unavailable: no socket: ") + std::strerror(errno));
  const shm::Arena arena = shm::Arena::map(arena_fd, &error);
  if (!arena.mapped()) {
    say("cannot map the shared arena of " + std::to_string(slots) + " process slots: " + error +
        (o.universe_size > 0 ? " (is --universe-size " + std::to_string(o.universe_size) + " too large?)" : ""));
    return kExitInternal;
  }

  // Forwarded signals arrive through the event loop; SIGPIPE becomes EPIPE.
  sigset_t forwarded;
  sigemptyset(&forwarded);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&forwarded, sig);  // SIGQUIT: hang report
  sigprocmask(SIG_BLOCK, &forwarded, nullptr);
  const int signal_fd = signalfd(-1, &forwarded, SFD_NONBLOCK | SFD_CLOEXEC);
  signal(SIGPIPE, SIG_IGN);

  std::unique_ptr<Poller> poller = choose_poller(o.verbose);

  JobSetup setup;
  setup.options = &o;
  setup.program_path = program.path;
  setup.binding = &binding;
  setup.arena_fd = arena_fd;
  setup.arena = &arena;
  setup.poller = poller.get();
  setup.signal_fd = signal_fd;
  // Reading a terminal we do not own would stop mpiexec with SIGTTIN.
  setup.forward_stdin = !(isatty(0) && tcgetpgrp(0) != getpgrp());
  setup.inherited = &inherited;
  setup.spawn_listen_fd = spawn_fd;
  setup.launcher_name = launcher_name;
  int status;
  int processes;
  {
    Job job(setup);
    status = job.run();
    processes = job.processes();
  }
  if (trace) {
    // Spawned processes too: their files are named by their slot.
    if (const std::string why = merge_trace(trace->path(), processes, o.trace_path); !why.empty()) {
      say("--trace: " + why);
      if (status == 0) status = kExitInternal;
    }
  }
  if (coll_dir) {
    int missing = 0;
    std::string table = coll_report(coll_dir->path(), processes, &missing);
    std::fputs(table.c_str(), stderr);
    if (missing) say("--coll-report: " + std::to_string(missing) + " rank(s) wrote no counts (no MPI_Finalize)");
  }
  close(signal_fd);
  if (spawn_fd >= 0) close(spawn_fd);
  close(arena_fd);
  return status;
}
