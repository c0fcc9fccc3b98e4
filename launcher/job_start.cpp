// Job::spawn_all: pipes, environment and fork/exec of every rank (the
// child's side is in spawn.cpp). Registers each rank's fds with the loop.
// start_one also starts the processes of MPI_Comm_spawn (spawn_service.cpp).
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "job.hpp"

namespace ringmpi::launcher {
namespace {

int pidfd_open(pid_t pid) { return static_cast<int>(syscall(SYS_pidfd_open, pid, 0)); }

bool make_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0; }

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::string Job::label(int slot) const {
  const Rank& r = ranks_[static_cast<std::size_t>(slot)];
  if (r.spawn_id == 0) return "rank " + std::to_string(slot);
  return "spawn " + std::to_string(r.spawn_id) + " rank " + std::to_string(r.world_rank) + " (process " +
         std::to_string(slot) + ", " + r.program + ")";
}

std::vector<std::string> Job::labels() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < ranks_.size(); ++i) out.push_back(label(static_cast<int>(i)));
  return out;
}

bool Job::start_one(int r, const Launch& l) {
  int out[2] = {-1, -1}, err[2] = {-1, -1}, in[2] = {-1, -1};
  if (!make_pipe(out) || !make_pipe(err) || (l.feed_stdin && !make_pipe(in))) {
    for (int fd : {out[0], out[1], err[0], err[1], in[0], in[1]})
      if (fd >= 0) close(fd);
    message("cannot create pipes for " + label(r) + ": " + std::strerror(errno) +
            " (too many ranks for the open-file limit?)");
    return false;
  }
  ChildSetup cs;
  cs.rank = r;
  cs.path = l.path;
  cs.argv = l.argv;
  cs.sh_argv = l.sh_argv;
  cs.envp = l.envp;
  cs.arena_fd = s_.arena_fd;
  cs.wdir = l.wdir;
  cs.exec_error_fd = l.exec_error_fd;
  cs.parent = getpid();
  cs.sigmask = &s_.inherited->sigmask;
  cs.sigpipe = &s_.inherited->sigpipe;
  cs.nofile = &s_.inherited->nofile;
  cs.stdin_fd = l.feed_stdin ? in[0] : l.devnull;
  cs.stdout_fd = out[1];
  cs.stderr_fd = err[1];
  cs.cpus = l.cpus;
  const pid_t pid = spawn_rank(cs);
  const int fork_errno = errno;
  close(out[1]);
  close(err[1]);
  if (l.feed_stdin) close(in[0]);
  if (pid < 0) {
    close(out[0]);
    close(err[0]);
    if (l.feed_stdin) close(in[1]);
    message("cannot start " + label(r) + ": fork: " + std::strerror(fork_errno));
    return false;
  }
  Rank& rank = ranks_[static_cast<std::size_t>(r)];
  rank.pid = pid;
  ++live_;
  ++worlds_[static_cast<std::size_t>(rank.spawn_id)].live;
  for (int k = 0; k < 2; ++k) {
    Stream& st = streams_[static_cast<std::size_t>(2 * r + k)];
    st.fd = k == 0 ? out[0] : err[0];
    st.rank = r;
    st.to_stdout = k == 0;
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false
    // positive, GCC bug 105329) on "[" + std::to_string(r) + "] ".
    std::string prefix;
    if (o_.tag_output) {
      prefix = "[";
      if (rank.spawn_id != 0) {
        prefix += std::to_string(rank.spawn_id);
        prefix += ".";
        prefix += std::to_string(rank.world_rank);
      } else {
        prefix += std::to_string(r);
      }
      prefix += "] ";
    }
    st.forwarder = std::make_unique<LineForwarder>(k == 0 ? out_ : err_, 2 * r + k, prefix);
    set_nonblocking(st.fd);
    watch(st.fd, Kind::stream, 2 * r + k);
  }
  if (l.feed_stdin) {
    set_nonblocking(in[1]);
    stdin_ = std::make_unique<StdinForwarder>(*s_.poller, 0, in[1]);
  }
  rank.pidfd = pidfd_open(pid);
  if (rank.pidfd < 0) {
    message(std::string("pidfd_open failed (Linux 5.3 or later is needed): ") + std::strerror(errno));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    rank.reaped = true;
    --live_;
    --worlds_[static_cast<std::size_t>(rank.spawn_id)].live;
    return false;
  }
  watch(rank.pidfd, Kind::pidfd, r);
  return true;
}

bool Job::spawn_all() {
  const int n = o_.nranks;
  int exec_pipe[2];
  if (!make_pipe(exec_pipe)) {
    message(std::string("cannot create a pipe: ") + std::strerror(errno));
    return false;
  }
  exec_error_fds_.push_back(exec_pipe[0]);
  set_nonblocking(exec_pipe[0]);
  watch(exec_pipe[0], Kind::exec_error, 0);
  const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

  std::vector<std::string> extra;
  if (!s_.launcher_name.empty()) extra.push_back(std::string(shm::kEnvLauncher) + "=" + s_.launcher_name);
  if (s_.binding->policy != Bind::none && s_.binding->ranks.size() == static_cast<std::size_t>(n))
    extra.push_back(std::string(shm::kEnvPlaces) + "=" + places_text(*s_.binding));
  std::vector<std::string> env = rank_environment(environ, o_.env, s_.arena_fd, n, extra);
  const std::size_t rank_entry = env.size() - 1;
  Argv envp(std::move(env));
  Argv argv(o_.program);
  std::vector<std::string> sh{"/bin/sh", s_.program_path};
  sh.insert(sh.end(), o_.program.begin() + 1, o_.program.end());
  Argv sh_argv(std::move(sh));

  Launch l;
  l.path = s_.program_path.c_str();
  l.argv = argv.data();
  l.sh_argv = sh_argv.data();
  l.devnull = devnull;
  l.exec_error_fd = exec_pipe[1];

  bool ok = true;
  ranks_.resize(static_cast<std::size_t>(n));
  streams_.resize(static_cast<std::size_t>(2 * n));
  free_.assign(static_cast<std::size_t>(n), false);
  worlds_.push_back(World{0, n, 0});
  for (int r = 0; r < n && ok; ++r) {
    ranks_[static_cast<std::size_t>(r)].world_rank = r;
    ranks_[static_cast<std::size_t>(r)].program = o_.program[0];
    envp[rank_entry] = std::string(shm::kEnvRank) + "=" + std::to_string(r);
    envp.refresh();
    l.envp = envp.data();
    l.feed_stdin = r == 0 && s_.forward_stdin;
    l.cpus = s_.binding->policy != Bind::none && s_.binding->apply
                 ? &s_.binding->ranks[static_cast<std::size_t>(r)].cpus
                 : nullptr;
    ok = start_one(r, l);
  }
  if (devnull >= 0) close(devnull);
  close(exec_pipe[1]);  // from now on only children that have not exec'd yet hold it
  return ok;
}

}  // namespace ringmpi::launcher
