// Starting one rank: finding the program, and what the child does between
// fork and exec.
//
// The child, in this order: dies with mpiexec (PR_SET_PDEATHSIG=SIGKILL,
// then checks getppid() in case mpiexec died before the prctl), leads its
// own process group (so signals reach whatever it forks), takes its pipes as
// fds 0-2, keeps the arena fd across exec, binds itself to its CPUs, puts
// back the open-file limit, SIGPIPE disposition and signal mask mpiexec
// changed, and execs. If exec fails it writes {rank, errno} to the exec
// error pipe and exits 127; mpiexec reports that in one line.
#pragma once

#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace ringmpi::launcher {

struct Resolved {
  std::string path;   // what to pass to execve; empty on error
  int exit_status = 0; // 127 not found, 126 not executable
  std::string error;   // one sentence
};

// execvp's search, done once in mpiexec: a name with '/' is used as is,
// otherwise each directory of path_env (default "/usr/local/bin:/usr/bin:/bin").
Resolved resolve_program(const std::string& name, const char* path_env);

// The ranks' environment: mpiexec's (base), then the -x/-genv settings (a
// later one of the same name wins), then ringmpi's own variables (`extra`:
// more of them, "NAME=value", e.g. a spawned world's RINGMPI_WORLD_BASE).
// ringmpi's variables inherited from mpiexec's own environment (an mpiexec
// run by a rank of another job) are dropped. The rank entry
// (RINGMPI_RANK=0) is last, for the caller to rewrite per rank.
std::vector<std::string> rank_environment(const char* const* base,
                                          const std::vector<std::pair<std::string, std::string>>& settings,
                                          int arena_fd, int nranks, const std::vector<std::string>& extra = {});

struct ExecError {
  int rank;
  int error;  // errno of the failed execve
};

// Argument vectors for execve: strings owned here, pointer arrays NULL-terminated.
class Argv {
 public:
  explicit Argv(std::vector<std::string> items);
  char* const* data() const { return const_cast<char* const*>(ptrs_.data()); }
  std::string& operator[](std::size_t i) { return items_[i]; }
  void refresh();  // call after changing a string through operator[]

 private:
  std::vector<std::string> items_;
  std::vector<const char*> ptrs_;
};

struct ChildSetup {
  int rank = 0;
  const char* path = nullptr;
  char* const* argv = nullptr;
  char* const* sh_argv = nullptr;  // "/bin/sh path args...", for ENOEXEC like execvp
  char* const* envp = nullptr;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;  // the child's ends
  int arena_fd = -1;
  const char* wdir = nullptr;       // nullptr: mpiexec's working directory
  const cpu_set_t* cpus = nullptr;  // nullptr: not bound
  int exec_error_fd = -1;
  pid_t parent = 0;
  const sigset_t* sigmask = nullptr;        // to restore before exec
  const struct sigaction* sigpipe = nullptr;
  const struct rlimit* nofile = nullptr;
};

// fork()s a child that runs `setup` and execs; returns its pid or -1 (errno set).
pid_t spawn_rank(const ChildSetup& setup);

}  // namespace ringmpi::launcher
