// A communicator's shared segment: the memory its blocking collectives (and
// some nonblocking ones) run on (lib/coll/seg_*.cpp), carved from the arena's
// collective region
// (shm::Arena::coll_segment).
//
// Layout of one segment (world size N, communicator size n <= N):
//   [Header: kCollHeaderBytes][Line x N][pad to a page][slot x N: coll_slot_bytes(N) each]
// Member i (communicator rank i) owns Line i and slot i. Its slot is a ring:
// each collective that puts data there takes the next free region of at
// most inline_max() bytes (half a slot), so a loop of collectives runs up to
// kDepth collectives ahead of its slowest reader instead of waiting for it
// every time (what makes a loop of small collectives fast with more ranks
// than cores: a rank runs several calls per time slice).
//
// Allocation (who may use which segment). World rank o owns
// kCollSegmentsPerOwner segments and hands them only to communicators whose
// rank 0 it is; o is a member of each of them, so o alone knows which of its
// segments are in use, and no agreement among owners is needed.
//   - Attach (segment(): in the first blocking collective on a communicator,
//     which every member calls at the same point of its collective order;
//     for MPI_COMM_WORLD in MPI_Init, before any collective, because a
//     nonblocking collective's start is local and cannot run the round; for
//     the communicators that dup, split, create and the topology
//     constructors make from one with a segment in their own round,
//     reserve_offer() below, where the would-be rank 0 reserves one before
//     the round with attached = N, lowers it to n after, and the members
//     take the parent's NUMA nodes and single-copy answer):
//     rank 0 picks a segment whose Header::attached reads 0 (acquire),
//     zeroes the Header counters and the n Lines' words (not offset[]:
//     offset[k % kDepth] is read only once its writer posted k or later),
//     stores attached = n, and
//     then sends the segment's index in a round of exchange::allgather_and
//     on the communicator (the message orders its stores before every
//     member's first access). The same round carries each member's NUMA node
//     and ANDs a bit "process_vm_readv works here", so all members agree on
//     the single-copy paths. No free segment: index -1, the communicator
//     runs its collectives over messages for good.
//   - Detach (the communicator is freed, MPI_Comm_free being local): the
//     member has finished every blocking collective on it, and a pending
//     nonblocking one keeps the Segment alive (shared_ptr) until it
//     completes, so the last access is done when the Segment is destroyed;
//     it does attached.fetch_sub(1, release). A member that
//     returned while others still read its slot does not make the segment
//     free: the readers are still attached. So attached == 0 (acquire)
//     means nobody reads or writes the segment any more.
//
// Sequence numbers. Every member numbers the segment collectives of its
// communicator 1, 2, 3, ... (Comm order is the same on all ranks, so
// collective k is the same call everywhere). In Line i, member i writes:
//   posted  = k << 24 | offset (release, one store) when its data for
//             collective k is in its slot region at `offset` (or its
//             published buffer address is in `addr`/`bytes`, or in the
//             region itself: the nonblocking forms, whose member may start
//             its next collective before its readers are done, and
//             allgather, which shares their code): a reader of the newest
//             collective finds seq and place in one cache line;
//   offset[k % kDepth] (relaxed, before posted) = the same offset, for a
//             reader that finds posted already past k;
//   ready   = k (release) for a second publication within collective k
//             (the reduced block of a large allreduce);
//   done    = k (release) when it has finished every read of collective k
//             and of every collective before it (from any slot or published
//             buffer). Every member stores done at the end of every segment
//             collective, reading or not, in sequence order: a nonblocking
//             one completes in order (drain()), and a blocking one completes
//             the pending nonblocking ones before it stores its done. That
//             never waits on anything but other members' starts: a
//             nonblocking collective runs on the segment only when every
//             member writes all its data at its start;
//   ibarrier = b (release) when it started its b-th MPI_Ibarrier (or,
//             not oversubscribed, MPI_Barrier: see Barrier words); the
//             barrier completes once every member's ibarrier >= b;
//   dest, pushed: the split copy of a large scan's hop (seg_reduction.cpp)
//             and of a two-rank bcast (seg_movement.cpp): the reader
//             publishes where it wants the data (dest, then posted), the
//             writer writes the second half there and stores pushed = k
//             (release); the reader returns only after pushed >= k;
//   pieces  = k << 24 | c (release) in the oversubscribed scan chain
//             (seg_reduction.cpp scan_pieces) once member i has folded the
//             first c pieces of its partial result of collective k, whose
//             address it stored in `bytes` before the first such store;
//             member i + 1 reads the c-th piece only once pieces >= k << 24 | c,
//             and member i returns only after i + 1's done >= k (so `bytes`
//             and the buffer stay put). Zeroed at attach with the others.
// Readers load these with acquire, then read the data.
//
// Reuse rules. Before member i takes a region for collective k (reserve()):
//   - it waits until every member's done >= k - kDepth, so offset[k % kDepth]
//     is no longer read for collective k - kDepth;
//   - it waits until every member's done >= the newest collective whose
//     region overlaps the new one (regions_: the regions in ring order), so
//     all readers of the old bytes have finished.
// Everything a reader needs from a region (a table, how its blocks travel)
// is inside the region; Line fields other than offset (addr, bytes) are
// written only by a member that then waits for its readers' done >= k
// before it returns, so they are never overwritten while read. A buffer
// published for single copy (process_vm_readv by the others) is the
// caller's own memory: its owner waits for every reader's done >= k before
// it returns. The same holds the other way for a gather root whose receive
// blocks take pushes (Pushes, seg_common.hpp): the members it asked write
// into them with process_vm_writev and then store done = k (release); the
// root returns (or its request completes) only once each of those done >= k.
//
// Barrier words. With a core per rank (not oversubscribed, the same on
// every member), MPI_Barrier numbers its barriers with MPI_Ibarrier's count
// and works as the nonblocking one does: member i stores ibarrier = b
// (release), wakes sleepers, and waits until every member's ibarrier >= b.
// The counts only grow, so nothing is reset between barriers. Otherwise
// (oversubscribed) Header::arrived counts arrivals of every barrier so far
// (fetch_add, acq_rel) and member 0 releases: it waits until arrived >=
// b * n (acquire), then, unless released >= b already, stores released = b
// (release) and wakes the sleepers (wake_all); every other member waits for
// released >= b, watching member 0. The arrival that makes the count b * n,
// when it is not member 0's, runs a seq_cst fence and reads member 0's
// sleeping flag: 0, and member 0 sees the count before it sleeps (Dekker as
// below), so it waits for released like the others; 1, and it stores
// released = b itself and rings every sleeping member's doorbell, whatever
// it watches (member 0's wake-up and then the others' would otherwise come
// one after the other). So released = b is stored only by members that saw
// arrived >= b * n, perhaps twice (the same value). No member arrives at
// barrier b + 1 before released >= b (member 0 and a releasing last
// arrival: after their own store), so the count of barrier b is never mixed
// with the next, and released only grows.
// Why member 0 and not the last arrival: with more ranks than cores the
// member that releases is the one running when the barrier completes, so it
// leaves first; a barrier is most often followed by a collective rooted at 0
// (OSU's loops; a root that reads input and broadcasts it), and released by
// the last arrival, usually a reader, that reader entered the collective
// before its root was scheduled and waited there a context switch
// (docs/design/collectives.md, "Small rooted collectives with more ranks
// than cores").
// Two levels (NUMA groups, seg_numa.cpp): members count in their leader's
// Line::group_arrived; the last of a group counts in Header::arrived (b *
// number of groups); the last of those stores group_released = b in every
// leader's line (release) and wakes everybody; members wait on their own
// leader's line, in their node's memory. A communicator uses one kind of
// barrier for its whole life (chosen from the groups, fixed at attach, and
// the environment).
//
// Waking. Every wait is p2p::wait_until on the member's own doorbell (spin,
// yield, then futex sleep, never a spin on a descheduled writer). A writer
// publishes with release, then runs one seq_cst fence and rings the doorbell
// of each member it may have unblocked whose `sleeping` flag is set: the
// Dekker argument of lib/p2p/wait.hpp applies unchanged.
// Which members it may have unblocked (wake_all): a sleeper whose
// Line::watch is 0 waits for anything; one whose watch is 1 + j waits only
// for words of Line j that member j writes (posted, ready, done, pushed;
// and, for j = 0, Header::released, whose other writer, a last arrival
// while member 0 sleeps, rings every sleeper), so only member j's wake_all
// rings it. Without this, every done of every
// member woke every member blocked in reserve() behind one slow root: 32
// ranks on 2 cores, MPI_Reduce with a rotating root took 1.6 ms a call,
// a thousand futex calls each. The waiter (wait_on) stores watch = 1 + j
// (relaxed) before p2p::wait_until, whose sleeping = 1 store (seq_cst, so
// release) comes after it; the writer loads `sleeping` with acquire after
// its fence, so when it reads 1 it also reads this episode's watch (or a
// later one's, stored once the waiter woke up). The condition a waiter
// checks after its fence reads only Line j, so Dekker's argument still
// covers it. A wait that reads several members (all of them done: one
// laggard at a time, wait_all_done) re-declares between sleeps. Watch stays
// 0 when this member has pending nonblocking collectives on the segment
// (their completion, progressed while it waits, may need any member's
// words) and at MPI_THREAD_MULTIPLE (two threads may wait on one segment).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <vector>

#include "coll/numa_groups.hpp"
#include "coll/select.hpp"
#include "comm/comm.hpp"
#include "shm/arena.hpp"

namespace ringmpi::comm {
struct SegmentOffer;
}

namespace ringmpi::coll {

struct alignas(shm::kCacheLine) SegmentHeader {
  std::atomic<std::uint32_t> attached;  // members not yet detached
  alignas(shm::kCacheLine) std::atomic<std::uint64_t> arrived;
  alignas(shm::kCacheLine) std::atomic<std::uint64_t> released;
};
static_assert(sizeof(SegmentHeader) <= shm::kCollHeaderBytes);

// How many collectives a member's slot regions may run ahead of its slowest reader.
inline constexpr int kDepth = 64;

struct alignas(shm::kCacheLine) SegmentLine {
  std::atomic<std::uint64_t> posted;
  std::atomic<std::uint64_t> ready;
  std::atomic<std::uint64_t> done;
  std::uint64_t addr;   // a published buffer (single copy), valid once posted == k
  std::uint64_t bytes;  // a second published address (algorithm-specific)
  std::atomic<std::uint64_t> ibarrier;  // the last MPI_Ibarrier this member started
  // Split copies (the large scan chain): where this member wants its
  // predecessor's data (valid once posted == k), and pushed = k (release)
  // once this member wrote its half into its successor's `dest`.
  std::uint64_t dest;
  std::atomic<std::uint64_t> pushed;
  alignas(shm::kCacheLine) std::atomic<std::uint32_t> offset[kDepth];
  // Two-level barrier (seg_numa.cpp), in the line of a NUMA group's leader:
  // arrivals of the group's members (fetch_add), and the last barrier released.
  alignas(shm::kCacheLine) std::atomic<std::uint64_t> group_arrived;
  std::atomic<std::uint64_t> group_released;
  // 1 + the member whose Line this member waits on, or 0 (any): see Waking.
  alignas(shm::kCacheLine) std::atomic<std::uint32_t> watch;
  // The pipelined scan chain (seg_reduction.cpp): k << 24 | the pieces of
  // this member's partial result published in collective k (release; see
  // the top). In watch's line: both are written by this member only, and
  // the first line is full.
  std::atomic<std::uint64_t> pieces;
};
static_assert(sizeof(SegmentLine) == shm::kCollLineBytes);

// The sizes at which the segment algorithms change their way
// (RINGMPI_COLL_SPLIT_MIN, _FOLD_WHOLE_MAX, _SINGLE_COPY_MIN,
// _NONBLOCKING_SINGLE_COPY_MIN; coll/select.hpp Thresholds). A segment
// takes them once, when it is attached or made with its communicator, from
// the process's thresholds: the same environment on every rank and MPI_T
// writes of scope MPI_T_SCOPE_ALL_EQ make them the same on every member,
// and a member never changes them afterwards, so every member of a
// segment collective takes the same path (each one's choices depend only
// on these, the call's arguments that the standard makes agree, and what
// the attach round agreed: single copy, oversubscription).
struct SegmentLimits {
  std::size_t split_min = 64 * 1024;
  std::size_t fold_whole = 2048;  // at most inline_max() (the segment clamps it)
  std::size_t single_copy_min = 32 * 1024;
  std::size_t nb_single_copy_min = 16 * 1024;
};

// This rank's view of its communicator's segment (Comm::coll).
class Segment {
 public:
  Segment(SegmentHeader* header, int n, int me, std::vector<int> world, std::vector<int> numa, bool single_copy,
          std::size_t slot_bytes, std::byte* slots, const SegmentLimits& limits);
  ~Segment();  // detaches
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  int size() const { return n_; }
  int me() const { return me_; }
  bool single_copy() const { return single_copy_; }
  // NUMA node (logical index) of each member, as each one saw it at attach.
  const std::vector<int>& numa() const { return numa_; }
  const NumaGroups& groups() const { return groups_; }
  // The largest region one collective may take in a member's slot.
  std::size_t inline_max() const { return slot_bytes_ / 2; }
  // Whether a collective should move a block of `bytes` by single copy
  // although it fits a slot region: from 32 KiB when every rank has a core
  // of its own (measured, bench/coll at np = 2: a scatter of 32 KiB blocks
  // 4.3 us by single copy against 4.9 us through the slot, 16 KiB 3.2
  // against 2.6; gather ties at 32 KiB; alltoall, best of 3 alternating
  // runs, 32 KiB 5.0 against 5.5, 64 KiB 7.9 against 11.4). With more
  // ranks than cores the slot wins at every size: the writer returns at once
  // instead of waiting for its readers to be scheduled (np = 8: 37 us
  // against 193 us for 64 KiB blocks).
  bool oversubscribed() const { return oversubscribed_; }
  // Nonblocking collectives (`nonblocking`) from a lower size: by address
  // their start copies nothing and the readers copy in their own progress,
  // which an application computing meanwhile hides (seg_nonblocking*.cpp).
  // The sizes are RINGMPI_COLL_SINGLE_COPY_MIN and _NONBLOCKING_SINGLE_COPY_MIN
  // (SegmentLimits).
  bool prefer_single_copy(std::size_t bytes, bool nonblocking = false) const {
    return single_copy_ && bytes >= (nonblocking ? limits_.nb_single_copy_min : limits_.single_copy_min) &&
           !oversubscribed_;
  }
  // From this size two members with a core each split a copy (seg_common.hpp split_half).
  std::size_t split_min() const { return limits_.split_min; }
  // Up to this size reductions fold whole vectors (seg_reduction.cpp,
  // seg_nonblocking.cpp): one round instead of two; never above inline_max().
  std::size_t fold_whole() const { return limits_.fold_whole; }

  // The way the blocking call now running must take (a forced
  // Algo::segment_*; Algo::segment: by the sizes above), set for that call
  // only (coll/seg.hpp WayScope); nonblocking and persistent code never
  // read it. took(): the way this member's part of the call took (none
  // where its blocks went both ways), which the call's counters count.
  Algo way() const { return way_; }
  void want(Algo w) {
    way_ = w;
    took_ = Algo::none;
  }
  void took(Algo a) { took_ = a; }
  Algo taken() const { return took_; }

  // The next collective's sequence number (all members call it once per
  // segment collective, in collective order).
  std::uint64_t begin() { return ++seq_; }
  std::uint64_t seq() const { return seq_; }

  SegmentLine& line(int i) const { return lines_[i]; }
  // Member i's region of collective k (read after i posted k).
  std::byte* data(int i, std::uint64_t k) const {
    const std::uint64_t p = lines_[i].posted.load(std::memory_order_acquire);
    const std::size_t off = seq_of(p) == k ? p & kOffsetMask : lines_[i].offset[k % kDepth].load(std::memory_order_relaxed);
    return slots_ + static_cast<std::size_t>(i) * slot_bytes_ + off;
  }
  static std::uint64_t seq_of(std::uint64_t posted) { return posted >> 24; }
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << 24) - 1;
  // Takes this member's region of `bytes` (<= inline_max()) for collective
  // k, waiting as the reuse rules say; publish it with post(k).
  std::byte* reserve(std::uint64_t k, std::size_t bytes);

  // Publication and waits (see the header comment for the memory orders).
  void post(std::uint64_t k);
  void post_ready(std::uint64_t k);
  // done = k, then wakes sleepers (a writer may wait for it in reserve()).
  // Completes this member's pending nonblocking collectives first: done
  // says "every collective up to k", so it moves in sequence order.
  void finish(std::uint64_t k);
  // post(k) and finish(k) with one wake-up, for a member that reads
  // nothing in collective k (the root of a small bcast, a small gather's
  // senders): one fence instead of two.
  void post_done(std::uint64_t k);

  // Nonblocking collectives on the segment (seg_nonblocking.cpp), started
  // and not complete, in sequence order. Each entry tries to complete its
  // collective (its reads need only the other members' starts) and says
  // whether it did; drain() runs them from the front while they can.
  void add_pending(std::function<bool()> try_complete) { pending_.push_back(std::move(try_complete)); }
  bool has_pending() const { return !pending_.empty(); }
  void drop_last_pending() { pending_.pop_back(); }
  void drain();
  // done = k without draining (the front pending collective completing).
  void store_done(std::uint64_t k);
  // This member arrives at its next per-member barrier (MPI_Ibarrier, and
  // MPI_Barrier with a core per rank): stores ibarrier = b (release), wakes
  // sleepers, returns b; the barrier is complete once all_ibarrier(b).
  std::uint64_t arrive_ibarrier();
  void wait_posted(int i, std::uint64_t k) const;
  // Until member i has posted k or is done with k.
  void wait_posted_or_done(int i, std::uint64_t k) const;
  void wait_ready(int i, std::uint64_t k) const;
  void wait_done(int i, std::uint64_t k) const;
  void wait_pushed(int i, std::uint64_t k) const;
  // The scan chain in pieces: this member published its first `count`
  // pieces of collective k (count < 2^24); waits until member i has.
  void post_pieces(std::uint64_t k, std::uint64_t count) {
    lines_[me_].pieces.store(k << 24 | count, std::memory_order_release);
  }
  void wait_pieces(int i, std::uint64_t k, std::uint64_t count) const;
  // Waits until every other member's done >= k (with `who`: those with
  // who[i] set), sleeping on one member that lags at a time; returns the
  // least done it saw.
  std::uint64_t wait_all_done(std::uint64_t k, std::span<const char> who = {}) const;
  // Whether member i's done >= k / every other member's (acquire); with
  // `who`, every other member i with who[i] set (one char per member).
  bool done_at(int i, std::uint64_t k) const { return lines_[i].done.load(std::memory_order_acquire) >= k; }
  bool all_done(std::uint64_t k, std::span<const char> who = {}) const;
  // Whether every member's ibarrier >= b (acquire): barrier b is complete.
  bool all_ibarrier(std::uint64_t b) const;
  // Rings the doorbells of sleeping members that may wait for this one's
  // words (may_wait_for_me): member i, or all others.
  void wake(int i) const;
  void wake_all() const;
  void barrier();
  void barrier_two_level();

  // Single copy: reads `bytes` at member i's address `remote` into `local`
  // (process_vm_readv). A refusal here is fatal: the members agreed at attach
  // that it works.
  void read(int i, std::uint64_t remote, void* local, std::size_t bytes) const;
  // The other way (process_vm_writev): `bytes` at `local` into member i's `remote`.
  void write(int i, const void* local, std::uint64_t remote, std::size_t bytes) const;

 private:
  SegmentHeader* header_;
  SegmentLine* lines_;
  std::byte* slots_;
  int n_, me_;
  std::vector<int> world_;
  std::vector<pid_t> pid_;
  std::vector<const std::atomic<std::uint32_t>*> sleeping_;  // each member's RankSlot::sleeping (may_wait_for_me)
  std::vector<int> numa_;
  NumaGroups groups_;
  bool single_copy_;
  bool oversubscribed_;  // the same on every rank: the job's size against the machine's cores
  Algo way_ = Algo::segment;  // (in the padding before slot_bytes_)
  Algo took_ = Algo::none;
  std::size_t slot_bytes_;
  SegmentLimits limits_;
  // wait_all_done(k), remembered in min_done_.
  void wait_min_done(std::uint64_t k);
  // p2p::wait_until(done), where done() reads only member i's Line words
  // that member i writes: declares i in this member's Line::watch meanwhile
  // (see Waking). i = -1: done() reads other words (watch stays 0).
  template <class Done>
  void wait_on(int i, Done&& done) const;
  void wait_at_least(int i, const std::atomic<std::uint64_t>& w, std::uint64_t k) const;
  // After the writer's seq_cst fence: whether member i sleeps (acquire)
  // on something this member's words may change (its watch: 0 or this member).
  bool may_wait_for_me(int i) const;

  std::uint64_t seq_ = 0;
  std::uint64_t barriers_ = 0;
  std::uint64_t ibarriers_ = 0;
  std::deque<std::function<bool()>> pending_;
  // The ring of this member's slot: positions only grow (position % slot
  // bytes is the place); regions still possibly read, oldest first.
  struct Region {
    std::uint64_t k, start, end;
  };
  std::uint64_t ring_pos_ = 0;
  std::uint64_t offset_ = 0;  // of the region reserved last (posted with it)
  std::deque<Region> regions_;
  std::uint64_t min_done_ = 0;  // every other member's done was at least this, last we looked
};

// The segment of intracommunicator c, attaching it on first use (a
// collective step: every member must call it at the same point). nullptr
// when c has none (one rank, an intercommunicator, no free segment).
Segment* segment(comm::Comm& c);

// MPI_Comm_dup(_with_info), MPI_Comm_idup, MPI_Comm_split(_type), MPI_Comm_create,
// MPI_Comm_create_group, the topology constructors (topo/create.cpp: their
// agreement round) and MPI_Cart_sub on an intracommunicator with a segment
// attach the new communicators' in their own round too, so that a program
// running only nonblocking collectives on them gets the segment. Where no
// rank knows before the round which rank will be a new rank 0, every rank
// reserves a free segment of its own (attached = N, the world size, an
// upper bound of any member count); where it is known (dup: the parent's
// rank 0, `new_rank0`), only that rank does. Each offers its index in the
// round (comm::SegmentOffer); each new communicator takes its rank 0's.
// After the round (settle_offer): a rank whose reservation nobody took gives
// all N back; a new rank 0 gives back N - n, leaving attached = n as the
// attach protocol's rank 0 stores it (the other members may detach before
// that: attached stays above 0 until it has); every member then installs
// the segment with the parent's NUMA nodes of its members and single copy
// answer, or, where its communicator failed after the round, gives its
// share back. No free segment: the communicator attaches in its first
// blocking collective, as any communicator. MPI_Comm_idup reserves at its
// start and settles in its last step (coll/idup.cpp), where the parent may
// have been freed meanwhile: `parent` is read only when `made` is not null.
int reserve_offer(const comm::Comm& parent, int new_rank0 = -1);
void settle_offer(comm::Comm* made, const comm::Comm* parent, const comm::SegmentOffer& seg);

}  // namespace ringmpi::coll
