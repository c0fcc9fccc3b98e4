// MPI_Comm_spawn's collective part and the parent intercommunicator of a
// spawned process (docs/design/dynamic-processes.md has the protocol):
//   1. one run_round on comm: argument errors, the root agreed on, the
//      parents' free context masks ANDed; the slot is picked from them;
//   2. the root asks mpiexec (one datagram each way on its spawn socket),
//      then, if the children were started, waits for child rank 0's hello
//      on the new intercommunicator's coll_context (so the call returns
//      once the children are in MPI_Init);
//   3. the root broadcasts the outcome and the error codes to the parents
//      over comm.
// The children claim the same slot in MPI_Init: they are fresh, so every
// dynamic slot is free in them (comm/context.hpp, invariant 3).
//
// From a communicator of two jobs (separate mpiexec runs, connected with
// accept/connect or join), the root's job starts the children, and the
// members of the other job ("the others") and the children are bound to
// each other as accept/connect binds two groups (comm/ports.cpp,
// bind_spawned): one bridge the root creates (shm/bridge.hpp; the others
// are its accepting side, the children its connecting side), the other
// job's arena handed to the children as the root's kept descriptor. Only
// then do the children say hello, and the others bind the children after
// the root's broadcast. docs/design/dynamic-processes.md, "Spawning from
// two jobs".
#include "comm/dynamic.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "comm/peers.hpp"
#include "comm/ports.hpp"
#include "comm/round.hpp"
#include "core/runtime.hpp"
#include "p2p/foreign.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/wait.hpp"
#include "shm/bridge.hpp"

namespace ringmpi::comm {
namespace {

// What the root broadcasts to the parents.
struct Outcome {
  std::int32_t err;
  std::int32_t base;
  std::int32_t size;
  std::int32_t ncodes;  // error codes the root has (one per process asked for), broadcast next
  std::int32_t bridge_pid, bridge_fd;  // a two-job spawn: the bridge, /proc/<pid>/fd/<fd>
  char why[768];
};

// The root to every child of a two-job spawn (kTagSpawnJobs): where the
// other job's memory is.
struct JobsInfo {
  std::int32_t root_pid;  // the root: /proc/<root_pid>/fd/<n> for both descriptors
  std::int32_t bridge_fd;
  std::int32_t arena_fd;  // the other job's arena
  std::int32_t base;      // the other job's foreign_base()
  char job[128];          // its name
};

// A spawn from a communicator of two jobs, as each member sees it.
struct TwoJobs {
  bool on = false;
  std::vector<int> others;  // comm ranks of the members not of the root's job, in comm order
  int me = -1;              // this process's place in `others`; -1: of the root's job
  OtherJob other;           // the root: the others' job
};

// Fills *t; an error in *bad (a communicator of more than two jobs; at the
// root, a job the children would not fit in).
void two_jobs(const Comm& comm, int root, TwoJobs* t, LocalError* bad) {
  const int slots = core::rt().size;
  std::string job;
  for (int w : comm.peer_world) {
    if (w < slots) continue;
    t->on = true;
    const std::string j = p2p::foreign_job(w);
    if (job.empty()) job = j;
    if (j != job && bad->code == MPI_SUCCESS)
      *bad = {MPI_ERR_SPAWN, "comm has processes of more than two jobs (separate mpiexec runs); spawning is "
                             "supported from a communicator of one job or of two",
              BadArg::spawn_jobs, 0};
  }
  if (!t->on || root < 0 || root >= comm.size()) return;
  const auto here = [&](int k) { return comm.peer_world[static_cast<std::size_t>(k)] < slots; };
  for (int k = 0; k < comm.size(); ++k)
    if (here(k) != here(root)) {
      if (k == comm.rank) t->me = static_cast<int>(t->others.size());
      t->others.push_back(k);
    }
  if (comm.rank != root || bad->code != MPI_SUCCESS) return;
  if (!other_job(comm.peer_world[static_cast<std::size_t>(t->others[0])], &t->other))
    *bad = {MPI_ERR_SPAWN, "comm has processes of another job whose memory this process cannot hand to the children",
            BadArg::spawn_jobs, 0};
  else if (slots > t->other.room)
    *bad = {MPI_ERR_SPAWN, "comm has processes of another job, which has room for " + std::to_string(t->other.room) +
                               " of this job's slots; this job has " + std::to_string(slots) +
                               " (mpiexec --universe-size + 32), so children of a spawn could not be reached from it",
            BadArg::spawn_jobs, 0};
}

struct Hello {
  std::int32_t world_size;
};

// One request to mpiexec; false with reply->message set when mpiexec
// cannot be asked.
bool ask_launcher(const shm::SpawnRequest& req, shm::SpawnReply* reply) {
  const char* name = std::getenv(shm::kEnvLauncher);
  if (!name || !*name) {
    reply->error = MPI_ERR_SPAWN;
    reply->message = "this process was not started by ringmpi's mpiexec (a singleton), so there is no launcher to "
                     "start processes; run the program with mpiexec -n 1";
    return false;
  }
  const std::string msg = shm::encode(req);
  if (msg.size() > shm::kSpawnMaxMessage) {
    reply->error = MPI_ERR_SPAWN;
    reply->message = "the spawn request (commands and arguments) is " + std::to_string(msg.size()) +
                     " bytes; at most " + std::to_string(shm::kSpawnMaxMessage) + " are accepted";
    return false;
  }
  const int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::size_t len = std::min(std::strlen(name), sizeof addr.sun_path - 2);
  std::memcpy(addr.sun_path + 1, name, len);  // abstract: a leading NUL
  const auto addr_len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + len);
  int sndbuf = static_cast<int>(shm::kSpawnMaxMessage) + 4096;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  if (fd < 0 || connect(fd, reinterpret_cast<const sockaddr*>(&addr), addr_len) != 0 ||
      send(fd, msg.data(), msg.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(msg.size())) {
    reply->error = MPI_ERR_SPAWN;
    reply->message = std::string("cannot reach mpiexec to start the processes: ") + std::strerror(errno);
    if (fd >= 0) close(fd);
    return false;
  }
  std::vector<char> buf(shm::kSpawnMaxMessage);
  ssize_t n;
  do n = recv(fd, buf.data(), buf.size(), 0);
  while (n < 0 && errno == EINTR);
  close(fd);
  if (n <= 0 || !shm::decode(buf.data(), static_cast<std::size_t>(n), reply)) {
    reply->error = MPI_ERR_SPAWN;
    reply->message = "mpiexec did not answer the spawn request (is it stopping the job?)";
    return false;
  }
  return true;
}

void say(Outcome* o, int err, const std::string& why) {
  o->err = err;
  std::snprintf(o->why, sizeof o->why, "%s", why.c_str());
}

}  // namespace

Made spawn(const Comm& comm, int root, const std::vector<shm::SpawnCommand>* commands, const LocalError& local_in,
           std::vector<int>* codes) {
  const exchange::Peers p = peers_of(comm);
  LocalError local = local_in;
  TwoJobs two;
  two_jobs(comm, root, &two, &local);
  Round r;
  Made out;
  if (root_round(p, root, local, "; all ranks must name the same root", &r, &out)) return out;
  int slot;
  if (pick_slot(r.mask, &slot, &out)) return out;

  Outcome o{};
  o.bridge_fd = -1;
  if (comm.rank == root) {
    shm::SpawnRequest req;
    req.context_slot = slot;
    req.root = root;
    for (int w : comm.local->to_world_ranks()) req.parents.push_back(w);
    req.commands = *commands;
    int asked = 0;
    for (const shm::SpawnCommand& c : req.commands) asked += c.maxprocs;
    shm::SpawnReply reply;
    if (two.on) {
      // One ring each way per (other member, child) pair, sized for both jobs.
      std::string why;
      o.bridge_fd = shm::Bridge::create(static_cast<std::uint32_t>(two.others.size()),
                                        static_cast<std::uint32_t>(asked),
                                        std::max(two.other.ring_capacity, core::rt().arena.header().ring_capacity),
                                        &why);
      o.bridge_pid = getpid();
      if (o.bridge_fd < 0) {
        reply.error = MPI_ERR_SPAWN;
        reply.message = "cannot create the memory the other job's members share with the children: " + why;
      }
    }
    if (reply.error == MPI_SUCCESS) ask_launcher(req, &reply);
    codes->assign(static_cast<std::size_t>(asked), MPI_SUCCESS);
    if (reply.error != MPI_SUCCESS) {
      for (std::size_t i = 0; i < codes->size(); ++i)
        (*codes)[i] = i < reply.codes.size() ? reply.codes[i] : MPI_ERR_SPAWN;
      say(&o, reply.error, reply.message);
    } else {
      // A soft spawn may start fewer than asked: the codes of the processes
      // not started are MPI_ERR_SPAWN (per command, in order).
      std::size_t at = 0;
      for (std::size_t k = 0; k < req.commands.size(); ++k) {
        const int started = k < reply.counts.size() ? reply.counts[k] : 0;
        for (int i = 0; i < req.commands[k].maxprocs; ++i, ++at)
          if (i >= started) (*codes)[at] = MPI_ERR_SPAWN;
      }
      if (two.on) {
        JobsInfo info{};
        info.root_pid = getpid();
        info.bridge_fd = o.bridge_fd;
        info.arena_fd = two.other.arena_fd;
        info.base = two.other.base;
        std::snprintf(info.job, sizeof info.job, "%s", two.other.job.c_str());
        for (int i = 0; i < reply.size; ++i)
          p2p::send_internal(&info, sizeof info, reply.base + i, exchange::kTagSpawnJobs,
                             ContextPool::context_of(slot) + 1, root);
      }
      // The children's hello: all of them are in MPI_Init (and, from two
      // jobs, have bound the others and opened the bridge).
      Hello h{};
      p2p::recv_internal(&h, sizeof h, 0, exchange::kTagSpawn, ContextPool::context_of(slot) + 1);
      o.err = MPI_SUCCESS;
      o.base = reply.base;
      o.size = reply.size;
    }
    if (o.err != MPI_SUCCESS && o.bridge_fd >= 0) {
      close(o.bridge_fd);
      o.bridge_fd = -1;
    }
  }
  if (comm.rank == root) o.ncodes = static_cast<std::int32_t>(codes->size());
  std::size_t bytes = sizeof o;
  exchange::bcast(p, root, &o, sizeof o, &bytes);
  // array_of_errcodes is an output on every rank (MPI-4.1 §11.8.2), as in
  // MPICH and Open MPI: the root's codes go to all.
  if (o.ncodes > 0) {
    codes->resize(static_cast<std::size_t>(o.ncodes));
    bytes = codes->size() * sizeof(int);
    exchange::bcast(p, root, codes->data(), bytes, &bytes);
  }
  if (o.err != MPI_SUCCESS) {
    std::string why = o.why;
    if (comm.rank != root) why = "the root (rank " + std::to_string(root) + " of comm) could not spawn: " + why;
    return Made{o.err, why, MPI_COMM_NULL};
  }
  std::vector<int> children(static_cast<std::size_t>(o.size));
  std::vector<int> indices;
  std::string bind_error;
  if (two.on) {
    // The others bind the children (slots of the root's job), then every
    // member has opened the bridge and the root closes it.
    if (two.me >= 0) {
      OtherJob oj;
      std::vector<int> slots(static_cast<std::size_t>(o.size));
      for (int i = 0; i < o.size; ++i) slots[static_cast<std::size_t>(i)] = o.base + i;
      if (!other_job(comm.peer_world[static_cast<std::size_t>(root)], &oj))
        bind_error = "the root's job is not connected to this process any more";
      else
        bind_spawned(oj.job, 0, -1, o.bridge_pid, o.bridge_fd, true, two.me, slots, oj.base, &indices, &bind_error);
    }
    exchange::barrier(p);
    if (comm.rank == root) close(o.bridge_fd);
    if (!bind_error.empty()) {
      for (int i : indices) p2p::unbind_foreign(i);
      return Made{MPI_ERR_SPAWN, bind_error, MPI_COMM_NULL};
    }
  }
  const int first = two.me >= 0 ? p2p::foreign_base() + o.base : o.base;
  for (int i = 0; i < o.size; ++i) children[static_cast<std::size_t>(i)] = first + i;
  Made m = finish(make_inter(comm, comm.local->to_world_ranks(), std::move(children), comm.rank, true, slot));
  if (m.code == MPI_SUCCESS) keep_links(m.handle, std::move(indices));
  else for (int i : indices) p2p::unbind_foreign(i);
  p2p::oversubscribed_slow();  // more processes share the cores now
  return m;
}

bool attach_parent(std::string* why) {
  const char* env = std::getenv(shm::kEnvParent);
  if (!env || !*env) return true;
  // "slot:root:w0,w1,...": the context slot, the rank of the parents' root
  // and the parents' world ranks in parent comm rank order.
  char* end = nullptr;
  const long slot = std::strtol(env, &end, 10);
  long root = -1;
  bool ok = *end == ':' && slot >= 0 && slot < ContextPool::kSlots;
  if (ok) {
    const char* at = end + 1;
    root = std::strtol(at, &end, 10);
    ok = end != at && *end == ':' && root >= 0;
  }
  std::vector<int> parents;
  const int slots = core::rt().size;
  while (ok && *end) {
    const char* at = end + 1;
    const long w = std::strtol(at, &end, 10);
    // A parent of another job has its foreign index (p2p/foreign.hpp).
    const bool foreign = w >= p2p::foreign_base() && w < p2p::foreign_base() + p2p::foreign_room();
    ok = end != at && (*end == ',' || *end == '\0') && w >= 0 && (w < slots || foreign);
    if (ok) parents.push_back(static_cast<int>(w));
  }
  if (!ok || parents.empty() || root >= static_cast<long>(parents.size())) {
    *why = std::string("malformed ") + shm::kEnvParent + "='" + env + "' in the environment";
    return false;
  }
  const Comm& world = *lookup(MPI_COMM_WORLD);
  const int parent_root = parents[static_cast<std::size_t>(root)];
  // Parents of another job (a spawn from a communicator of two jobs): bind
  // them through the root's bridge before saying hello.
  std::vector<int> others, indices;
  for (int w : parents)
    if (w >= p2p::foreign_base()) others.push_back(w - p2p::foreign_base());
  if (!others.empty()) {
    JobsInfo info{};
    p2p::recv_internal(&info, sizeof info, static_cast<int>(root), exchange::kTagSpawnJobs,
                       ContextPool::context_of(static_cast<int>(slot)) + 1);
    info.job[sizeof info.job - 1] = '\0';
    if (!bind_spawned(info.job, info.root_pid, info.arena_fd, info.root_pid, info.bridge_fd, false, world.rank, others,
                      info.base, &indices, why))
      return false;
    exchange::barrier(peers_of(world));  // every child has opened the bridge before the root closes it
  }
  Made m = finish(make_inter(world, world.local->to_world_ranks(), std::move(parents), world.rank, false,
                             static_cast<int>(slot)));
  if (m.code != MPI_SUCCESS) {
    *why = m.why;
    return false;
  }
  keep_links(m.handle, std::move(indices));
  Comm* c = lookup(m.handle);
  c->name = "MPI_COMM_PARENT";  // the name MPICH and Open MPI give it
  state().parent = m.handle;
  if (world.rank == 0) {
    const Hello h{world.size()};
    p2p::send_internal(&h, sizeof h, parent_root, exchange::kTagSpawn, c->coll_context(), 0);
  }
  return true;
}

MPI_Comm parent() {
  const MPI_Comm h = state().parent;
  return h != MPI_COMM_NULL && lookup(h) ? h : MPI_COMM_NULL;
}

}  // namespace ringmpi::comm
