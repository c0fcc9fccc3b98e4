// Ports inside one job. A port name is "ringmpi-port:JOB:W:ID": the job
// (comm::job_name), the world rank W of the process that opened it, and the
// port's id (0..63) at that process; W is "slot.G" when the process is the
// G-th reuse of its slot (RankSlot::generation, launcher/slot_reuse.hpp),
// so that the name of an ended process never reaches the slot's next one. Open ports are published as bits of
// the owner's RankSlot::open_ports, so a connect can tell a closed port from
// one whose owner has not called MPI_Comm_accept yet.
//
// The roots' handshake runs on kPortContext (comm/context.hpp invariant 4),
// every message stamped with its sender's world rank:
//   connect root -> owner:  tag kPortTag - ID: Hello{err, size, mask, world ranks}
//   owner -> connect root:  tag kPortReplyTag:  Hello{err, size, slot, world ranks}
// The context is the lowest slot free in both groups (the AND of both
// groups' masks, as in MPI_Intercomm_create); each root then broadcasts the
// outcome to its group. An accept takes the oldest pending connect to its
// port (the p2p engine matches in arrival order); a connect to an open port
// waits until an accept takes it.
#include "comm/ports.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "comm/peers.hpp"
#include "comm/round.hpp"
#include "core/runtime.hpp"
#include "p2p/internal_transfer.hpp"

namespace ringmpi::comm {
namespace {

constexpr int kMaxPorts = 64;
constexpr int kPortTag = -1000;       // - id
constexpr int kPortReplyTag = -1100;

struct Hello {
  std::int32_t err;
  std::int32_t size;
  std::int32_t slot;  // reply: the context slot chosen
  ContextPool::Mask mask;
  // followed by `size` world ranks
};

struct Outcome {
  std::int32_t err;
  std::int32_t slot;
  std::int32_t remote_size;
  char why[400];
  // followed by remote_size world ranks
};

struct Port {
  std::string job;
  int owner = -1;
  std::uint32_t generation = 0;
  int id = -1;
};

bool parse(const std::string& name, Port* p) {
  static const std::string prefix = "ringmpi-port:";
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  const std::size_t a = name.find(':', prefix.size());
  if (a == std::string::npos) return false;
  const std::size_t b = name.find(':', a + 1);
  if (b == std::string::npos) return false;
  p->job = name.substr(prefix.size(), a - prefix.size());
  char* end;
  const long owner = std::strtol(name.c_str() + a + 1, &end, 10);
  if (end == name.c_str() + a + 1) return false;
  if (*end == '.') {
    const char* g = end + 1;
    const unsigned long gen = std::strtoul(g, &end, 10);
    if (end == g || gen > 0xFFFFFFFFul) return false;
    p->generation = static_cast<std::uint32_t>(gen);
  }
  if (end != name.c_str() + b) return false;
  const long id = std::strtol(name.c_str() + b + 1, &end, 10);
  if (*end != '\0' || owner < 0 || id < 0 || id >= kMaxPorts || end == name.c_str() + b + 1) return false;
  p->owner = static_cast<int>(owner);
  p->id = static_cast<int>(id);
  return true;
}

std::vector<std::byte> pack(const void* head, std::size_t bytes, const std::vector<int>& ranks) {
  std::vector<std::byte> b(bytes + ranks.size() * sizeof(int));
  std::memcpy(b.data(), head, bytes);
  if (!ranks.empty()) std::memcpy(b.data() + bytes, ranks.data(), ranks.size() * sizeof(int));
  return b;
}

// Checks a port name for the connecting or accepting root: MPI_SUCCESS or
// the class with *why.
int check_port(const std::string& name, bool mine, Port* p, std::string* why) {
  if (!parse(name, p)) {
    *why = "port_name '" + name + "' is not a port name of ringmpi (ringmpi-port:JOB:RANK:ID, from MPI_Open_port)";
    return MPI_ERR_PORT;
  }
  if (p->job != job_name()) {
    *why = "port_name '" + name + "' belongs to another ringmpi job (another mpiexec run); connecting jobs of "
           "separate mpiexec runs is not supported";
    return MPI_ERR_PORT;
  }
  const core::Runtime& rt = core::rt();
  if (mine && p->owner != rt.rank) {
    *why = "port_name '" + name + "' was opened by another process (world rank " + std::to_string(p->owner) +
           "); only the process that opened a port can accept on it";
    return MPI_ERR_PORT;
  }
  if (p->owner >= static_cast<int>(rt.arena.header().started.load(std::memory_order_acquire))) {
    *why = "port_name '" + name + "' names a process that does not exist";
    return MPI_ERR_PORT;
  }
  const shm::RankSlot& owner = rt.arena.slot(static_cast<std::uint32_t>(p->owner));
  const std::uint64_t open = owner.open_ports.load(std::memory_order_acquire);
  if (owner.generation.load(std::memory_order_relaxed) != p->generation || !((open >> p->id) & 1u)) {
    *why = "port_name '" + name + "' is not open (closed with MPI_Close_port, or its process has ended)";
    return MPI_ERR_PORT;
  }
  return MPI_SUCCESS;
}

// Both sides after their root's handshake: bcast the outcome, build the
// intercommunicator.
Made finish_side(const Comm& comm, int root, const exchange::Peers& p, Outcome o, std::vector<int> remote,
                 bool local_first, const char* what) {
  std::vector<std::byte> buf;
  if (comm.rank == root) buf = pack(&o, sizeof o, remote);
  else buf.resize(sizeof o + std::size_t(core::rt().size) * sizeof(int));
  std::size_t bytes = buf.size();
  exchange::bcast(p, root, buf.data(), buf.size(), &bytes);
  if (comm.rank != root) {
    std::memcpy(&o, buf.data(), sizeof o);
    if (o.err == MPI_SUCCESS) {
      remote.resize(static_cast<std::size_t>(o.remote_size));
      std::memcpy(remote.data(), buf.data() + sizeof o, remote.size() * sizeof(int));
    }
  }
  if (o.err != MPI_SUCCESS) {
    std::string why = o.why;
    if (comm.rank != root) why = std::string("the root (rank ") + std::to_string(root) + " of comm) could not " + what + ": " + why;
    return Made{o.err, why, MPI_COMM_NULL};
  }
  return finish(make_inter(comm, comm.local->to_world_ranks(), std::move(remote), comm.rank, local_first, o.slot));
}

void say(Outcome* o, int err, const std::string& why) {
  o->err = err;
  std::snprintf(o->why, sizeof o->why, "%s", why.c_str());
}

}  // namespace

std::string job_name() {
  static std::string name = [] {
    const char* n = std::getenv(shm::kEnvLauncher);
    if (n && *n) return std::string(n);
    std::uint64_t nonce = 0;
    if (getrandom(&nonce, sizeof nonce, 0) != static_cast<ssize_t>(sizeof nonce)) nonce = 0;
    char text[64];
    std::snprintf(text, sizeof text, "singleton-%d-%016llx", static_cast<int>(getpid()),
                  static_cast<unsigned long long>(nonce));
    return std::string(text);
  }();
  return name;
}

std::string open_port() {
  core::Runtime& rt = core::rt();
  std::atomic<std::uint64_t>& open = rt.arena.slot(static_cast<std::uint32_t>(rt.rank)).open_ports;
  // Ids in turn (a closed one is reused last), so a stale name rarely
  // reaches a newer port.
  static int next = 0;
  const std::uint64_t now = open.load(std::memory_order_relaxed);
  for (int k = 0; k < kMaxPorts; ++k) {
    const int id = (next + k) % kMaxPorts;
    if ((now >> id) & 1u) continue;
    open.store(now | (std::uint64_t{1} << id), std::memory_order_release);
    next = id + 1;
    const std::uint32_t gen = rt.arena.slot(static_cast<std::uint32_t>(rt.rank)).generation.load(std::memory_order_relaxed);
    return "ringmpi-port:" + job_name() + ":" + std::to_string(rt.rank) + (gen ? "." + std::to_string(gen) : "") +
           ":" + std::to_string(id);
  }
  return {};
}

int close_port(const std::string& name, std::string* why) {
  Port p;
  if (int e = check_port(name, true, &p, why)) return e;
  std::atomic<std::uint64_t>& open = core::rt().arena.slot(static_cast<std::uint32_t>(p.owner)).open_ports;
  open.store(open.load(std::memory_order_relaxed) & ~(std::uint64_t{1} << p.id), std::memory_order_release);
  return MPI_SUCCESS;
}

Made accept(const Comm& comm, int root, const std::string& port, const LocalError& local) {
  const exchange::Peers p = peers_of(comm);
  Round r;
  Made out;
  if (root_round(p, root, local, "", &r, &out)) return out;
  Outcome o{};
  std::vector<int> remote;
  if (comm.rank == root) {
    Port pt;
    std::string why;
    if (int err = check_port(port, true, &pt, &why)) {
      say(&o, err, why);
    } else {
      const int me = core::rt().rank;
      std::vector<std::byte> in(sizeof(Hello) + std::size_t(core::rt().size) * sizeof(int));
      int from = -1;
      const std::size_t got =
          p2p::recv_internal(in.data(), in.size(), MPI_ANY_SOURCE, kPortTag - pt.id, kPortContext, &from);
      Hello theirs;
      std::memcpy(&theirs, in.data(), sizeof theirs);
      Hello reply{};
      if (got < sizeof theirs || theirs.size < 0 || got != sizeof theirs + std::size_t(theirs.size) * sizeof(int)) {
        say(&o, MPI_ERR_INTERN, "a malformed connect request reached the port");
        reply.err = MPI_ERR_INTERN;
      } else {
        remote.resize(static_cast<std::size_t>(theirs.size));
        std::memcpy(remote.data(), in.data() + sizeof theirs, remote.size() * sizeof(int));
        ContextPool::Mask both;
        for (int w = 0; w < ContextPool::kWords; ++w) both[w] = r.mask[w] & theirs.mask[w];
        o.slot = ContextPool::lowest(both);
        o.remote_size = theirs.size;
        bool overlap = false;
        for (int w : remote) overlap = overlap || comm.local->rank_of_world(w) != MPI_UNDEFINED;
        if (theirs.err != MPI_SUCCESS) say(&o, theirs.err, "the connecting group failed (see its message)");
        else if (overlap) say(&o, MPI_ERR_PORT, "a process is in both the accepting and the connecting group");
        else if (o.slot < 0) say(&o, MPI_ERR_INTERN, "no context id is free in both groups");
        reply.err = o.err == MPI_SUCCESS ? MPI_SUCCESS : (theirs.err != MPI_SUCCESS ? theirs.err : o.err);
      }
      reply.slot = o.slot;
      reply.size = comm.size();
      const std::vector<std::byte> msg = pack(&reply, sizeof reply, comm.local->to_world_ranks());
      if (from >= 0) p2p::send_internal(msg.data(), msg.size(), from, kPortReplyTag, kPortContext, me);
    }
  }
  return finish_side(comm, root, p, o, std::move(remote), true, "accept");
}

Made connect(const Comm& comm, int root, const std::string& port, const LocalError& local) {
  const exchange::Peers p = peers_of(comm);
  Round r;
  Made out;
  if (root_round(p, root, local, "", &r, &out)) return out;
  Outcome o{};
  std::vector<int> remote;
  if (comm.rank == root) {
    Port pt;
    std::string why;
    if (int err = check_port(port, false, &pt, &why)) {
      say(&o, err, why);
    } else if (comm.local->rank_of_world(pt.owner) != MPI_UNDEFINED) {
      say(&o, MPI_ERR_PORT, "port_name '" + port + "' belongs to a process of comm itself; the accepting and the "
                            "connecting group must be disjoint");
    } else {
      const int me = core::rt().rank;
      Hello mine{};
      mine.err = MPI_SUCCESS;
      mine.size = comm.size();
      mine.mask = r.mask;
      const std::vector<std::byte> msg = pack(&mine, sizeof mine, comm.local->to_world_ranks());
      p2p::send_internal(msg.data(), msg.size(), pt.owner, kPortTag - pt.id, kPortContext, me);
      std::vector<std::byte> in(sizeof(Hello) + std::size_t(core::rt().size) * sizeof(int));
      const std::size_t got = p2p::recv_internal(in.data(), in.size(), pt.owner, kPortReplyTag, kPortContext);
      Hello theirs;
      std::memcpy(&theirs, in.data(), sizeof theirs);
      if (got < sizeof theirs || theirs.size < 0 || got != sizeof theirs + std::size_t(theirs.size) * sizeof(int)) {
        say(&o, MPI_ERR_INTERN, "the accepting root's reply is malformed");
      } else if (theirs.err != MPI_SUCCESS) {
        say(&o, theirs.err, "the accepting side failed (see its message)");
      } else {
        remote.resize(static_cast<std::size_t>(theirs.size));
        std::memcpy(remote.data(), in.data() + sizeof theirs, remote.size() * sizeof(int));
        o.err = MPI_SUCCESS;
        o.slot = theirs.slot;
        o.remote_size = theirs.size;
      }
    }
  }
  return finish_side(comm, root, p, o, std::move(remote), false, "connect");
}

}  // namespace ringmpi::comm
