// Job::spawn_all: pipes, environment and fork/exec of every rank (the
// child's side is in spawn.cpp). Registers each rank's fds with the loop.
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

bool Job::spawn_all() {
  const int n = o_.nranks;
  int exec_pipe[2];
  if (!make_pipe(exec_pipe)) {
    message(std::string("cannot create a pipe: ") + std::strerror(errno));
    return false;
  }
  exec_error_fd_ = exec_pipe[0];
  set_nonblocking(exec_error_fd_);
  watch(exec_error_fd_, Kind::exec_error, 0);
  const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

  std::vector<std::string> env = rank_environment(environ, o_.env, s_.arena_fd, n);
  if (s_.binding->policy != Bind::none && s_.binding->ranks.size() == static_cast<std::size_t>(n))
    env.insert(env.end() - 1, std::string(shm::kEnvPlaces) + "=" + places_text(*s_.binding));
  const std::size_t rank_entry = env.size() - 1;
  Argv envp(std::move(env));
  Argv argv(o_.program);
  std::vector<std::string> sh{"/bin/sh", s_.program_path};
  sh.insert(sh.end(), o_.program.begin() + 1, o_.program.end());
  Argv sh_argv(std::move(sh));

  ChildSetup cs;
  cs.path = s_.program_path.c_str();
  cs.argv = argv.data();
  cs.sh_argv = sh_argv.data();
  cs.arena_fd = s_.arena_fd;
  cs.exec_error_fd = exec_pipe[1];
  cs.parent = getpid();
  cs.sigmask = &s_.inherited->sigmask;
  cs.sigpipe = &s_.inherited->sigpipe;
  cs.nofile = &s_.inherited->nofile;

  bool ok = true;
  ranks_.resize(static_cast<std::size_t>(n));
  streams_.resize(static_cast<std::size_t>(2 * n));
  for (int r = 0; r < n && ok; ++r) {
    int out[2] = {-1, -1}, err[2] = {-1, -1}, in[2] = {-1, -1};
    const bool feed_stdin = r == 0 && s_.forward_stdin;
    if (!make_pipe(out) || !make_pipe(err) || (feed_stdin && !make_pipe(in))) {
      for (int fd : {out[0], out[1], err[0], err[1], in[0], in[1]})
        if (fd >= 0) close(fd);
      message("cannot create pipes for rank " + std::to_string(r) + ": " + std::strerror(errno) +
              " (too many ranks for the open-file limit?)");
      ok = false;
      break;
    }
    envp[rank_entry] = std::string(shm::kEnvRank) + "=" + std::to_string(r);
    envp.refresh();
    cs.rank = r;
    cs.envp = envp.data();
    cs.stdin_fd = feed_stdin ? in[0] : devnull;
    cs.stdout_fd = out[1];
    cs.stderr_fd = err[1];
    cs.cpus = s_.binding->policy != Bind::none && s_.binding->apply
                  ? &s_.binding->ranks[static_cast<std::size_t>(r)].cpus
                  : nullptr;
    const pid_t pid = spawn_rank(cs);
    const int fork_errno = errno;
    close(out[1]);
    close(err[1]);
    if (feed_stdin) close(in[0]);
    if (pid < 0) {
      close(out[0]);
      close(err[0]);
      if (feed_stdin) close(in[1]);
      message("cannot start rank " + std::to_string(r) + ": fork: " + std::strerror(fork_errno));
      ok = false;
      break;
    }
    Rank& rank = ranks_[static_cast<std::size_t>(r)];
    rank.pid = pid;
    ++live_;
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
        prefix += std::to_string(r);
        prefix += "] ";
      }
      st.forwarder = std::make_unique<LineForwarder>(k == 0 ? out_ : err_, 2 * r + k, prefix);
      set_nonblocking(st.fd);
      watch(st.fd, Kind::stream, 2 * r + k);
    }
    if (feed_stdin) {
      set_nonblocking(in[1]);
      stdin_ = std::make_unique<StdinForwarder>(*s_.poller, 0, in[1]);
    }
    rank.pidfd = pidfd_open(pid);
    if (rank.pidfd < 0) {
      message(std::string("pidfd_open failed (Linux 5.3 or later is needed): ") + std::strerror(errno));
      ok = false;
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      rank.reaped = true;
      --live_;
      break;
    }
    watch(rank.pidfd, Kind::pidfd, r);
  }
  if (devnull >= 0) close(devnull);
  close(exec_pipe[1]);  // from now on only children that have not exec'd yet hold it
  return ok;
}

}  // namespace ringmpi::launcher
