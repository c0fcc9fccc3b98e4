#include "spawn.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "shm/arena.hpp"

namespace ringmpi::launcher {
namespace {

// 0 if path is an executable regular file, else the errno-like reason.
int check_executable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) return EISDIR;
  if (access(path.c_str(), X_OK) != 0) return errno;
  return 0;
}

Resolved failure(const std::string& name, int err, const std::string& where) {
  Resolved r;
  r.exit_status = (err == ENOENT || err == ENOTDIR) ? 127 : 126;
  r.error.append("cannot run '").append(name).append("': ").append(std::strerror(err)).append(where);
  return r;
}

}  // namespace

Resolved resolve_program(const std::string& name, const char* path_env) {
  if (name.find('/') != std::string::npos) {
    if (const int err = check_executable(name)) return failure(name, err, "");
    return Resolved{name, 0, ""};
  }
  const std::string search = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  int denied = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = search.find(':', start);
    const std::string_view dir =
        std::string_view(search).substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    // An empty PATH entry means the current directory.
    const std::string candidate = std::string(dir.empty() ? std::string_view(".") : dir) + '/' + name;
    const int err = check_executable(candidate);
    if (err == 0) return Resolved{candidate, 0, ""};
    if (err == EACCES || err == EISDIR) denied = err;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (denied) return failure(name, denied, " (found in PATH)");
  return failure(name, ENOENT, " (not found in PATH)");
}

std::vector<std::string> rank_environment(const char* const* base,
                                          const std::vector<std::pair<std::string, std::string>>& settings,
                                          int arena_fd, int nranks, const std::vector<std::string>& extra) {
  auto ours = [](std::string_view name) {
    return name == shm::kEnvArenaFd || name == shm::kEnvRank || name == shm::kEnvSize ||
           name == shm::kEnvWorldBase || name == shm::kEnvAppnum || name == shm::kEnvParent ||
           name == shm::kEnvLauncher || name == shm::kEnvSpawnId || name == shm::kEnvResume;
  };
  auto set_later = [&](std::string_view name, std::size_t after) {
    for (std::size_t j = after; j < settings.size(); ++j)
      if (settings[j].first == name) return true;
    return false;
  };
  std::vector<std::string> env;
  for (const char* const* e = base; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (!ours(name) && !set_later(name, 0)) env.emplace_back(entry);
  }
  for (std::size_t i = 0; i < settings.size(); ++i)
    if (!ours(settings[i].first) && !set_later(settings[i].first, i + 1))
      env.push_back(settings[i].first + "=" + settings[i].second);
  env.push_back(std::string(shm::kEnvArenaFd) + "=" + std::to_string(arena_fd));
  env.push_back(std::string(shm::kEnvSize) + "=" + std::to_string(nranks));
  env.insert(env.end(), extra.begin(), extra.end());
  env.push_back(std::string(shm::kEnvRank) + "=0");
  return env;
}

Argv::Argv(std::vector<std::string> items) : items_(std::move(items)) { refresh(); }

void Argv::refresh() {
  ptrs_.clear();
  for (const std::string& s : items_) ptrs_.push_back(s.c_str());
  ptrs_.push_back(nullptr);
}

namespace {

// Only async-signal-safe calls from here on: we are a fork of mpiexec.
[[noreturn]] void child(const ChildSetup& s) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != s.parent) _exit(127);  // mpiexec is already gone
  setpgid(0, 0);
  if (dup2(s.stdin_fd, 0) < 0 || dup2(s.stdout_fd, 1) < 0 || dup2(s.stderr_fd, 2) < 0) _exit(127);
  fcntl(s.arena_fd, F_SETFD, 0);
  if (s.wdir && chdir(s.wdir) != 0) {  // checked by mpiexec before the fork; this is a race
    const ExecError report{s.rank, errno};
    [[maybe_unused]] ssize_t n = write(s.exec_error_fd, &report, sizeof report);
    _exit(127);
  }
  if (s.cpus) sched_setaffinity(0, sizeof(cpu_set_t), s.cpus);
  if (s.nofile) setrlimit(RLIMIT_NOFILE, s.nofile);
  if (s.sigpipe) sigaction(SIGPIPE, s.sigpipe, nullptr);
  if (s.sigmask) sigprocmask(SIG_SETMASK, s.sigmask, nullptr);
  execve(s.path, s.argv, s.envp);
  if (errno == ENOEXEC) execve("/bin/sh", s.sh_argv, s.envp);  // a script without #!, as execvp does
  const ExecError report{s.rank, errno};
  [[maybe_unused]] ssize_t n = write(s.exec_error_fd, &report, sizeof report);
  _exit(127);
}

}  // namespace

pid_t spawn_rank(const ChildSetup& setup) {
  const pid_t pid = fork();
  if (pid == 0) child(setup);
  if (pid > 0) setpgid(pid, pid);  // also here, so a kill right after fork reaches the group
  return pid;
}

}  // namespace ringmpi::launcher
