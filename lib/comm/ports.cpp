// Ports, inside one job and between two jobs of separate mpiexec runs
// (the latter: "Connecting two jobs" in docs/design/dynamic-processes.md,
// and accept_foreign/connect_foreign/bind_job below). A port name is "ringmpi-port:JOB:W:ID": the job
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
//
// Another job's connect comes over the port's own abstract socket instead
// (both roots check the peer's uid): JobHello one way with the connecting
// job's arena, JobHello back with the accepting job's arena and the bridge
// (SCM_RIGHTS); each root broadcasts an Outcome that tells its members where
// to open them (/proc/<root pid>/fd/<n>), every member binds the other
// group's processes in p2p (p2p/foreign.hpp), and a barrier lets the roots
// close their descriptors.
#include "comm/ports.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <thread>

#include "comm/peers.hpp"
#include "comm/round.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/foreign.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/wait.hpp"
#include "shm/arena.hpp"
#include "shm/bridge.hpp"

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
  // Another job (all zero inside one job): where the members find the
  // memory (the root's descriptors, /proc/<root_pid>/fd/<n>).
  std::int32_t foreign;  // 1: the remote group is of another job
  std::int32_t accepting;
  std::int32_t root_pid, arena_fd, bridge_fd;
  std::int32_t remote_base;  // the other job's foreign_base()
  char job[128];             // the other job's name
  // followed by remote_size world ranks
};

// The cross-job handshake of the roots over the port's socket
// (docs/design/dynamic-processes.md, "Connecting two jobs").
struct JobHello {
  char magic[8];  // "RMPICONN"
  std::int32_t err;
  std::int32_t size;
  std::int32_t slot;  // reply: the context slot chosen
  std::int32_t port_id;
  std::uint32_t generation;
  std::int32_t base;  // the sender's foreign_base()
  std::int32_t room;  // the sender's foreign_room()
  std::uint64_t ring_capacity;
  ContextPool::Mask mask;
  char job[128];
  char why[240];
  // followed by `size` world ranks (the sender's job's slots)
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


// One listening socket per open port (abstract name: the port's job, owner
// and id), so that a process of another job can reach the accepting root.
// Abstract names have no permissions: the accepting root checks the
// connecting peer's uid (SO_PEERCRED), and the connecting root the owner's.
std::map<int, int> g_listeners;  // port id -> socket

std::string socket_name(const Port& p) {
  return "ringmpi-port." + p.job + "." + std::to_string(p.owner) + "." + std::to_string(p.generation) + "." +
         std::to_string(p.id);
}

socklen_t address_of(const std::string& name, sockaddr_un* a) {
  std::memset(a, 0, sizeof *a);
  a->sun_family = AF_UNIX;
  const std::size_t n = std::min(name.size(), sizeof a->sun_path - 1);
  std::memcpy(a->sun_path + 1, name.data(), n);
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
}

bool same_user(int fd) {
  ucred cred{};
  socklen_t len = sizeof cred;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == geteuid();
}

bool send_with_fds(int sock, const std::vector<std::byte>& msg, const int* fds, int nfds) {
  iovec iov{const_cast<std::byte*>(msg.data()), msg.size()};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  if (nfds > 0) {
    m.msg_control = control;
    m.msg_controllen = CMSG_SPACE(static_cast<std::size_t>(nfds) * sizeof(int));
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(static_cast<std::size_t>(nfds) * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds, static_cast<std::size_t>(nfds) * sizeof(int));
  }
  return sendmsg(sock, &m, MSG_NOSIGNAL) == static_cast<ssize_t>(msg.size());
}

// One message and up to two descriptors (-1 where none came); the byte count or -1.
ssize_t recv_with_fds(int sock, std::vector<std::byte>* msg, int fds[2]) {
  fds[0] = fds[1] = -1;
  iovec iov{msg->data(), msg->size()};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  const ssize_t n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); n >= 0 && c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < k; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (i < 2) fds[i] = fd;
      else close(fd);
    }
  }
  return n;
}

// The group's exchanges of an accept or connect (before and after the
// roots' handshake) watch for a process queued on the waiter's core
// (p2p/foreign.hpp, watch_queued): each job counts a core per process, but
// the two jobs' processes and the machine's other work may share one (at
// 2 + 2 on 2 cores under load, all four were seen on one core, each
// member's 2 ms spin delaying the next: connects of 4-12 ms). Not around
// the roots' waits on the socket: those yield at every check anyway, and a
// spin that ended early would sleep before their LazyWaker's thread exists.
class Watch {
 public:
  Watch() { p2p::watch_queued(1); }
  ~Watch() { p2p::watch_queued(-1); }
  Watch(const Watch&) = delete;
  Watch& operator=(const Watch&) = delete;
};

// For the calling thread while it lives: the shortest time slice the
// scheduler grants (sched_attr.sched_runtime of SCHED_OTHER, 100 us; Linux
// 6.12 and later; unprivileged), so that its wake-ups preempt a task in the
// middle of its slice instead of queueing behind it. Every process of an
// accept or connect holds one for the call: the handshake is a chain of
// wake-ups (the accepting root asleep in its wait, its socket thread, the
// members woken by their root's broadcast), and on a loaded machine each
// could wait out another task's slice, 1-4 ms (a sleeper woken by a pipe
// under load average 11: 14 us median either way, at most 1-4 ms with the
// default slice, 60 us with this one). Restores the slice it found; does
// nothing where the kernel refuses.
class ShortSlice {
  struct Attr {  // struct sched_attr of <linux/sched/types.h> (which clashes with <sched.h>'s sched_param)
    std::uint32_t size = sizeof(Attr);
    std::uint32_t sched_policy = 0;
    std::uint64_t sched_flags = 0;
    std::int32_t sched_nice = 0;
    std::uint32_t sched_priority = 0;
    std::uint64_t sched_runtime = 0, sched_deadline = 0, sched_period = 0;
    std::uint32_t sched_util_min = 0, sched_util_max = 0;
  };

 public:
  ShortSlice() {
    Attr a;
    if (syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) != 0 || a.sched_policy != SCHED_OTHER) return;
    saved_ = a;
    a.sched_runtime = 100'000;
    set_ = a.sched_runtime != saved_.sched_runtime && syscall(SYS_sched_setattr, 0, &a, 0) == 0;
  }
  ~ShortSlice() {
    if (set_ && syscall(SYS_sched_setattr, 0, &saved_, 0) != 0) {
    }
  }
  ShortSlice(const ShortSlice&) = delete;
  ShortSlice& operator=(const ShortSlice&) = delete;

 private:
  Attr saved_;
  bool set_ = false;
};

// While a root waits for another job on socket `fd` (an accept's listener,
// a connect's answer), a helper thread blocked in poll() rings the root's
// own doorbell when the socket becomes readable, so a root asleep in its
// wait (50 ms futex timeouts) wakes at once. It touches nothing but the
// doorbell (p2p::ring_doorbell) and ends with the wait.
class SocketWaker {
 public:
  explicit SocketWaker(int fd) {
    if (fd < 0 || pipe2(stop_, O_CLOEXEC) != 0) return;
    const int stop = stop_[0];
    const int me = core::rt().rank;
    thread_ = std::thread([fd, stop, me] {
      const ShortSlice quick;  // its wake-up starts the chain (ShortSlice)
      pollfd p[2] = {{fd, POLLIN, 0}, {stop, POLLIN, 0}};
      while (poll(p, 2, -1) < 0 && errno == EINTR) {
      }
      if (p[0].revents) p2p::ring_doorbell(me);
    });
  }
  ~SocketWaker() {
    if (!thread_.joinable()) return;
    const char x = 0;
    if (write(stop_[1], &x, 1) < 0) {
    }
    thread_.join();
    close(stop_[0]);
    close(stop_[1]);
  }
  SocketWaker(const SocketWaker&) = delete;
  SocketWaker& operator=(const SocketWaker&) = delete;

 private:
  int stop_[2] = {-1, -1};
  std::thread thread_;
};

// A SocketWaker for fd once a wait has lasted 1 ms (a thread costs more
// than a wait answered at once); call from the wait's predicate. The waiter
// must not go to sleep before the thread exists: with a core per process
// it spins 2 ms first (p2p/wait.cpp), but oversubscribed it spins not at
// all and sleeps after its yield window (200 us or more, RINGMPI_YIELD_US
// may make it 0), so there the thread starts at once. (It started after
// 1 ms there too, and such a root slept a whole 50 ms timeout: a connect
// to a waiting accept at 3+3 ranks on 2 cores took 30-50 ms.) While
// another job's processes are bound, the spin may also end after 50 us
// (a bound process queued on this core: p2p/wait.cpp, peer_queued_here), so
// the thread starts at once there too.
class LazyWaker {
 public:
  explicit LazyWaker(int fd)
      : fd_(fd), start_(now_ns()), delay_ns_(p2p::oversubscribed() || p2p::foreign_bound() ? 0 : 1'000'000) {}
  void tick() {
    if (!waker_ && fd_ >= 0 && now_ns() - start_ >= delay_ns_) waker_.emplace(fd_);
  }

 private:
  static std::uint64_t now_ns() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return std::uint64_t(t.tv_sec) * 1'000'000'000u + std::uint64_t(t.tv_nsec);
  }
  int fd_;
  std::uint64_t start_;
  std::uint64_t delay_ns_;
  std::optional<SocketWaker> waker_;
};

// The most world ranks a group may name here: this job's slots and the
// indices of another job's processes (p2p/foreign.hpp).
std::size_t max_world() { return static_cast<std::size_t>(p2p::foreign_base() + p2p::foreign_room()); }

// Other jobs' arenas, mapped once per job (kept until exit: p2p tables point
// into them), and the bridges of this process's connections.
std::map<std::string, shm::Arena> g_arenas;
std::deque<shm::Bridge> g_bridges;
std::map<std::string, int> g_arena_fds;  // a descriptor of each arena in g_arenas (kept open)
// Foreign indices bound by each intercommunicator of accept/connect.
std::map<MPI_Comm, std::vector<int>> g_links;

JobHello hello_of(const Comm& comm, const Round& r, int err, int slot) {
  JobHello h{};
  std::memcpy(h.magic, "RMPICONN", 8);
  h.err = err;
  h.size = comm.size();
  h.slot = slot;
  h.base = p2p::foreign_base();
  h.room = p2p::foreign_room();
  h.ring_capacity = core::rt().arena.header().ring_capacity;
  h.mask = r.mask;
  std::snprintf(h.job, sizeof h.job, "%s", job_name().c_str());
  return h;
}

// Parses a JobHello with its ranks; false when malformed.
bool read_hello(const std::vector<std::byte>& in, ssize_t got, JobHello* h, std::vector<int>* ranks) {
  if (got < static_cast<ssize_t>(sizeof *h)) return false;
  std::memcpy(h, in.data(), sizeof *h);
  h->job[sizeof h->job - 1] = '\0';
  h->why[sizeof h->why - 1] = '\0';
  if (std::memcmp(h->magic, "RMPICONN", 8) != 0 || h->size < 0 ||
      static_cast<std::size_t>(got) != sizeof *h + std::size_t(h->size) * sizeof(int))
    return false;
  ranks->resize(static_cast<std::size_t>(h->size));
  std::memcpy(ranks->data(), in.data() + sizeof *h, ranks->size() * sizeof(int));
  return true;
}

// Whether every process of `ranks` (slots of a job) fits below `room`.
bool fits(const std::vector<int>& ranks, int room) {
  return std::all_of(ranks.begin(), ranks.end(), [room](int w) { return w >= 0 && w < room; });
}

// Checks a port name for the connecting or accepting root: MPI_SUCCESS or
// the class with *why.
int check_port(const std::string& name, bool mine, Port* p, std::string* why) {
  if (!parse(name, p)) {
    *why = "port_name '" + name + "' is not a port name of ringmpi (ringmpi-port:JOB:RANK:ID, from MPI_Open_port)";
    return MPI_ERR_PORT;
  }
  if (p->job != job_name()) {
    if (!mine) return MPI_SUCCESS;  // another job's port: its socket says whether it is open
    *why = "port_name '" + name + "' belongs to another ringmpi job (another mpiexec run); only the process that "
           "opened a port can accept on it";
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

// A descriptor for /proc/<pid>/fd/<n>: n itself when pid is this process
// (*own set), else opened (the kernel allows it to the same user only).
int open_of(int pid, int n, bool* own, std::string* err) {
  *own = pid == getpid();
  if (*own) return n;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, n);
  const int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    *err = std::string("cannot open the memory shared with the other job (") + path + "): " + std::strerror(errno);
  return fd;
}

// Binds the processes `remote` (slots of job `job`) to this process:
// maps that job's arena (once per job; its descriptor is kept, so that a
// spawn from a communicator of both jobs can hand it to the children,
// comm/dynamic.cpp) from /proc/<arena_pid>/fd/<arena_fd>, and the bridge
// from /proc/<bridge_pid>/fd/<bridge_fd>, and points p2p's tables at them
// (p2p/foreign.hpp). This process is member `me` of the bridge's accepting
// side (a_side) or of its connecting side; remote_base is the other job's
// foreign_base().
bool bind_through(const std::string& job, int arena_pid, int arena_fd, int bridge_pid, int bridge_fd, bool a_side,
                  std::uint32_t me, const std::vector<int>& remote, int remote_base, std::vector<int>* indices,
                  std::string* err) {
  bool own = false;
  auto it = g_arenas.find(job);
  if (it == g_arenas.end()) {
    int fd = open_of(arena_pid, arena_fd, &own, err);
    if (fd < 0) return false;
    shm::Arena a = shm::Arena::map(fd, err);
    if (own) fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);  // the caller closes its own
    if (!a.mapped()) {
      if (fd >= 0) close(fd);
      return false;
    }
    it = g_arenas.emplace(job, std::move(a)).first;
    g_arena_fds[job] = fd;
  }
  const shm::Arena& arena = it->second;
  const int fd = open_of(bridge_pid, bridge_fd, &own, err);
  if (fd < 0) return false;
  shm::Bridge b;
  const bool ok = b.map(fd, err);
  if (!own) close(fd);
  if (!ok) return false;
  g_bridges.push_back(b);
  const int my_slot = core::rt().rank;
  for (std::size_t j = 0; j < remote.size(); ++j) {
    const auto jj = static_cast<std::uint32_t>(j);
    const int w = remote[j];
    p2p::ForeignPeer fp;
    fp.out_ring = a_side ? b.ring_a_to_b(me, jj) : b.ring_b_to_a(me, jj);
    fp.in_ring = a_side ? b.ring_b_to_a(jj, me) : b.ring_a_to_b(jj, me);
    fp.capacity = b.header().ring_capacity;
    fp.their_pending_word = arena.pending(static_cast<std::uint32_t>(w)) + (remote_base + my_slot) / 64;
    fp.slot = &arena.slot(static_cast<std::uint32_t>(w));
    fp.label = "process " + std::to_string(w) + " of job " + job;
    fp.job = job;
    const int index = p2p::foreign_base() + w;
    if (!p2p::bind_foreign(index, fp)) {
      // The other members may have bound already: no error can be returned
      // consistently, so the job ends (the other job then sees it end).
      char line[400];
      std::snprintf(line, sizeof line,
                    "rank %d: cannot connect to process %d of job %s: this process is connected to a process with "
                    "the same slot of another job still (not supported: disconnect first)",
                    core::rt().rank, w, job.c_str());
      std::fprintf(stderr, "ringmpi: %s\n", line);
      core::abort_job(shm::ExitKind::fatal_error, 1, line);
    }
    indices->push_back(index);
  }
  return true;
}

// Binds every process of the remote group (another job) of an accept or
// connect, from the root's descriptors.
bool bind_job(const Comm& comm, const Outcome& o, const std::vector<int>& remote, std::vector<int>* indices,
              std::string* err) {
  return bind_through(o.job, o.root_pid, o.arena_fd, o.root_pid, o.bridge_fd, o.accepting != 0,
                      static_cast<std::uint32_t>(comm.rank), remote, o.remote_base, indices, err);
}

// Both sides after their root's handshake: bcast the outcome, build the
// intercommunicator.
Made finish_side(const Comm& comm, int root, const exchange::Peers& p, Outcome o, std::vector<int> remote,
                 bool local_first, const char* what) {
  const Watch watch;
  std::vector<std::byte> buf;
  if (comm.rank == root) buf = pack(&o, sizeof o, remote);
  else buf.resize(sizeof o + max_world() * sizeof(int));
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
  std::vector<int> indices;
  if (o.foreign) {
    o.job[sizeof o.job - 1] = '\0';
    std::string err;
    const bool bound = bind_job(comm, o, remote, &indices, &err);
    exchange::barrier(p);  // every member has opened the root's descriptors
    if (comm.rank == root) {
      close(o.arena_fd);
      close(o.bridge_fd);
    }
    if (!bound) {
      for (int i : indices) p2p::unbind_foreign(i);
      return Made{MPI_ERR_OTHER, err, MPI_COMM_NULL};
    }
    for (int& w : remote) w += p2p::foreign_base();
  }
  Made m = finish(make_inter(comm, comm.local->to_world_ranks(), std::move(remote), comm.rank, local_first, o.slot));
  if (o.foreign) {
    if (m.code == MPI_SUCCESS) g_links[m.handle] = std::move(indices);
    else for (int i : indices) p2p::unbind_foreign(i);
  }
  return m;
}

void say(Outcome* o, int err, const std::string& why) {
  o->err = err;
  std::snprintf(o->why, sizeof o->why, "%s", why.c_str());
}

std::vector<std::byte> pack_hello(const JobHello& h, const Comm& comm) {
  return pack(&h, sizeof h, comm.local->to_world_ranks());
}

// The accepting root: a process connected to the port's socket. True when
// it was a connect this accept answers (*o, *remote filled, maybe with an
// error); false when it was refused or not a ringmpi connect (wait on).
bool accept_foreign(const Comm& comm, const Round& r, const Port& pt, int lsock, Outcome* o, std::vector<int>* remote) {
  const int c = accept4(lsock, nullptr, nullptr, SOCK_CLOEXEC);
  if (c < 0) return false;
  JobHello reply = hello_of(comm, r, MPI_SUCCESS, -1);
  if (!same_user(c)) {
    reply.err = MPI_ERR_PORT;
    std::snprintf(reply.why, sizeof reply.why, "the port's process refused a process of another user");
    send_with_fds(c, pack_hello(reply, comm), nullptr, 0);
    close(c);
    return false;
  }
  std::vector<std::byte> in(sizeof(JobHello) + std::size_t(shm::kForeignRoom) * sizeof(int));
  int fds[2] = {-1, -1};
  pollfd pf{c, POLLIN, 0};
  const ssize_t got = poll(&pf, 1, 5000) > 0 ? recv_with_fds(c, &in, fds) : -1;
  if (fds[1] >= 0) close(fds[1]);
  JobHello theirs{};
  std::vector<int> ranks;
  if (!read_hello(in, got, &theirs, &ranks) || fds[0] < 0) {
    if (fds[0] >= 0) close(fds[0]);
    close(c);
    return false;
  }
  ContextPool::Mask both;
  for (int w = 0; w < ContextPool::kWords; ++w) both[w] = r.mask[w] & theirs.mask[w];
  o->slot = ContextPool::lowest(both);
  o->remote_size = theirs.size;
  o->err = MPI_SUCCESS;
  int bridge = -1;
  std::string why;
  if (theirs.err != MPI_SUCCESS) {
    say(o, theirs.err, "the connecting group failed (see its message)");
  } else if (theirs.port_id != pt.id || theirs.generation != pt.generation) {
    say(o, MPI_ERR_PORT, "a connect for another port reached this port's socket");
  } else if (!fits(ranks, p2p::foreign_room()) || !fits(comm.local->to_world_ranks(), theirs.room)) {
    say(o, MPI_ERR_OTHER, "a process of one job has a slot beyond the " + std::to_string(shm::kForeignRoom) +
                              " that the other job has room for (shm/bridge.hpp, kForeignRoom)");
  } else if (o->slot < 0) {
    say(o, MPI_ERR_INTERN, "no context id is free in both groups");
  } else if ((bridge = shm::Bridge::create(static_cast<std::uint32_t>(comm.size()), static_cast<std::uint32_t>(theirs.size),
                                           std::max(theirs.ring_capacity, core::rt().arena.header().ring_capacity),
                                           &why)) < 0) {
    say(o, MPI_ERR_OTHER, why);
  }
  reply.err = o->err;
  reply.slot = o->slot;
  const std::size_t n = std::min(std::strlen(o->why), sizeof reply.why - 1);
  std::memcpy(reply.why, o->why, n);
  reply.why[n] = '\0';
  const int mine[2] = {shm::own_arena_fd(), bridge};
  const bool sent = send_with_fds(c, pack_hello(reply, comm), mine, o->err == MPI_SUCCESS ? 2 : 0);
  close(c);
  if (o->err == MPI_SUCCESS && !sent) {
    say(o, MPI_ERR_PORT, "the connecting process of job " + std::string(theirs.job) + " went away during the handshake");
  }
  if (o->err != MPI_SUCCESS) {
    close(fds[0]);
    if (bridge >= 0) close(bridge);
    return true;
  }
  o->foreign = 1;
  o->accepting = 1;
  o->root_pid = getpid();
  o->arena_fd = fds[0];
  o->bridge_fd = bridge;
  o->remote_base = theirs.base;
  std::snprintf(o->job, sizeof o->job, "%s", theirs.job);
  *remote = std::move(ranks);
  return true;
}

// The connecting root, for a port of another job.
void connect_foreign(const Comm& comm, const Round& r, const Port& pt, const std::string& port, Outcome* o,
                     std::vector<int>* remote) {
  const int c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un a;
  const socklen_t len = address_of(socket_name(pt), &a);
  if (c < 0 || connect(c, reinterpret_cast<const sockaddr*>(&a), len) != 0) {
    say(o, MPI_ERR_PORT, "port_name '" + port + "' is not open (closed with MPI_Close_port, or its job has ended)");
    if (c >= 0) close(c);
    return;
  }
  if (!same_user(c)) {
    say(o, MPI_ERR_PORT, "port_name '" + port + "' belongs to a process of another user");
    close(c);
    return;
  }
  JobHello mine = hello_of(comm, r, MPI_SUCCESS, -1);
  mine.port_id = pt.id;
  mine.generation = pt.generation;
  const int fd = shm::own_arena_fd();
  if (!send_with_fds(c, pack_hello(mine, comm), &fd, 1)) {
    say(o, MPI_ERR_PORT, "port_name '" + port + "': its process went away during the handshake");
    close(c);
    return;
  }
  // An owner asleep in MPI_Comm_accept is woken by its socket thread
  // (SocketWaker); when this process has mapped the owner's job's arena
  // already (an earlier connection), it rings the owner's doorbell itself,
  // one wake-up fewer (a spurious wake, harmless, if the slot's process is
  // not the port's owner or not in accept).
  if (auto it = g_arenas.find(pt.job); it != g_arenas.end() && pt.owner >= 0 &&
                                       static_cast<std::uint32_t>(pt.owner) < it->second.header().nranks) {
    p2p::ring_doorbell(it->second.slot(static_cast<std::uint32_t>(pt.owner)));
  }
  // The owner answers once it is in MPI_Comm_accept: progress meanwhile.
  p2p::hold_foreign(1);
  {
    LazyWaker waker(c);
    p2p::wait_until([c, &waker] {
      pollfd pf{c, POLLIN, 0};
      if (poll(&pf, 1, 0) > 0) return true;
      waker.tick();
      sched_yield();  // the answer needs the other job's root on a core: never hold one from it
      return false;
    });
  }
  p2p::hold_foreign(-1);
  std::vector<std::byte> in(sizeof(JobHello) + std::size_t(shm::kForeignRoom) * sizeof(int));
  int fds[2] = {-1, -1};
  const ssize_t got = recv_with_fds(c, &in, fds);
  close(c);
  JobHello theirs{};
  std::vector<int> ranks;
  if (got <= 0) {
    say(o, MPI_ERR_PORT, "port_name '" + port + "': its process ended before it accepted the connection");
  } else if (!read_hello(in, got, &theirs, &ranks)) {
    say(o, MPI_ERR_INTERN, "the accepting root's reply is malformed");
  } else if (theirs.err != MPI_SUCCESS) {
    say(o, theirs.err, std::string("the accepting side failed: ") + theirs.why);
  } else if (fds[0] < 0 || fds[1] < 0) {
    say(o, MPI_ERR_INTERN, "the accepting root's reply came without its memory");
  } else {
    o->err = MPI_SUCCESS;
    o->slot = theirs.slot;
    o->remote_size = theirs.size;
    o->foreign = 1;
    o->accepting = 0;
    o->root_pid = getpid();
    o->arena_fd = fds[0];
    o->bridge_fd = fds[1];
    o->remote_base = theirs.base;
    std::snprintf(o->job, sizeof o->job, "%s", theirs.job);
    *remote = std::move(ranks);
    return;
  }
  for (int f : fds)
    if (f >= 0) close(f);
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
    // The socket a process of another job connects to (without it the port
    // still works inside this job).
    const int l = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un a;
    const socklen_t len = address_of(socket_name(Port{job_name(), rt.rank, gen, id}), &a);
    if (l >= 0 && bind(l, reinterpret_cast<const sockaddr*>(&a), len) == 0 && listen(l, 16) == 0) {
      g_listeners[id] = l;
    } else if (l >= 0) {
      close(l);
    }
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
  if (auto it = g_listeners.find(p.id); it != g_listeners.end()) {
    close(it->second);
    g_listeners.erase(it);
  }
  return MPI_SUCCESS;
}

bool other_job(int index, OtherJob* out) {
  out->job = p2p::foreign_job(index);
  const auto a = g_arenas.find(out->job);
  const auto f = g_arena_fds.find(out->job);
  if (out->job.empty() || a == g_arenas.end() || f == g_arena_fds.end() || f->second < 0) return false;
  const shm::ArenaHeader& h = a->second.header();
  out->arena_fd = f->second;
  out->base = static_cast<int>((h.nranks + 63) / 64 * 64);
  out->room = static_cast<int>(h.pending_stride * 8) - out->base;
  out->ring_capacity = h.ring_capacity;
  return true;
}

bool bind_spawned(const std::string& job, int arena_pid, int arena_fd, int bridge_pid, int bridge_fd, bool a_side,
                  int me, const std::vector<int>& remote, int remote_base, std::vector<int>* indices,
                  std::string* err) {
  return bind_through(job, arena_pid, arena_fd, bridge_pid, bridge_fd, a_side, static_cast<std::uint32_t>(me), remote,
                      remote_base, indices, err);
}

void keep_links(MPI_Comm h, std::vector<int> indices) {
  if (!indices.empty()) g_links[h] = std::move(indices);
}

void drop_links(MPI_Comm h) {
  auto it = g_links.find(h);
  if (it == g_links.end()) return;
  for (int i : it->second) p2p::unbind_foreign(i);
  g_links.erase(it);
}

Made accept(const Comm& comm, int root, const std::string& port, const LocalError& local) {
  const ShortSlice quick;
  const exchange::Peers p = peers_of(comm);
  Round r;
  Made out;
  if (Watch w; root_round(p, root, local, "", &r, &out)) return out;
  Outcome o{};
  std::vector<int> remote;
  if (comm.rank == root) {
    Port pt;
    std::string why;
    if (int err = check_port(port, true, &pt, &why)) {
      say(&o, err, why);
    } else {
      // A connect of this job (a message on kPortContext) or of another job
      // (the port's socket), whichever comes first.
      const auto lit = g_listeners.find(pt.id);
      const int lsock = lit == g_listeners.end() ? -1 : lit->second;
      bool foreign = false;
      p2p::hold_foreign(1);  // another job may connect: never counted as stuck
      while (!foreign) {
        bool ready = false;
        LazyWaker waker(lsock);
        p2p::wait_until([&] {
          MPI_Status st;
          if (p2p::iprobe(MPI_ANY_SOURCE, kPortTag - pt.id, kPortContext, &st)) return true;
          pollfd pf{lsock, POLLIN, 0};
          ready = lsock >= 0 && poll(&pf, 1, 0) > 0;
          if (!ready) {
            waker.tick();
            sched_yield();  // as in connect_foreign
          }
          return ready;
        });
        if (!ready) break;
        foreign = accept_foreign(comm, r, pt, lsock, &o, &remote);
      }
      p2p::hold_foreign(-1);
      if (foreign) return finish_side(comm, root, p, o, std::move(remote), true, "accept");
      const int me = core::rt().rank;
      std::vector<std::byte> in(sizeof(Hello) + max_world() * sizeof(int));
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
  const ShortSlice quick;
  const exchange::Peers p = peers_of(comm);
  Round r;
  Made out;
  if (Watch w; root_round(p, root, local, "", &r, &out)) return out;
  Outcome o{};
  std::vector<int> remote;
  if (comm.rank == root) {
    Port pt;
    std::string why;
    if (int err = check_port(port, false, &pt, &why)) {
      say(&o, err, why);
    } else if (pt.job != job_name()) {
      connect_foreign(comm, r, pt, port, &o, &remote);
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
      std::vector<std::byte> in(sizeof(Hello) + max_world() * sizeof(int));
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
