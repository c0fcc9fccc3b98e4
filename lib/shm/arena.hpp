// The arena: one shared-memory object per job, created by mpiexec (or by a
// singleton's MPI_Init) and mapped by every rank.
//
// Layout (all offsets in the header, every region cache-line aligned):
//   [ArenaHeader][RankSlot x N][pending bitmap x N][ring i->j x N*N]
//   [collective segments: N owners x kCollSegmentsPerOwner]
// N is the number of process slots (ArenaHeader::nranks): the np ranks
// mpiexec starts plus room for MPI_Comm_spawn (docs/design/dynamic-processes.md).
// Slot i is process i of the job (what p2p calls world rank i). The sizes
// that matter for speed (ring capacity, collective data slot per member)
// are computed from `sized_for` (np), not from N, so the room for spawns
// costs address space only.
//
// Invariants
// - The object is a memfd: it has no name, so nothing survives any exit path.
// - Zero bytes are the valid initial state of every region except the header,
//   which the creator writes once before any rank starts. tmpfs allocates
//   pages on first touch, so rings of pairs that never talk cost nothing:
//   a rank reads ring i->j only after i has set bit i in j's pending bitmap.
// - magic and layout_version are checked by every mapper; a mismatch is an
//   error message, never a misread layout.
// - ExitNote is written by a rank (kind last, with release) right before it
//   exits abnormally; mpiexec reads it (acquire) after the rank is reaped.
// - `started` (header) is written only by mpiexec: np before any rank starts,
//   then raised (release) before it forks the processes of a spawn that
//   do not fit in freed slots below it: slots [0, started) are those that
//   have had a process. Ranks read it (relaxed) only as a count of
//   processes for the waiting policy, and as the bound of the slots a port
//   name may name.
// - The world barrier of a world whose first slot is b (each spawn is a
//   world of its own) is RankSlot b's barrier_count/barrier_generation,
//   used only by the members of that world (coll/barrier.cpp).
// - Slots of spawned processes are reused once every process of their
//   world has exited (RankSlot::generation counts the reuses): who frees a
//   slot, when, and how its rings are reset is in launcher/slot_reuse.hpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ringmpi::shm {

inline constexpr std::uint64_t kArenaMagic = 0x314950'4D474E4952ull;  // "RINGMPI1"
inline constexpr std::uint32_t kLayoutVersion = 7;
inline constexpr std::size_t kCacheLine = 64;
// The range of default ring capacities (default_ring_capacity); the range a
// user may set with RINGMPI_RING_BYTES is wider (lib/tunables).
inline constexpr std::size_t kMinDefaultRingCapacity = 64 * 1024;
inline constexpr std::size_t kMaxDefaultRingCapacity = 1024 * 1024;
// Default capacity of one ring for a job of `nranks`: the largest power of
// two with all nranks^2 rings within 256 MiB of (sparse) arena, between 64
// KiB and 1 MiB. A large ring holds a whole window of nonblocking sends (the
// sender never stalls on a full ring) and lets 64 KiB messages go eagerly;
// at np >= 64 rings stay at 64 KiB, so the arena stays small in address
// space and resident memory.
constexpr std::size_t default_ring_capacity(std::uint64_t nranks) {
  const std::uint64_t budget = std::uint64_t(256) << 20;
  std::size_t cap = kMaxDefaultRingCapacity;
  while (cap > kMinDefaultRingCapacity && nranks * nranks * cap > budget) cap /= 2;
  return cap;
}
inline constexpr std::size_t kRingHeaderBytes = 4 * kCacheLine;

// Collective segments (layout and protocol: lib/coll/segment.hpp). World
// rank o owns kCollSegmentsPerOwner of them and hands them out to the
// communicators whose rank 0 it is. One segment: a control part (a header
// of kCollHeaderBytes, then kCollLineBytes per member), page-aligned data
// slots of coll_slot_bytes(N) per member. Sparse like the rings: a
// segment costs memory once a communicator uses it.
inline constexpr std::uint32_t kCollSegmentsPerOwner = 8;
inline constexpr std::size_t kCollHeaderBytes = 4 * kCacheLine;
inline constexpr std::size_t kCollLineBytes = 7 * kCacheLine;
// Data slot bytes per member for a job of nranks: 256 KiB, less from 23
// ranks on so that all segments stay within 1 GiB of address space (32 KiB
// at 64 ranks), never below 8 KiB. The arena is sparse, so what a job pays
// for is the slots of the communicators it runs collectives on, not this
// budget. (A slot is a ring of regions; what moves through it costs two
// copies, what is larger one process_vm_readv, see coll/seg.hpp. With more
// ranks than cores, a vector larger than a region is reduced in chunks of
// one region, each a round in which every rank must get a core: with the
// earlier 256 MiB budget, 8 KiB slots at 64 ranks, MPI_Reduce of 16 KiB took
// 4.5 ms and MPI_Reduce_scatter_block of 256 B per rank 11.5 ms on 2 cores,
// Open MPI 2.8 and 5.5 ms; with 32 KiB slots 0.9 and 0.7 ms.)
constexpr std::size_t coll_slot_bytes(std::uint64_t nranks) {
  const std::uint64_t budget = std::uint64_t(1024) << 20;
  std::size_t b = 256 * 1024;
  while (b > 8 * 1024 && nranks * nranks * kCollSegmentsPerOwner * b > budget) b /= 2;
  return b;
}
constexpr std::size_t coll_control_bytes(std::uint64_t nranks) {
  return (kCollHeaderBytes + nranks * kCollLineBytes + 4095) / 4096 * 4096;
}
// A segment of a job of `slots` process slots (the most members a
// communicator can have) sized for `sized_for` ranks (coll_slot_bytes).
constexpr std::size_t coll_segment_bytes(std::uint64_t slots, std::uint64_t sized_for) {
  return coll_control_bytes(slots) + slots * coll_slot_bytes(sized_for);
}
// Process slots beyond max(universe, np) kept for MPI_Comm_spawn
// (docs/design/dynamic-processes.md).
inline constexpr std::uint32_t kSpawnHeadroom = 32;

enum class ExitKind : std::uint32_t { none = 0, abort = 1, fatal_error = 2 };

struct ExitNote {
  std::atomic<std::uint32_t> kind;  // ExitKind, published last
  std::int32_t code;                // abort code / error class
  char text[248];                   // one line, NUL-terminated
};

struct alignas(kCacheLine) RankSlot {
  std::atomic<std::uint32_t> doorbell;  // futex word: a sender bumps it to wake this rank
  std::atomic<std::uint32_t> sleeping;  // nonzero while this rank may be in futex_wait(doorbell)
  std::atomic<std::int32_t> pid;        // set by the rank in MPI_Init
  std::atomic<std::uint32_t> finalized; // set by the rank in MPI_Finalize
  // Ports this process has open (MPI_Open_port; bit i: port id i). Written
  // only by the process (release), read by connecting processes (acquire):
  // lib/comm/ports.cpp.
  std::atomic<std::uint64_t> open_ports;
  // How many processes had this slot before the present one (0: the first).
  // Written only by mpiexec, before it forks the slot's process
  // (launcher/slot_reuse.hpp); part of the slot's port names (comm/ports.cpp).
  std::atomic<std::uint32_t> generation;
  // Deadlock detection (protocol: launcher/deadlock.cpp). Written only by the
  // rank, read only by mpiexec.
  alignas(kCacheLine) std::atomic<std::uint32_t> stuck_rounds;  // consecutive idle sleeps, 0 = not stuck
  std::atomic<std::uint32_t> stuck_doorbell;  // the doorbell value those sleeps waited on
  std::atomic<std::int32_t> stuck_waits_for;  // world rank the call waits for, -1: none / any of several
  char stuck_call[180];  // the MPI call blocked in, with its arguments, NUL-terminated
  alignas(kCacheLine) ExitNote exit_note;
  // The world barrier of the world whose first slot this is (invariant above).
  alignas(kCacheLine) std::atomic<std::uint32_t> barrier_count;
  alignas(kCacheLine) std::atomic<std::uint32_t> barrier_generation;
};

struct alignas(kCacheLine) ArenaHeader {
  std::uint64_t magic;
  std::uint32_t layout_version;
  std::uint32_t nranks;     // process slots (N above)
  std::uint32_t sized_for;  // np: what ring and collective slot sizes were computed from
  std::uint32_t universe;   // MPI_UNIVERSE_SIZE (mpiexec --universe-size)
  std::uint64_t total_bytes;
  std::uint64_t ring_capacity;  // payload bytes of one ring (power of two)
  std::uint64_t ring_stride;    // kRingHeaderBytes + ring_capacity
  std::uint64_t slots_offset;
  std::uint64_t pending_offset;
  std::uint64_t pending_stride;  // bytes of one rank's bitmap (multiple of a cache line)
  std::uint64_t rings_offset;
  std::uint64_t coll_offset;  // first collective segment (page-aligned)
  std::uint64_t coll_slot_bytes;     // data slot of one member: coll_slot_bytes(sized_for)
  std::uint64_t coll_segment_bytes;  // coll_segment_bytes(nranks, sized_for)
  std::uint32_t flags;           // ArenaFlags
  // (Context ids are agreed per communicator, not counted here: lib/comm/context.hpp.)
  // Slots that have had a process so far (invariant above).
  alignas(kCacheLine) std::atomic<std::uint32_t> started;
};

enum ArenaFlags : std::uint32_t {
  kFlagForceCopyFallback = 1u << 0,  // rendezvous through the ring, not process_vm_readv
  kFlagCheck = 1u << 1,              // mpiexec --check: ranks verify arguments across ranks (issue 15)
};

// Byte sizes of every region for nranks; pure function, unit-tested.
struct ArenaLayout {
  std::uint64_t slots_offset, pending_offset, pending_stride, rings_offset, ring_stride, coll_offset, total_bytes;
  static ArenaLayout compute(std::uint32_t nranks, std::uint64_t ring_capacity, std::uint32_t sized_for = 0);
};

// A mapping of the arena into this process. Move-only; unmaps on destruction.
class Arena {
 public:
  Arena() = default;
  Arena(Arena&& other) noexcept;
  Arena& operator=(Arena&& other) noexcept;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  // Creates the shared object for nranks process slots, writes the header
  // and returns its file descriptor (close-on-exec set), or -1 with *error
  // set. sized_for (0: nranks) is the np the collective slots are sized
  // for and the first value of `started`; universe (0: nranks) is
  // MPI_UNIVERSE_SIZE.
  static int create(std::uint32_t nranks, std::uint64_t ring_capacity, std::uint32_t flags,
                    std::string* error, std::uint32_t sized_for = 0, std::uint32_t universe = 0);
  // Maps an arena created by create(). On failure returns an unmapped Arena
  // and sets *error to a sentence a user can act on.
  static Arena map(int fd, std::string* error);

  bool mapped() const { return base_ != nullptr; }
  ArenaHeader& header() const { return *static_cast<ArenaHeader*>(base_); }
  std::uint32_t nranks() const { return header().nranks; }
  RankSlot& slot(std::uint32_t rank) const;
  // The pending bitmap of `rank`: bit i set means ring i->rank may hold records.
  std::atomic<std::uint64_t>* pending(std::uint32_t rank) const;
  // Start of the ring from -> to (kRingHeaderBytes of header, then ring_capacity bytes).
  std::byte* ring(std::uint32_t from, std::uint32_t to) const;
  // Collective segment `index` (< kCollSegmentsPerOwner) of world rank `owner`.
  std::byte* coll_segment(std::uint32_t owner, std::uint32_t index) const;
  std::byte* base() const { return static_cast<std::byte*>(base_); }

 private:
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
};

// Environment variables mpiexec passes to each rank.
inline constexpr const char* kEnvArenaFd = "RINGMPI_ARENA_FD";
inline constexpr const char* kEnvRank = "RINGMPI_RANK";
inline constexpr const char* kEnvSize = "RINGMPI_SIZE";
// Dynamic processes (docs/design/dynamic-processes.md): the first slot of
// the process's MPI_COMM_WORLD (absent: 0), its MPI_APPNUM, the parent
// intercommunicator of a spawned process ("slot:w0,w1,...": its context
// slot and the parents' world ranks), mpiexec's spawn socket (abstract
// name) and which spawn the process belongs to (0: mpiexec's own ranks).
inline constexpr const char* kEnvWorldBase = "RINGMPI_WORLD_BASE";
inline constexpr const char* kEnvAppnum = "RINGMPI_APPNUM";
inline constexpr const char* kEnvParent = "RINGMPI_PARENT";
inline constexpr const char* kEnvLauncher = "RINGMPI_LAUNCHER";
inline constexpr const char* kEnvSpawnId = "RINGMPI_SPAWN_ID";
// A process in a reused slot: where its rings resume ("peer:in_head:out_tail"
// entries separated by ';'; launcher/slot_reuse.hpp). Absent: every ring at 0.
inline constexpr const char* kEnvResume = "RINGMPI_RESUME";
// Where every rank is bound, when mpiexec binds (or, on a synthetic or XML
// topology, would bind): each rank's OS cpu numbers as ranges ("0-1,4"),
// ranks separated by ';'. The ringmpi:// process sets of sessions read it
// (lib/api/session_psets.cpp); absent when ranks are not bound.
inline constexpr const char* kEnvPlaces = "RINGMPI_PLACES";

}  // namespace ringmpi::shm
