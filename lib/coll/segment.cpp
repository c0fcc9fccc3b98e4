#include "coll/segment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "coll/base.hpp"
#include "coll/select.hpp"
#include "comm/create.hpp"
#include "comm/numa.hpp"
#include "core/events.hpp"
#include "p2p/engine.hpp"
#include "p2p/wait.hpp"
#include "smsc/single_copy.hpp"

namespace ringmpi::coll {
namespace {

SegmentHeader* header_at(std::byte* seg) { return reinterpret_cast<SegmentHeader*>(seg); }
SegmentLine* lines_at(std::byte* seg) { return reinterpret_cast<SegmentLine*>(seg + shm::kCollHeaderBytes); }

// The NUMA node of this process, without loading hwloc's topology when the
// machine has one node and no synthetic topology is asked for (the common
// case: loading it costs milliseconds).
bool g_topology_loaded = false;
int my_numa_node() {
  static int node = -1;
  if (node >= 0) return node;
  const bool described = std::getenv("HWLOC_SYNTHETIC") || std::getenv("HWLOC_XMLFILE");
  if (!described && access("/sys/devices/system/node/node1", F_OK) != 0) {
    node = 0;
  } else {
    node = comm::this_process_numa_node();
    g_topology_loaded = true;
  }
  return node;
}

// Rank 0's choice: a segment of its own that nobody is attached to.
int pick_free(std::uint32_t owner, int n) {
  const shm::Arena& arena = core::rt().arena;
  for (std::uint32_t i = 0; i < shm::kCollSegmentsPerOwner; ++i) {
    std::byte* seg = arena.coll_segment(owner, i);
    SegmentHeader* h = header_at(seg);
    if (h->attached.load(std::memory_order_acquire) != 0) continue;
    h->arrived.store(0, std::memory_order_relaxed);
    h->released.store(0, std::memory_order_relaxed);
    SegmentLine* lines = lines_at(seg);
    // Not offset[]: a reader looks at offset[k % kDepth] only once its
    // writer posted k or later, so after the writer stored it.
    for (int m = 0; m < n; ++m) {
      lines[m].posted.store(0, std::memory_order_relaxed);
      lines[m].ready.store(0, std::memory_order_relaxed);
      lines[m].done.store(0, std::memory_order_relaxed);
      lines[m].group_arrived.store(0, std::memory_order_relaxed);
      lines[m].ibarrier.store(0, std::memory_order_relaxed);
      lines[m].pushed.store(0, std::memory_order_relaxed);
      lines[m].pieces.store(0, std::memory_order_relaxed);
      lines[m].group_released.store(0, std::memory_order_relaxed);
      lines[m].watch.store(0, std::memory_order_relaxed);
    }
    // The attach round's messages publish these stores (see segment.hpp).
    h->attached.store(static_cast<std::uint32_t>(n), std::memory_order_release);
    return static_cast<int>(i);
  }
  return -1;
}

struct AttachBlock {
  std::int32_t index;  // rank 0: the segment; others: -1
  std::int32_t numa;
};

}  // namespace

Segment::Segment(SegmentHeader* header, int n, int me, std::vector<int> world, std::vector<int> numa, bool single_copy,
                 std::size_t slot_bytes, std::byte* slots, const SegmentLimits& limits)
    : header_(header),
      lines_(lines_at(reinterpret_cast<std::byte*>(header))),
      slots_(slots),
      n_(n),
      me_(me),
      world_(std::move(world)),
      numa_(std::move(numa)),
      groups_(group_by_node(numa_)),
      single_copy_(single_copy),
      oversubscribed_(p2p::oversubscribed()),
      slot_bytes_(slot_bytes),
      limits_(limits) {
  limits_.fold_whole = std::min(limits_.fold_whole, inline_max());
  const shm::Arena& arena = core::rt().arena;
  for (int w : world_) {
    shm::RankSlot& slot = arena.slot(static_cast<std::uint32_t>(w));
    pid_.push_back(slot.pid.load(std::memory_order_acquire));
    sleeping_.push_back(&slot.sleeping);
  }
}

Segment::~Segment() {
  // The runtime is never destroyed, but the arena may be unmapped by then.
  if (core::rt().arena.mapped()) header_->attached.fetch_sub(1, std::memory_order_release);
}

template <class Done>
void Segment::wait_on(int i, Done&& done) const {
  const bool targeted = i >= 0 && pending_.empty() && !core::rt().serialize_calls;
  if (targeted) lines_[me_].watch.store(static_cast<std::uint32_t>(i) + 1, std::memory_order_relaxed);
  p2p::wait_until(done);
  if (targeted) lines_[me_].watch.store(0, std::memory_order_relaxed);
}

std::uint64_t Segment::wait_all_done(std::uint64_t k, std::span<const char> who) const {
  for (;;) {
    std::uint64_t least = ~std::uint64_t{0};
    int laggard = -1;
    for (int i = 0; i < n_; ++i) {
      if (i == me_ || (!who.empty() && !who[static_cast<std::size_t>(i)])) continue;
      const std::uint64_t d = lines_[i].done.load(std::memory_order_acquire);
      if (d < least) {
        least = d;
        laggard = i;
      }
    }
    if (least >= k) return least;
    wait_on(laggard, [&] { return done_at(laggard, k); });
  }
}

void Segment::wait_min_done(std::uint64_t k) {
  if (min_done_ < k) min_done_ = wait_all_done(k);
}

std::byte* Segment::reserve(std::uint64_t k, std::size_t bytes) {
  const std::uint64_t S = slot_bytes_;
  bytes = (std::max<std::size_t>(bytes, 1) + 63) & ~std::size_t{63};
  if (k > static_cast<std::uint64_t>(kDepth)) wait_min_done(k - kDepth);
  std::uint64_t start = ring_pos_;
  if (start % S + bytes > S) start = (start / S + 1) * S;  // no region wraps
  const std::uint64_t end = start + bytes;
  // Regions that began less than a lap before `end` may share bytes with
  // [start, end): their readers must be done (the newest of them suffices).
  std::uint64_t overlapped = 0;
  while (!regions_.empty() && regions_.front().start + S < end) {
    overlapped = regions_.front().k;
    regions_.pop_front();
  }
  if (overlapped) wait_min_done(overlapped);
  regions_.push_back(Region{k, start, end});
  ring_pos_ = end;
  offset_ = start % S;
  lines_[me_].offset[k % kDepth].store(static_cast<std::uint32_t>(offset_), std::memory_order_relaxed);
  return slots_ + static_cast<std::size_t>(me_) * slot_bytes_ + start % S;
}

void Segment::post(std::uint64_t k) { lines_[me_].posted.store(k << 24 | offset_, std::memory_order_release); }
void Segment::post_ready(std::uint64_t k) { lines_[me_].ready.store(k, std::memory_order_release); }
void Segment::store_done(std::uint64_t k) {
  lines_[me_].done.store(k, std::memory_order_release);
  wake_all();
}

void Segment::finish(std::uint64_t k) {
  if (!pending_.empty())
    p2p::wait_until([&] {
      drain();
      return pending_.empty();
    });
  store_done(k);
}

void Segment::post_done(std::uint64_t k) {
  if (!pending_.empty()) {  // done must wait for them: publish first
    post(k);
    wake_all();
    finish(k);
    return;
  }
  lines_[me_].posted.store(k << 24 | offset_, std::memory_order_release);
  lines_[me_].done.store(k, std::memory_order_release);
  wake_all();
}

void Segment::drain() {
  while (!pending_.empty() && pending_.front()()) pending_.pop_front();
}

void Segment::wait_posted(int i, std::uint64_t k) const {
  const auto& w = lines_[i].posted;
  // Posted already (with more ranks than cores, the root of a bcast that
  // left the barrier first): no trip through the waiting loop, which stores
  // watch and drains the rings before it looks.
  if (seq_of(w.load(std::memory_order_acquire)) >= k) return;
  // A writer on another core usually posts within a cache-line transfer:
  // look a few times more before the waiting loop, which progresses the
  // rings between looks (not with more ranks than cores: the writer may
  // need this core).
  const int spins = oversubscribed_ ? 0 : 32;
  for (int spin = 0; spin < spins; ++spin) {
    if (seq_of(w.load(std::memory_order_acquire)) >= k) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  wait_on(i, [&] { return seq_of(w.load(std::memory_order_acquire)) >= k; });
}

void Segment::wait_posted_or_done(int i, std::uint64_t k) const {
  wait_on(i, [&] { return seq_of(lines_[i].posted.load(std::memory_order_acquire)) >= k || done_at(i, k); });
}

void Segment::wait_at_least(int i, const std::atomic<std::uint64_t>& w, std::uint64_t k) const {
  if (w.load(std::memory_order_acquire) >= k) return;
  wait_on(i, [&] { return w.load(std::memory_order_acquire) >= k; });
}

void Segment::wait_ready(int i, std::uint64_t k) const { wait_at_least(i, lines_[i].ready, k); }
void Segment::wait_done(int i, std::uint64_t k) const { wait_at_least(i, lines_[i].done, k); }
void Segment::wait_pushed(int i, std::uint64_t k) const { wait_at_least(i, lines_[i].pushed, k); }
void Segment::wait_pieces(int i, std::uint64_t k, std::uint64_t count) const {
  wait_at_least(i, lines_[i].pieces, k << 24 | count);
}
bool Segment::all_done(std::uint64_t k, std::span<const char> who) const {
  for (int i = 0; i < n_; ++i)
    if (i != me_ && (who.empty() || who[static_cast<std::size_t>(i)]) && !done_at(i, k)) return false;
  return true;
}

bool Segment::all_ibarrier(std::uint64_t b) const {
  for (int i = 0; i < n_; ++i)
    if (lines_[i].ibarrier.load(std::memory_order_acquire) < b) return false;
  return true;
}

inline bool Segment::may_wait_for_me(int i) const {
  // (p2p::peer_sleeping's flag, through the pointer taken at construction:
  // wake_all looks at every member's after each post and done.)
  if (!sleeping_[static_cast<std::size_t>(i)]->load(std::memory_order_acquire)) return false;
  const std::uint32_t watch = lines_[i].watch.load(std::memory_order_relaxed);
  return watch == 0 || watch == static_cast<std::uint32_t>(me_) + 1;
}

void Segment::wake(int i) const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (may_wait_for_me(i)) p2p::ring_doorbell(world_[static_cast<std::size_t>(i)]);
}

void Segment::wake_all() const {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int i = 0; i < n_; ++i)
    if (i != me_ && may_wait_for_me(i)) p2p::ring_doorbell(world_[static_cast<std::size_t>(i)]);
}

std::uint64_t Segment::arrive_ibarrier() {
  const std::uint64_t b = ++ibarriers_;
  lines_[me_].ibarrier.store(b, std::memory_order_release);
  wake_all();
  return b;
}

void Segment::barrier() {
  if (!oversubscribed_) {
    // Each member stores its own count and reads the others': with a core
    // per rank the last arrival costs one cache-line transfer to each
    // reader, where the shared counter moves its line once per arrival and
    // then the release word once more. The count is the one MPI_Ibarrier
    // uses (collective order numbers both kinds alike on every member).
    const std::uint64_t b = arrive_ibarrier();
    if (!all_ibarrier(b)) p2p::wait_until([&] { return all_ibarrier(b); });
    return;
  }
  // Member 0 releases (segment.hpp, "Barrier words"): it leaves first, so a
  // collective rooted at 0 right after the barrier is posted before its
  // readers look for it.
  const std::uint64_t b = ++barriers_;
  const std::uint64_t all = b * static_cast<std::uint64_t>(n_);
  const std::uint64_t arrival = header_->arrived.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (me_ == 0) {
    if (arrival != all) wait_at_least(-1, header_->arrived, all);
    if (header_->released.load(std::memory_order_acquire) < b) {  // not released by a last arrival
      header_->released.store(b, std::memory_order_release);
      wake_all();
    }
    return;
  }
  if (arrival == all) {
    // Member 0 awake: it sees the count (its fence or ours comes first) and
    // releases. Asleep: we release, rather than put its futex wake-up and
    // then the others' in series on every member's path.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!p2p::peer_sleeping(world_[0])) {
      wait_at_least(0, header_->released, b);
      return;
    }
    header_->released.store(b, std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (int i = 0; i < n_; ++i)  // every sleeper: those waiting here watch member 0, not us
      if (i != me_ && p2p::peer_sleeping(world_[static_cast<std::size_t>(i)]))
        p2p::ring_doorbell(world_[static_cast<std::size_t>(i)]);
    return;
  }
  wait_at_least(0, header_->released, b);
}

void Segment::barrier_two_level() {
  const std::uint64_t b = ++barriers_;
  const int g = groups_.group_of[static_cast<std::size_t>(me_)];
  const auto group_size = static_cast<std::uint64_t>(groups_.members[static_cast<std::size_t>(g)].size());
  SegmentLine& leader = lines_[groups_.leader(g)];
  if (leader.group_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == b * group_size) {
    const auto groups = static_cast<std::uint64_t>(groups_.count());
    if (header_->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == b * groups) {
      for (int h = 0; h < groups_.count(); ++h) lines_[groups_.leader(h)].group_released.store(b, std::memory_order_release);
      wake_all();
      return;
    }
  }
  wait_at_least(-1, leader.group_released, b);
}

namespace {
// The copies themselves are lib/smsc's (pieces, short counts, EINTR).
[[noreturn]] void copy_failed(const char* call, int peer, int err) {
  char line[400];
  std::snprintf(line, sizeof line,
                "rank %d: internal error in a collective: %s with rank %d failed (%s); "
                "RINGMPI_FORCE_COPY_FALLBACK=1 moves collective data through messages instead",
                core::rt().rank, call, peer, err == smsc::kNoData ? "no data" : std::strerror(err));
  std::fprintf(stderr, "ringmpi: %s\n", line);
  core::abort_job(shm::ExitKind::fatal_error, 1, line);
}
}  // namespace

void Segment::read(int i, std::uint64_t remote, void* local, std::size_t bytes) const {
  if (const int err = smsc::read(pid_[static_cast<std::size_t>(i)], local, remote, bytes))
    copy_failed("process_vm_readv", i, err);
}

void Segment::write(int i, const void* local, std::uint64_t remote, std::size_t bytes) const {
  if (const int err = smsc::write(pid_[static_cast<std::size_t>(i)], local, remote, bytes))
    copy_failed("process_vm_writev", i, err);
}

namespace {

// The segment sizes of the process's thresholds now (Segment takes them
// once; see SegmentLimits for why every member has the same).
SegmentLimits limits() {
  const Thresholds& t = thresholds();
  SegmentLimits l;
  l.split_min = t.split_min;
  l.fold_whole = t.fold_whole;
  l.single_copy_min = t.single_copy_min;
  l.nb_single_copy_min = t.nb_single_copy_min;
  return l;
}

// c's Segment on segment `index` of its rank 0 (attached already: rank 0
// stored attached = n before the round that told the others the index).
Segment* install(comm::Comm& c, int index, std::vector<int> numa, bool single_copy) {
  const core::Runtime& rt = core::rt();
  std::byte* seg = rt.arena.coll_segment(static_cast<std::uint32_t>(c.peer_world[0]), static_cast<std::uint32_t>(index));
  const std::uint32_t N = rt.arena.nranks();
  std::byte* slots = seg + shm::coll_control_bytes(N);
  const std::size_t slot_bytes = rt.arena.header().coll_slot_bytes;
  // My slot's pages in my node's memory (only this rank writes them). Where
  // hwloc was not loaded the machine has one node and there is nothing to do.
  if (g_topology_loaded)
    comm::bind_to_node(slots + static_cast<std::size_t>(c.rank) * slot_bytes, slot_bytes,
                       numa[static_cast<std::size_t>(c.rank)]);
  c.coll.attach_tried = true;
  c.coll.segment = std::make_shared<Segment>(header_at(seg), c.size(), c.rank, c.peer_world, std::move(numa),
                                             single_copy, slot_bytes, slots, limits());
  core::raise_event(core::Event::segment_attach, c.size(), c.peer_world[0], index);
  return c.coll.segment.get();
}

}  // namespace

Segment* segment(comm::Comm& c) {
  comm::CollState& st = c.coll;
  if (st.segment) return st.segment.get();
  if (st.attach_tried || c.inter || c.size() < 2) return nullptr;
  st.attach_tried = true;
  if (!core::rt().arena.mapped()) return nullptr;
  // Members in another job (p2p/foreign.hpp) share no arena: messages only.
  for (int w : c.peer_world)
    if (w >= core::rt().size) return nullptr;
  const int n = c.size();
  const auto owner = static_cast<std::uint32_t>(c.peer_world[0]);
  AttachBlock mine{c.rank == 0 ? pick_free(owner, n) : -1, my_numa_node()};
  std::vector<AttachBlock> all(static_cast<std::size_t>(n));
  std::uint64_t mask = smsc::usable() ? 1 : 0;
  allgather_and(peers_of(c), &mine, sizeof mine, all.data(), &mask, 1, exchange::kTagSegment);
  const int index = all[0].index;
  if (index < 0) return nullptr;
  std::vector<int> numa(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) numa[static_cast<std::size_t>(i)] = all[static_cast<std::size_t>(i)].numa;
  if (!(mask & 1)) smsc::count_fallback();  // a member may not single copy: large data through the slots or messages
  return install(c, index, std::move(numa), mask & 1);
}

int reserve_offer(const comm::Comm& parent, int new_rank0) {
  if (parent.inter || !parent.coll.segment || (new_rank0 >= 0 && parent.rank != new_rank0)) return -1;
  return pick_free(static_cast<std::uint32_t>(core::rt().rank), static_cast<int>(core::rt().arena.nranks()));
}

void settle_offer(comm::Comm* made, const comm::Comm* parent, const comm::SegmentOffer& seg) {
  const shm::Arena& arena = core::rt().arena;
  const std::uint32_t N = arena.nranks();
  const auto header = [&](int owner, int index) {
    return header_at(arena.coll_segment(static_cast<std::uint32_t>(owner), static_cast<std::uint32_t>(index)));
  };
  if (seg.offer < 0 && seg.index < 0) return;  // nothing reserved, nothing taken (an intercommunicator, ...)
  const int me = core::rt().rank;               // world rank: whose segments this rank reserves
  const bool mine_taken = seg.index >= 0 && seg.owner == me;
  if (seg.offer >= 0 && !mine_taken) header(me, seg.offer)->attached.fetch_sub(N, std::memory_order_release);
  if (seg.index < 0) return;
  if (mine_taken) header(me, seg.index)->attached.fetch_sub(N - static_cast<std::uint32_t>(seg.size), std::memory_order_release);
  if (!made) {
    header(seg.owner, seg.index)->attached.fetch_sub(1, std::memory_order_release);
    return;
  }
  const Segment& p = *parent->coll.segment;
  std::vector<int> numa(static_cast<std::size_t>(made->size()));
  for (int i = 0; i < made->size(); ++i)
    numa[static_cast<std::size_t>(i)] =
        p.numa()[static_cast<std::size_t>(parent->local->rank_of_world(made->peer_world[static_cast<std::size_t>(i)]))];
  install(*made, seg.index, std::move(numa), p.single_copy());
}

}  // namespace ringmpi::coll
