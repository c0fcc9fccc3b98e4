// The spawn service: MPI_Comm_spawn's requests reach mpiexec on an abstract
// Unix socket (SOCK_SEQPACKET, its name in shm::kEnvLauncher), one request
// and one answer per connection (shm/spawn_wire.hpp). The design and the
// library's side: docs/design/dynamic-processes.md, lib/comm/dynamic.cpp.
//
// Invariants
//   1. Only peers of mpiexec's own uid are served (SO_PEERCRED); others are
//      closed unanswered.
//   2. Everything that can make a spawn fail is checked before the first
//      fork (programs resolved, working directories, room in the arena), so
//      a spawn starts all its processes or none; a failed one answers an
//      error class and one sentence (every process asked for gets
//      MPI_ERR_SPAWN as its error code).
//   3. A spawn takes the first run of free slots that holds it: slots of
//      ended worlds, prepared for reuse first (slot_reuse.hpp), and fresh
//      ones past `started`. The arena's `started` is raised (release)
//      before the processes are forked, and ranks_/streams_ grow to it
//      first; the deadlock detector waits until every started slot has a
//      process (shm/arena.hpp).
//   4. A spawned process is a rank of the job like the first ones from its
//      fork on: same child set-up (spawn.cpp), pipes, pidfd, verdict.
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "job.hpp"
#include "slot_reuse.hpp"
#include "mpi.h"

namespace ringmpi::launcher {
namespace {

// The program of one command, resolved the way execvp would from the
// process's working directory `wdir`, with the "path" info's directories
// searched before PATH.
Resolved resolve_in(const shm::SpawnCommand& c, const char* path_env) {
  if (c.program.find('/') != std::string::npos) {
    const std::string full = c.program[0] == '/' || c.wdir.empty() ? c.program : c.wdir + "/" + c.program;
    Resolved r = resolve_program(full, nullptr);
    if (!r.error.empty()) r.error = "cannot run '" + c.program + "'" + r.error.substr(r.error.find("':") + 1);
    return r;
  }
  std::string search = c.path;
  const std::string base = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  search = search.empty() ? base : search + ":" + base;
  // Relative PATH entries are relative to the process's working directory.
  std::string absolute;
  std::size_t at = 0;
  for (;;) {
    const std::size_t colon = search.find(':', at);
    std::string dir = search.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    if (dir.empty()) dir = ".";
    if (dir[0] != '/' && !c.wdir.empty()) dir = c.wdir + "/" + dir;
    absolute += (absolute.empty() ? "" : ":") + dir;
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  return resolve_program(c.program, absolute.c_str());
}

std::string check_wdir(const std::string& wdir) {
  struct stat st {};
  if (stat(wdir.c_str(), &st) != 0) return "working directory '" + wdir + "': " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "working directory '" + wdir + "' is not a directory";
  if (access(wdir.c_str(), X_OK) != 0) return "working directory '" + wdir + "': " + std::strerror(errno);
  return {};
}

// Nothing is started: every process asked for gets MPI_ERR_SPAWN, which the
// library fills in itself (reply.codes stays empty, so that the answer to a
// huge maxprocs still fits one datagram).
shm::SpawnReply refuse(int error, std::string message, std::int32_t asked) {
  (void)asked;
  shm::SpawnReply r;
  r.error = error;
  r.message = std::move(message);
  return r;
}

}  // namespace

std::int32_t Job::find_room(std::int32_t n) const {
  const auto slots = static_cast<std::int32_t>(s_.arena->nranks());
  const auto known = static_cast<std::int32_t>(free_.size());
  std::int32_t run = 0;
  for (std::int32_t i = 0; i < slots; ++i) {
    run = i >= known || free_[static_cast<std::size_t>(i)] ? run + 1 : 0;
    if (run == n) return i - n + 1;
  }
  return -1;
}

std::int32_t Job::longest_room() const {
  const auto slots = static_cast<std::int32_t>(s_.arena->nranks());
  const auto known = static_cast<std::int32_t>(free_.size());
  std::int32_t run = 0, best = 0;
  for (std::int32_t i = 0; i < slots; ++i) {
    run = i >= known || free_[static_cast<std::size_t>(i)] ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

void Job::reap_finished(int wait_ms) {
  const auto until = Clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    std::vector<pollfd> finishing;
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      const Rank& rank = ranks_[r];
      if (rank.reaped || rank.spawn_id == 0 || rank.pidfd < 0) continue;
      reap(static_cast<int>(r));  // no-op while it runs
      if (!rank.reaped && s_.arena->slot(static_cast<std::uint32_t>(r)).finalized.load(std::memory_order_acquire))
        finishing.push_back(pollfd{rank.pidfd, POLLIN, 0});
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    if (finishing.empty() || left <= 0 || outcome_) return;
    poll(finishing.data(), finishing.size(), static_cast<int>(left));
  }
}

void Job::accept_spawns() {
  for (;;) {
    const int c = accept4(s_.spawn_listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) {
      if (errno == EINTR) continue;
      return;  // EAGAIN: no more waiting
    }
    ucred cred{};
    socklen_t len = sizeof cred;
    if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != geteuid()) {
      close(c);  // invariant 1
      continue;
    }
    // The library sends its request right after connecting.
    timeval tv{5, 0};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::vector<char> buf(shm::kSpawnMaxMessage);
    ssize_t n;
    do n = recv(c, buf.data(), buf.size(), 0);
    while (n < 0 && errno == EINTR);
    shm::SpawnRequest req;
    shm::SpawnReply reply;
    if (n <= 0 || !shm::decode(buf.data(), static_cast<std::size_t>(n), &req))
      reply = refuse(MPI_ERR_SPAWN, "mpiexec received a malformed spawn request", 0);
    else
      reply = serve_spawn(req);
    const std::string out = shm::encode(reply);
    [[maybe_unused]] ssize_t sent = send(c, out.data(), out.size(), MSG_NOSIGNAL);
    close(c);
  }
}

shm::SpawnReply Job::serve_spawn(const shm::SpawnRequest& req) {
  std::int32_t asked = 0;
  for (const shm::SpawnCommand& c : req.commands) asked += c.maxprocs > 0 ? c.maxprocs : 0;
  if (outcome_) return refuse(MPI_ERR_SPAWN, "the job is stopping; no process is started any more", asked);
  const auto started = static_cast<std::int32_t>(ranks_.size());
  if (req.commands.empty() || req.parents.empty() || req.root < 0 ||
      req.root >= static_cast<std::int32_t>(req.parents.size()))
    return refuse(MPI_ERR_SPAWN, "mpiexec received a spawn request without commands or parents", asked);
  // A parent of another job (a spawn from a communicator of two jobs,
  // comm/dynamic.cpp) has its foreign index: past this job's slots rounded
  // up to 64 (p2p/foreign.hpp). The root is always of this job.
  const std::int64_t foreign_base = (std::int64_t{s_.arena->nranks()} + 63) / 64 * 64;
  const std::int64_t foreign_end = static_cast<std::int64_t>(s_.arena->header().pending_stride * 8);
  for (std::int32_t w : req.parents)
    if (w < 0 || (w >= started && (w < foreign_base || w >= foreign_end)))
      return refuse(MPI_ERR_SPAWN, "mpiexec received a spawn request naming an unknown parent", asked);
  if (req.parents[static_cast<std::size_t>(req.root)] >= started)
    return refuse(MPI_ERR_SPAWN, "mpiexec received a spawn request whose root is not of this job", asked);

  // Invariant 2: every check before the first fork.
  const char* path_env = std::getenv("PATH");
  for (auto it = o_.env.rbegin(); it != o_.env.rend(); ++it)
    if (it->first == "PATH") {
      path_env = it->second.c_str();
      break;
    }
  std::vector<Resolved> programs;
  for (const shm::SpawnCommand& c : req.commands) {
    if (!c.wdir.empty())
      if (std::string why = check_wdir(c.wdir); !why.empty())
        return refuse(MPI_ERR_SPAWN, "cannot start '" + c.program + "': " + why, asked);
    programs.push_back(resolve_in(c, path_env));
    if (!programs.back().error.empty()) return refuse(MPI_ERR_SPAWN, programs.back().error, asked);
  }
  // Room: as many as asked, or with "soft" the largest allowed count that
  // still fits, command by command, in one run of free slots (slot_reuse.hpp).
  // Children that finalized may still be on their way out: wait for them a
  // little before saying no.
  reap_finished(0);
  if (longest_room() < asked) reap_finished(2000);
  if (outcome_) return refuse(MPI_ERR_SPAWN, "the job is stopping; no process is started any more", asked);
  const std::int32_t room = longest_room();
  std::vector<std::int32_t> counts;
  std::int32_t left = room, total = 0;
  for (const shm::SpawnCommand& c : req.commands) {
    std::int32_t take = -1;
    if (c.soft.empty()) {
      if (c.maxprocs <= left) take = c.maxprocs;
    } else {
      for (std::int32_t v : c.soft)  // descending
        if (v <= left) {
          take = v;
          break;
        }
    }
    if (take < 0)
      return refuse(MPI_ERR_SPAWN,
                    "cannot start " + std::to_string(asked) + " more process" + (asked == 1 ? "" : "es") +
                        ": the job has room for " + std::to_string(room) + " more (" +
                        std::to_string(s_.arena->nranks()) + " processes at a time, MPI_UNIVERSE_SIZE " +
                        std::to_string(s_.arena->header().universe) +
                        " plus 32); start mpiexec with a larger --universe-size",
                    asked);
    counts.push_back(take);
    left -= take;
    total += take;
  }
  if (total == 0) return refuse(MPI_ERR_SPAWN, "the soft info values allow no process to start here", asked);

  // Invariant 3, and slot_reuse.hpp's invariant 3 for the slots taken again.
  const int id = ++spawns_;
  const std::int32_t base = find_room(total);
  const SlotReuse reuse = prepare_slots(*s_.arena, s_.arena_fd, static_cast<std::uint32_t>(base),
                                        static_cast<std::uint32_t>(total), static_cast<std::uint32_t>(started));
  for (std::int32_t i = base; i < std::min(base + total, started); ++i) {
    free_[static_cast<std::size_t>(i)] = false;
    close_stream(2 * i);  // flushed: the old process's last words come first
    close_stream(2 * i + 1);
    if (ranks_[static_cast<std::size_t>(i)].pidfd >= 0) close(ranks_[static_cast<std::size_t>(i)].pidfd);
    ranks_[static_cast<std::size_t>(i)] = Rank{};
  }
  if (base + total > started) {
    ranks_.resize(static_cast<std::size_t>(base + total));
    streams_.resize(static_cast<std::size_t>(2 * (base + total)));
    free_.resize(static_cast<std::size_t>(base + total), false);
    s_.arena->header().started.store(static_cast<std::uint32_t>(base + total), std::memory_order_release);
  }
  worlds_.resize(static_cast<std::size_t>(id) + 1);
  worlds_[static_cast<std::size_t>(id)] = World{base, total, 0};

  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0) {
    fail(kExitInternal, std::string("cannot create a pipe for MPI_Comm_spawn: ") + std::strerror(errno), SIGKILL);
    return refuse(MPI_ERR_SPAWN, "mpiexec could not create a pipe", asked);
  }
  fcntl(exec_pipe[0], F_SETFL, fcntl(exec_pipe[0], F_GETFL) | O_NONBLOCK);
  exec_error_fds_.push_back(exec_pipe[0]);
  watch(exec_pipe[0], Kind::exec_error, 0);
  const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);

  std::string parent = std::to_string(req.context_slot) + ":" + std::to_string(req.root) + ":";
  for (std::size_t i = 0; i < req.parents.size(); ++i) parent += (i ? "," : "") + std::to_string(req.parents[i]);
  bool ok = true;
  std::int32_t slot = base;
  for (std::size_t k = 0; k < req.commands.size() && ok; ++k) {
    const shm::SpawnCommand& c = req.commands[k];
    std::vector<std::string> extra{std::string(shm::kEnvWorldBase) + "=" + std::to_string(base),
                                   std::string(shm::kEnvAppnum) + "=" + std::to_string(k),
                                   std::string(shm::kEnvParent) + "=" + parent,
                                   std::string(shm::kEnvSpawnId) + "=" + std::to_string(id)};
    if (!s_.launcher_name.empty()) extra.push_back(std::string(shm::kEnvLauncher) + "=" + s_.launcher_name);
    extra.push_back(std::string(shm::kEnvResume) + "=");  // per process, below
    std::vector<std::string> env = rank_environment(environ, o_.env, s_.arena_fd, total, extra);
    const std::size_t rank_entry = env.size() - 1;
    const std::size_t resume_entry = env.size() - 2;
    Argv envp(std::move(env));
    std::vector<std::string> args{c.program};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Argv argv(args);
    std::vector<std::string> sh{"/bin/sh", programs[k].path};
    sh.insert(sh.end(), c.args.begin(), c.args.end());
    Argv sh_argv(std::move(sh));
    Launch l;
    l.path = programs[k].path.c_str();
    l.argv = argv.data();
    l.sh_argv = sh_argv.data();
    l.wdir = c.wdir.empty() ? nullptr : c.wdir.c_str();
    l.devnull = devnull;
    l.exec_error_fd = exec_pipe[1];
    for (std::int32_t i = 0; i < counts[k] && ok; ++i, ++slot) {
      Rank& r = ranks_[static_cast<std::size_t>(slot)];
      r.spawn_id = id;
      r.world_rank = slot - base;
      r.program = c.program;
      envp[rank_entry] = std::string(shm::kEnvRank) + "=" + std::to_string(slot - base);
      envp[resume_entry] = std::string(shm::kEnvResume) + "=" + reuse.resume[static_cast<std::size_t>(slot - base)];
      envp.refresh();
      l.envp = envp.data();
      ok = start_one(slot, l);
    }
  }
  if (devnull >= 0) close(devnull);
  close(exec_pipe[1]);
  if (!ok) {
    // Slots without a process would keep the parents waiting: the job ends.
    for (std::int32_t s = slot; s < base + total; ++s) ranks_[static_cast<std::size_t>(s)].reaped = true;
    fail(kExitInternal, "MPI_Comm_spawn: mpiexec could not start every process (see above)", SIGKILL);
    return refuse(MPI_ERR_SPAWN, "mpiexec could not start every process", asked);
  }
  if (o_.verbose)
    message("spawn " + std::to_string(id) + ": started " + std::to_string(total) + " process" +
            (total == 1 ? "" : "es") + " (" + std::to_string(base) + ".." + std::to_string(base + total - 1) +
            (base < started ? ", slots reused: " + std::to_string(reuse.discarded) + " unread records dropped, " +
                                  std::to_string(reuse.unread) + " left for their readers"
                            : std::string()) +
            ")");
  shm::SpawnReply reply;
  reply.spawn_id = id;
  reply.base = base;
  reply.size = total;
  reply.counts = counts;
  return reply;
}

}  // namespace ringmpi::launcher
