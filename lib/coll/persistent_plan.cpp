// Persistent collectives planned once (coll/persistent_plan.hpp). Each plan
// mirrors the nonblocking segment form of its family (seg_nonblocking*.cpp:
// the same region formats, the same choice between slot and address, so
// the invariants of coll/seg_op.hpp carry over unchanged) with what those
// forms compute at every start -- block lists, sizes, the modes every member
// agrees on -- computed once here, and the operation object itself reused.
#include "coll/persistent_plan.hpp"

#include <algorithm>
#include <cstring>

#include "coll/persistent_messages.hpp"
#include "coll/schedule.hpp"
#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "coll/seg_fits.hpp"
#include "coll/select.hpp"
#include "core/counters.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/request.hpp"

namespace ringmpi::coll {

using namespace seg;

void PersistentPlan::start(comm::Comm&, const std::shared_ptr<Segment>& live) {
  live_ = live;
  Segment& s = seg();
  k_ = s.begin();
  read_ = false;
  error_ = MPI_SUCCESS;
  write();
  // In sequence order with the member's other nonblocking segment
  // collectives (a lambda of one pointer: std::function keeps it inline).
  s.add_pending([this] { return try_complete(); });
  // Nothing to read (a bcast root, a reduce non-root): done now, so that
  // the readers' reuse waits never wait for this member's next call. Such a
  // write() posts without waking: store_done's wake (one fence) covers the
  // post too, and where earlier collectives hold the done back, this one.
  if (!reads()) {
    s.drain();
    if (!read_) s.wake_all();
  }
}

bool PersistentPlan::try_complete() {
  if (!ready()) return false;
  error_ = complete();
  seg().store_done(k_);
  read_ = true;
  return true;
}

bool PersistentPlan::poll() {
  if (!read_) seg().drain();
  if (!read_ || !released()) return false;
  ended();
  live_.reset();  // may detach the segment (its communicator freed meanwhile): last
  return true;
}

namespace {

// ---- barrier ---------------------------------------------------------------

// MPI_Ibarrier's counters (Segment::arrive_ibarrier): no sequence number, no
// slot, nothing pending.
class BarrierPlan final : public PersistentPlan {
 public:
  using PersistentPlan::PersistentPlan;
  void start(comm::Comm&, const std::shared_ptr<Segment>& live) override {
    live_ = live;
    core::count(core::Counter::seg_barrier);
    b_ = seg().arrive_ibarrier();
  }
  bool poll() override {
    if (!seg().all_ibarrier(b_)) return false;
    live_.reset();
    return true;
  }

 private:
  void write() override {}
  std::uint64_t b_ = 0;
};

// ---- bcast -------------------------------------------------------------------

// As iseg_bcast: the root's data in its slot region, or by address from
// 16 KiB with a core per rank (then its epoch ends once the readers are done).
class BcastPlan final : public PersistentPlan {
 public:
  BcastPlan(Segment& s, const Typed& buf, int root) : PersistentPlan(&s), buf_(buf), root_(root) {}

 private:
  bool root() const { return seg().me() == root_; }
  void write() override {
    core::count(core::Counter::seg_bcast);
    if (!root()) return;
    pub_ = publish_own_block(seg(), k(), buf_, buf_.bytes(), true);  // woken by PersistentPlan::start
  }
  bool reads() const override { return !root(); }
  bool ready() override { return root() || posted(seg(), root_, k()); }
  int complete() override {
    if (!root()) take_own_block(seg(), k(), root_, buf_, true);
    return MPI_SUCCESS;
  }
  bool released() override { return !pub_ || seg().all_done(k()); }
  void ended() override { pub_.reset(); }
  Typed buf_;
  int root_;
  std::shared_ptr<Published> pub_;
};

// ---- reductions ----------------------------------------------------------------

// A member's vector in its slot region, behind a word 0 ("in the slot"):
// the format of seg_nonblocking.cpp's publish_vector, whose by-address mode
// the plans leave to the nonblocking form (prefer_single_copy sizes).
constexpr std::size_t kVectorData = 16;

// `wake`: false for a member that reads nothing (PersistentPlan::start wakes).
void publish_vector(Segment& s, std::uint64_t k, const void* mine, std::size_t m, bool wake) {
  std::byte* region = s.reserve(k, kVectorData + m);
  const std::uint64_t in_slot = 0;
  std::memcpy(region, &in_slot, sizeof in_slot);
  std::memcpy(region + kVectorData, mine, m);
  s.post(k);
  if (wake) s.wake_all();
}

const std::byte* vector_of(const Segment& s, std::uint64_t k, int j) { return s.data(j, k) + kVectorData; }

// Whether a vector of m bytes goes through the slot and is folded whole
// (iseg_reduce's conditions, less the by-address sizes).
bool vector_in_slot(const Segment& s, const Reduction& r, std::size_t m) {
  return r.type->contiguous() && m > 0 && !s.prefer_single_copy(m, true) && kVectorData + m <= s.inline_max();
}

// MPI_Reduce (root >= 0) / MPI_Allreduce (root -1): as iseg_reduce.
class ReducePlan final : public PersistentPlan {
 public:
  ReducePlan(Segment& s, const Reduction& r, const void* mine, void* result, int root)
      : PersistentPlan(&s), r_(r), mine_(mine), result_(result), root_(root), m_(std::size_t(r.count) * r.type->size) {}

 private:
  bool folds() const { return root_ < 0 || seg().me() == root_; }
  void write() override {
    core::count(root_ >= 0 ? core::Counter::seg_reduce : core::Counter::seg_allreduce);
    publish_vector(seg(), k(), mine_, m_, folds());
  }
  bool reads() const override { return folds(); }
  bool ready() override { return !folds() || all_posted(seg(), k(), 0, seg().size() - 1); }
  int complete() override {
    if (!folds()) return MPI_SUCCESS;
    // The vectors' own copies: the result may be this member's vector
    // (MPI_IN_PLACE), which is read from the slot, not from the buffer.
    return fold_down(r_, seg().size() - 1, [&](int j) { return vector_of(seg(), k(), j); }, result_);
  }
  Reduction r_;
  const void* mine_;
  void* result_;
  int root_;
  std::size_t m_;
};

// MPI_Scan / MPI_Exscan: as iseg_scan.
class ScanPlan final : public PersistentPlan {
 public:
  ScanPlan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive)
      : PersistentPlan(&s), r_(r), mine_(mine), result_(result), last_(exclusive ? s.me() - 1 : s.me()),
        m_(std::size_t(r.count) * r.type->size) {}

 private:
  void write() override {
    core::count(core::Counter::seg_scan);
    publish_vector(seg(), k(), mine_, m_, last_ >= 0);
  }
  bool reads() const override { return last_ >= 0; }
  bool ready() override { return last_ < 0 || all_posted(seg(), k(), 0, last_); }
  int complete() override {
    if (last_ < 0) return MPI_SUCCESS;
    return fold_up(r_, last_, [&](int j) { return vector_of(seg(), k(), j); }, result_);
  }
  Reduction r_;
  const void* mine_;
  void* result_;
  int last_;
  std::size_t m_;
};

// MPI_Reduce_scatter / MPI_Reduce_scatter_block: as iseg_reduce_scatter,
// every member's whole vector (r.count elements: the sum of the counts) in
// its slot, each folding its own block of all of them in rank order. The
// block's place and length are worked out once here.
class ReduceScatterPlan final : public PersistentPlan {
 public:
  ReduceScatterPlan(Segment& s, const Reduction& r, const void* mine, void* result, const int* counts)
      : PersistentPlan(&s), block_(r), mine_(mine), result_(result), m_(std::size_t(r.count) * r.type->size) {
    for (int j = 0; j < s.me(); ++j) at_ += static_cast<std::size_t>(counts[j]) * r.type->size;
    block_.count = counts[s.me()];
  }

 private:
  void write() override {
    core::count(core::Counter::seg_reduce_scatter);
    publish_vector(seg(), k(), mine_, m_, reads());
  }
  // A member with an empty block reads nothing (its vector is still read).
  bool reads() const override { return block_.count > 0; }
  bool ready() override { return !reads() || all_posted(seg(), k(), 0, seg().size() - 1); }
  int complete() override {
    if (!reads()) return MPI_SUCCESS;
    return fold_down(block_, seg().size() - 1, [&](int j) { return vector_of(seg(), k(), j) + at_; }, result_);
  }
  Reduction block_;  // the reduction of this member's block
  const void* mine_;
  void* result_;
  std::size_t m_;
  std::size_t at_ = 0;  // bytes before this member's block in every vector
};

// ---- data movement ---------------------------------------------------------------

bool others_posted(const Segment& s, std::uint64_t k) {
  for (int j = 0; j < s.size(); ++j)
    if (j != s.me() && !posted(s, j, k)) return false;
  return true;
}

// The blocks of `count` elements of t at base, member j's at j * count.
std::vector<Typed> uniform_blocks(const void* base, int count, const dtype::Datatype& t, int n) {
  std::vector<Typed> b(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) b[static_cast<std::size_t>(j)] = block_of(base, t, j * count, count);
  return b;
}

// The blocks of counts[j] elements of t at displs[j] of base, for every member j.
std::vector<Typed> blocks_of(const void* base, const dtype::Datatype& t, const int* counts, const int* displs, int n) {
  std::vector<Typed> b(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) b[static_cast<std::size_t>(j)] = block_of(base, t, displs[j], counts[j]);
  return b;
}

// Every other member with a non-empty block in `blocks` (the members a
// reader waits for and reads: one with an empty block to it posts nothing
// for it, seg_common.hpp others_empty); *any: whether there is one.
std::vector<char> nonempty_others(const Segment& s, const std::vector<Typed>& blocks, bool* any) {
  std::vector<char> w(blocks.size(), 0);
  *any = false;
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    w[j] = static_cast<int>(j) != s.me() && blocks[j].bytes() > 0;
    *any = *any || w[j];
  }
  return w;
}

bool posted_all(const Segment& s, std::uint64_t k, const std::vector<char>& which) {
  for (std::size_t j = 0; j < which.size(); ++j)
    if (which[j] && !posted(s, static_cast<int>(j), k)) return false;
  return true;
}

// MPI_Allgather(v): as iseg_allgatherv, dst: the receive blocks.
class AllgatherPlan final : public PersistentPlan {
 public:
  AllgatherPlan(Segment& s, const Typed& send, bool in_place, std::vector<Typed> dst)
      : PersistentPlan(&s), send_(send), in_place_(in_place), dst_(std::move(dst)) {}

 private:
  void write() override {
    core::count(core::Counter::seg_allgather);
    const Typed& own = dst_[static_cast<std::size_t>(seg().me())];
    bool from_send;
    const Typed src = allgather_source(send_, in_place_, own, &from_send);
    pub_ = publish_own_block(seg(), k(), src, own.bytes(), true);
    seg().wake_all();
    if (from_send) copy_typed(send_, own);
  }
  bool reads() const override { return true; }
  bool ready() override { return others_posted(seg(), k()); }
  int complete() override {
    for (int j = 0; j < seg().size(); ++j)
      if (j != seg().me()) take_own_block(seg(), k(), j, dst_[static_cast<std::size_t>(j)], true);
    return MPI_SUCCESS;
  }
  bool released() override { return !pub_ || seg().all_done(k()); }
  void ended() override { pub_.reset(); }
  Typed send_;
  bool in_place_;
  std::vector<Typed> dst_;
  std::shared_ptr<Published> pub_;
};

// The reading side of the all-to-all plans: dst_[j] is this member's block
// from member j, taken from j's post where from_[j] (j has something for
// it); by_address_ when this member's own blocks went out by address (its
// epoch then ends once every reader is done).
class BlockExchangePlan : public PersistentPlan {
 protected:
  BlockExchangePlan(Segment& s, std::vector<Typed> dst) : PersistentPlan(&s), dst_(std::move(dst)) {
    from_ = nonempty_others(s, dst_, &any_);
  }
  bool reads() const override { return any_; }
  bool ready() override { return posted_all(seg(), k(), from_); }
  int complete() override {
    for (int j = 0; j < seg().size(); ++j)
      if (from_[static_cast<std::size_t>(j)]) take_block(seg(), k(), j, dst_[static_cast<std::size_t>(j)]);
    return MPI_SUCCESS;
  }
  bool released() override { return !by_address_ || seg().all_done(k()); }
  std::vector<Typed> dst_;
  std::vector<char> from_;  // the members whose block to this one is not empty
  bool any_ = false;
  bool by_address_ = false;
};

// MPI_Alltoall(v): as iseg_alltoallv. `counts`: send counts, send
// displacements, receive counts, receive displacements (n each; the send
// ones unused in place).
class AlltoallPlan final : public BlockExchangePlan {
 public:
  AlltoallPlan(Segment& s, const void* sendbuf, const dtype::Datatype& stype, void* recvbuf,
               const dtype::Datatype& rtype, bool in_place, std::vector<int> counts)
      : BlockExchangePlan(s, receive_blocks(s, recvbuf, rtype, counts)), sendbuf_(sendbuf), stype_(stype),
        recvbuf_(recvbuf), rtype_(rtype), in_place_(in_place), counts_(std::move(counts)) {
    const auto n = static_cast<std::size_t>(s.size());
    // Nothing for anybody: no table posted (as iseg_alltoallv).
    quiet_ = in_place ? others_empty(s, &counts_[2 * n], rtype) : others_empty(s, &counts_[0], stype);
  }

 private:
  void write() override {
    core::count(core::Counter::seg_alltoall);
    const std::size_t n = dst_.size();
    if (quiet_) {
      const int me = seg().me();
      if (!in_place_) copy_typed(block_of(sendbuf_, stype_, counts_[n + me], counts_[me]), dst_[std::size_t(me)]);
      return;
    }
    by_address_ = start_alltoall(seg(), k(), sendbuf_, &counts_[0], &counts_[n], stype_, recvbuf_, &counts_[2 * n],
                                 &counts_[3 * n], rtype_, in_place_, &saved_, &keep_, true) == kByAddress;
  }
  // dst_ from the receive counts and displacements (counts' third and fourth n).
  static std::vector<Typed> receive_blocks(const Segment& s, void* recvbuf, const dtype::Datatype& rtype,
                                           const std::vector<int>& counts) {
    const auto n = static_cast<std::size_t>(s.size());
    return blocks_of(recvbuf, rtype, &counts[2 * n], &counts[3 * n], s.size());
  }
  void ended() override {
    saved_.reset();
    keep_.reset();
  }
  const void* sendbuf_;
  const dtype::Datatype& stype_;
  void* recvbuf_;
  const dtype::Datatype& rtype_;
  bool in_place_;
  std::vector<int> counts_;  // send counts, send displacements, receive counts, receive displacements
  bool quiet_ = false;
  std::unique_ptr<Temp> saved_, keep_;  // packed copies (in place, or by address and not contiguous)
};

// MPI_Alltoallw (not in place): AlltoallPlan's protocol with a datatype
// per block, src[j] this member's block for j, dst[j] its block from j.
// (The nonblocking form runs a schedule; a plan is the same on every member,
// so it may take the segment alone.)
class AlltoallwPlan final : public BlockExchangePlan {
 public:
  AlltoallwPlan(Segment& s, std::vector<Typed> src, std::vector<Typed> dst)
      : BlockExchangePlan(s, std::move(dst)), src_(std::move(src)), to_(src_.size(), 1) {
    to_[static_cast<std::size_t>(s.me())] = 0;
    quiet_ = true;  // nothing for anybody: no table posted (as iseg_alltoallv)
    for (std::size_t j = 0; j < src_.size(); ++j) quiet_ = quiet_ && (!to_[j] || src_[j].bytes() == 0);
  }

 private:
  void write() override {
    core::count(core::Counter::seg_alltoall);
    const auto me = static_cast<std::size_t>(seg().me());
    if (!quiet_) {
      by_address_ = publish_blocks(seg(), k(), src_, to_, &keep_, nullptr, false, true) == kByAddress;
      seg().wake_all();
    }
    copy_typed(src_[me], dst_[me]);
  }
  void ended() override { keep_.reset(); }
  std::vector<Typed> src_;
  std::vector<char> to_;
  bool quiet_ = false;
  std::unique_ptr<Temp> keep_;
};

// MPI_Scatter(v): as iseg_scatterv. `counts`: the root's counts then
// displacements (empty elsewhere).
class ScatterPlan final : public PersistentPlan {
 public:
  ScatterPlan(Segment& s, const void* sendbuf, const dtype::Datatype* stype, const Typed& recv, bool in_place,
              int root, std::vector<int> counts)
      : PersistentPlan(&s), sendbuf_(sendbuf), stype_(stype), recv_(recv), in_place_(in_place), root_(root),
        counts_(std::move(counts)) {
    if (s.me() == root) quiet_ = others_empty(s, counts_.data(), *stype);  // nothing for anybody: no table
  }

 private:
  bool root() const { return seg().me() == root_; }
  void write() override {
    core::count(core::Counter::seg_scatter);
    if (!root()) return;
    const int* displs = &counts_[counts_.size() / 2];
    if (quiet_) {
      if (!in_place_) copy_typed(block_of(sendbuf_, *stype_, displs[root_], counts_[std::size_t(root_)]), recv_);
      return;
    }
    by_address_ = start_scatter_root(seg(), k(), sendbuf_, counts_.data(), displs, *stype_, recv_, in_place_, &keep_,
                                     true) == kByAddress;
  }
  // A member receiving nothing reads nothing (as iseg_scatterv).
  bool reads() const override { return !root() && recv_.bytes() > 0; }
  bool ready() override { return !reads() || posted(seg(), root_, k()); }
  int complete() override {
    if (reads()) take_block(seg(), k(), root_, recv_);
    return MPI_SUCCESS;
  }
  bool released() override { return !by_address_ || seg().all_done(k()); }
  void ended() override { keep_.reset(); }
  const void* sendbuf_;
  const dtype::Datatype* stype_;
  Typed recv_;
  bool in_place_;
  int root_;
  std::vector<int> counts_;  // the root's: counts, displacements
  bool quiet_ = false;
  bool by_address_ = false;
  std::unique_ptr<Temp> keep_;
};

// MPI_Gather(v): as iseg_gatherv, pushes included (a member with a large
// block writes it into the root's buffer where the root asks). `dst`: the
// root's receive blocks (empty elsewhere). A member with an empty block
// posts nothing, and the root neither waits for it nor reads it.
class GatherPlan final : public PersistentPlan {
 public:
  GatherPlan(Segment& s, const Typed& send, bool in_place, std::vector<Typed> dst, int root)
      : PersistentPlan(&s), send_(send), in_place_(in_place), root_(root) {
    const auto n = static_cast<std::size_t>(s.size());
    if (s.me() != root) {
      quiet_ = send.bytes() == 0;
      blocks_.assign(n, Typed{});
      blocks_[static_cast<std::size_t>(root)] = send;
      to_.assign(n, 0);
      to_[static_cast<std::size_t>(root)] = 1;
      may_push_ = may_push(s, send.bytes());
      return;
    }
    blocks_ = std::move(dst);
    from_ = nonempty_others(s, blocks_, &any_);
    pushers_.assign(n, 0);
    if (s.single_copy())
      for (std::size_t j = 0; j < n; ++j)
        pushers_[j] = from_[j] && blocks_[j].type->contiguous() && may_push(s, blocks_[j].bytes());
  }

 private:
  bool root() const { return seg().me() == root_; }
  void write() override {
    core::count(core::Counter::seg_gather);
    Segment& s = seg();
    if (!root()) {
      if (quiet_) return;
      by_address_ = publish_blocks(s, k(), blocks_, to_, &keep_, nullptr, may_push_) == kByAddress;
      if (by_address_) s.wake(root_);  // else this member reads nothing: PersistentPlan::start wakes
      return;
    }
    if (!in_place_) copy_typed(send_, blocks_[static_cast<std::size_t>(root_)]);
    if (s.single_copy()) {  // every member with a large block waits for this table
      publish_destinations(s, k(), blocks_, pushers_);
      s.wake_all();
    }
  }
  bool reads() const override { return root() ? any_ : by_address_; }
  bool ready() override {
    if (!root()) return !by_address_ || posted(seg(), root_, k());
    return posted_all(seg(), k(), from_);
  }
  int complete() override {
    Segment& s = seg();
    if (!root()) {
      if (by_address_) push_block(s, k(), root_);
      return MPI_SUCCESS;
    }
    int e = MPI_SUCCESS;
    for (int j = 0; j < s.size(); ++j) {
      const auto at = static_cast<std::size_t>(j);
      if (from_[at])
        if (int f = take_gathered(s, k(), j, blocks_[at], pushers_[at])) e = f;
    }
    return e;
  }
  // A member that published by address: until the root is done; the root:
  // until the members it asked to push are.
  bool released() override {
    if (!root()) return !by_address_ || seg().done_at(root_, k());
    return seg().all_done(k(), pushers_);
  }
  void ended() override { keep_.reset(); }
  Typed send_;
  bool in_place_;
  int root_;
  std::vector<Typed> blocks_;  // a member's: its send block at the root's index; the root's: its receive blocks
  std::vector<char> to_, pushers_;
  std::vector<char> from_;  // the root's: the members with a non-empty block
  bool any_ = false, quiet_ = false;
  bool may_push_ = false;
  bool by_address_ = false;
  std::unique_ptr<Temp> keep_;
};


// ---- neighbourhood ---------------------------------------------------------------

// The members in `ranks` (sources or destinations), MPI_PROC_NULL left out.
std::vector<char> members_in(const Segment& s, const std::vector<int>& ranks) {
  std::vector<char> in(static_cast<std::size_t>(s.size()), 0);
  for (int j : ranks)
    if (j != MPI_PROC_NULL) in[static_cast<std::size_t>(j)] = 1;
  return in;
}

// MPI_Neighbor_*: as iseg_neighbor, with the block lists and the
// neighbour lists (held by `lists`) made at _init.
class NeighborPlan final : public PersistentPlan {
 public:
  NeighborPlan(Segment& s, NeighborArgs a, std::shared_ptr<const void> lists)
      : PersistentPlan(&s), a_(std::move(a)), lists_(std::move(lists)), from_(members_in(s, *a_.sources)),
        readers_(members_in(s, *a_.destinations)) {
    for (char f : from_) any_ = any_ || f;
  }

 private:
  void write() override {
    core::count(core::Counter::seg_neighbor);
    by_address_ = neighbor_publish(seg(), k(), a_, &keep_) == kByAddress;
  }
  bool reads() const override { return any_; }
  bool ready() override { return posted_all(seg(), k(), from_); }
  int complete() override {
    for (int j = 0; j < seg().size(); ++j)
      if (from_[static_cast<std::size_t>(j)]) neighbor_take(seg(), k(), a_, j);
    return MPI_SUCCESS;
  }
  // By address: until its destinations, the only members that read it, are done.
  bool released() override { return !by_address_ || seg().all_done(k(), readers_); }
  void ended() override { keep_.reset(); }
  NeighborArgs a_;
  std::shared_ptr<const void> lists_;
  std::vector<char> from_, readers_;
  bool any_ = false;
  bool by_address_ = false;
  std::unique_ptr<Temp> keep_;
};

// ---- two ranks by messages -----------------------------------------------------

// One internal message each way that moves (coll/persistent_plan.hpp, top):
// out_ to the peer, in_ from it. A family sets out_/in_ (a Typed of the
// user's memory; packed into / unpacked from a staging copy where not
// contiguous) and its local steps: begin() at the start before anything is
// sent, finish() once the peer's message is in and this member's own has
// left (so a send buffer that finish() overwrites, in place, is no longer
// read by a rendezvous).
class PairPlan : public PersistentPlan {
 public:
  explicit PairPlan(Segment& s) : PersistentPlan(&s) {}
  Algo algo() const override { return Algo::messages; }
  // Freed while an epoch runs (only MPI_Finalize frees an active request):
  // a request still in the engine's queues stays there with the engine.
  ~PairPlan() override {
    if (send_ && send_->complete) p2p::release_internal(send_);
  }
  // The epoch needs nothing of the segment (the plan keeps what it reads
  // of it, the rank): no reference taken, no atomic count per start.
  void start(comm::Comm& c, const std::shared_ptr<Segment>&) override {
    error_ = MPI_SUCCESS;
    const int peer = 1 - c.rank;
    peer_ = peer;
    peer_world_ = c.peer_world[static_cast<std::size_t>(peer)];
    context_ = c.coll_context();
    tag_ = next_tag(c);
    got_ = !has_in_;
    begin();
    if (!has_out_) return;
    const void* data = out_.buf;
    if (!out_.type->contiguous() || pack_out_) {
      dtype::pack(out_.buf, out_.count, *out_.type, 0, out_stage_.data(), out_stage_.size());
      data = out_stage_.data();
    }
    send_ = p2p::isend_internal(data, out_.bytes(), peer_world_, tag_, context_, c.rank);
  }
  bool reads() const override { return has_in_; }
  bool poll() override {
    if (!got_) {
      got_ = incoming_.poll(in_place(), in_.bytes(), peer_, peer_world_, tag_, context_, &error_);
      if (!got_) return false;
    }
    if (send_) {
      if (!send_->complete) return false;
      p2p::release_internal(send_);
      send_ = nullptr;
    }
    if (in_staged()) dtype::unpack(const_cast<void*>(in_.buf), in_.count, *in_.type, 0, in_stage_.data(), in_stage_.size());
    if (error_ == MPI_SUCCESS) error_ = finish();
    return true;
  }

 protected:
  // The message to send (has_out_) and the one to receive (has_in_); sizes
  // equal on both sides by the matching rule. pack_out_: send a packed copy
  // even of a contiguous out_ (alltoall in place receives into the block
  // it sends).
  void set_out(const Typed& t, bool pack = false) {
    out_ = t;
    has_out_ = true;
    pack_out_ = pack;
    if (!t.type->contiguous() || pack) out_stage_.resize(t.bytes());
  }
  void set_in(const Typed& t) {
    in_ = t;
    has_in_ = true;
    if (!t.type->contiguous()) in_stage_.resize(t.bytes());
  }
  virtual void begin() {}
  virtual int finish() { return MPI_SUCCESS; }
  void write() override {}

 private:
  bool in_staged() const { return has_in_ && !in_.type->contiguous(); }
  void* in_place() { return in_staged() ? in_stage_.data() : const_cast<void*>(in_.buf); }
  Typed out_{}, in_{};
  bool has_out_ = false, has_in_ = false, pack_out_ = false;
  std::vector<std::byte> out_stage_, in_stage_;
  int peer_ = 0, peer_world_ = 0, tag_ = 0;
  std::uint32_t context_ = 0;
  bool got_ = true;
  p2p::Request* send_ = nullptr;
  IncomingMessage incoming_;
};

// Whether a family's call of `bytes` per moving block takes the two-rank
// messages (the blocking call's choice, coll/select.cpp pair_rule, mode 0:
// a given RINGMPI_COLL_PAIR_* threshold, else the rules).
bool by_pair(const Segment& s, Family f, std::size_t bytes, bool exclusive = false) {
  if (s.size() != 2 || bytes == 0 || mode_now(f) != 0) return false;
  // Where the blocking call keeps the segment at np 2 (reduce, exscan), a
  // persistent request still gains by messages: the sender's start is done
  // once its entry is in the ring, with no wait in the next start for its
  // reader's done before it reuses its slot (np 2, 4 B - 4 KiB: 0.11-0.35
  // us against the segment plan's 0.18-0.47; barrier by two empty messages
  // lost, 0.16 against its counter's 0.12: persistent-partitioned.md).
  if (f == Family::reduce || (f == Family::scan && exclusive))
    return !s.oversubscribed() && bytes < thresholds().pair_other;
  Shape sh;
  sh.np = 2;
  sh.oversubscribed = s.oversubscribed();
  sh.pair_bytes = bytes;
  sh.bytes = f == Family::allgather ? 2 * bytes : bytes;  // the size the rules match: allgather's total
  sh.exclusive = exclusive;
  return pair_rule(f, thresholds(), sh);
}

class PairBcast final : public PairPlan {
 public:
  PairBcast(Segment& s, const Typed& buf, int root) : PairPlan(s) {
    if (s.me() == root)
      set_out(buf);
    else
      set_in(buf);
  }
};

// The reductions of two ranks: allreduce (x0 op x1 on both), reduce (at
// the root), the inclusive scan (x0 on rank 0, x0 op x1 on rank 1) and the
// exclusive one (x0 on rank 1). Operands in rank order (non-commutative ops).
enum class PairFold { all, root0, root1, scan, exscan };

class PairReduce final : public PairPlan {
 public:
  PairReduce(Segment& s, const Reduction& r, const void* mine, void* result, PairFold kind)
      : PairPlan(s), r_(r), mine_(mine), result_(result), m_(std::size_t(r.count) * r.type->size), kind_(kind),
        me_(s.me()) {
    const int me = me_;
    const bool chain = kind == PairFold::scan || kind == PairFold::exscan;
    const int root = kind == PairFold::root0 ? 0 : 1;
    sends_ = kind == PairFold::all || (chain ? me == 0 : me != root);
    folds_ = kind == PairFold::all || (chain ? me == 1 : me == root);
    other_.resize(m_);
    if (sends_) set_out(Typed{mine, r.count, r.type});
    if (folds_) set_in(Typed{other_.data(), r.count, r.type});
  }
  void begin() override {
    // Rank 0 of a scan keeps its own vector (sent eagerly, or by a
    // rendezvous that reads mine_, which this copy does not touch unless
    // in place, where it is a no-op).
    if (kind_ == PairFold::scan && me_ == 0 && result_ != mine_) std::memmove(result_, mine_, m_);
  }
  int finish() override {
    if (!folds_) return MPI_SUCCESS;
    if (kind_ == PairFold::exscan) {  // rank 1: x0
      std::memcpy(result_, other_.data(), m_);
      return MPI_SUCCESS;
    }
    if (me_ == 0) {  // other_ = x0 op x1, then the result
      const int e = seg::apply(r_, mine_, other_.data(), r_.count);
      std::memcpy(result_, other_.data(), m_);
      return e;
    }
    if (result_ != mine_) std::memmove(result_, mine_, m_);  // result = x0 op x1
    return seg::apply(r_, other_.data(), result_, r_.count);
  }

 private:
  Reduction r_;
  const void* mine_;
  void* result_;
  std::size_t m_;
  PairFold kind_;
  int me_;
  bool sends_ = false, folds_ = false;
  std::vector<std::byte> other_;
};

// Gather (gathers) and scatter at the root: the peer's block moves, the
// root's own block is copied locally.
class PairRooted final : public PairPlan {
 public:
  PairRooted(Segment& s, bool gathers, const Typed& own_from, const Typed& own_to, const Typed& moving, bool copy_own,
             int root)
      : PairPlan(s), from_(own_from), to_(own_to), copy_own_(copy_own && s.me() == root) {
    const bool here = s.me() == root;
    if (gathers == here)
      set_in(moving);
    else
      set_out(moving);
  }
  void begin() override {
    if (copy_own_) copy_typed(from_, to_);
  }

 private:
  Typed from_, to_;
  bool copy_own_;
};

// Allgather and alltoall: each member's block for the peer moves; its own
// is copied locally (unless in place).
class PairExchange final : public PairPlan {
 public:
  PairExchange(Segment& s, const Typed& out, const Typed& in, const Typed& own_from, const Typed& own_to,
               bool copy_own, bool pack_out)
      : PairPlan(s), from_(own_from), to_(own_to), copy_own_(copy_own) {
    set_out(out, pack_out);
    set_in(in);
  }
  void begin() override {
    if (copy_own_) copy_typed(from_, to_);
  }

 private:
  Typed from_, to_;
  bool copy_own_;
};
}  // namespace

std::unique_ptr<PersistentPlan> plan_barrier(Segment& s) { return std::make_unique<BarrierPlan>(&s); }

std::unique_ptr<PersistentPlan> plan_bcast(Segment& s, const Typed& buf, int root) {
  if (by_pair(s, Family::bcast, buf.bytes())) return std::make_unique<PairBcast>(s, buf, root);
  if (auto m = messages_bcast(s, buf, root)) return m;
  if (buf.bytes() == 0 || buf.bytes() > s.inline_max()) return nullptr;  // iseg_bcast's limit
  return std::make_unique<BcastPlan>(s, buf, root);
}

std::unique_ptr<PersistentPlan> plan_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root) {
  const std::size_t m = std::size_t(r.count) * r.type->size;
  if (r.type->contiguous() && by_pair(s, root < 0 ? Family::allreduce : Family::reduce, m))
    return std::make_unique<PairReduce>(s, r, mine, result,
                                        root < 0 ? PairFold::all : root == 0 ? PairFold::root0 : PairFold::root1);
  if (!vector_in_slot(s, r, m) || m > (s.size() == 2 ? s.inline_max() : s.fold_whole())) return nullptr;
  return std::make_unique<ReducePlan>(s, r, mine, result, root);
}

std::unique_ptr<PersistentPlan> plan_scan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive) {
  if (r.type->contiguous() && by_pair(s, Family::scan, std::size_t(r.count) * r.type->size, exclusive))
    return std::make_unique<PairReduce>(s, r, mine, result, exclusive ? PairFold::exscan : PairFold::scan);
  if (auto m = messages_scan(s, r, mine, result, exclusive)) return m;
  if (!vector_in_slot(s, r, std::size_t(r.count) * r.type->size)) return nullptr;
  return std::make_unique<ScanPlan>(s, r, mine, result, exclusive);
}

std::unique_ptr<PersistentPlan> plan_allgather(Segment& s, const Typed& send, bool in_place, void* recvbuf, int block,
                                     const dtype::Datatype& rtype) {
  const std::size_t bytes = std::size_t(block) * rtype.size;
  if (by_pair(s, Family::allgather, bytes)) {
    const Typed own = block_of(recvbuf, rtype, s.me() * block, block);
    return std::make_unique<PairExchange>(s, in_place ? own : send, block_of(recvbuf, rtype, (1 - s.me()) * block, block),
                                          send, own, !in_place, false);
  }
  if (bytes == 0 || (own_block_by_address(s, bytes, true) && !s.single_copy())) return nullptr;
  return std::make_unique<AllgatherPlan>(s, send, in_place, uniform_blocks(recvbuf, block, rtype, s.size()));
}

std::unique_ptr<PersistentPlan> plan_alltoall(Segment& s, const void* sendbuf, int sendcount, const dtype::Datatype& stype,
                                    void* recvbuf, int recvcount, const dtype::Datatype& rtype, bool in_place) {
  const std::size_t bytes = std::size_t(recvcount) * rtype.size;
  if (by_pair(s, Family::alltoall, bytes)) {
    const int me = s.me(), peer = 1 - me;
    const Typed to_peer = in_place ? block_of(recvbuf, rtype, peer * recvcount, recvcount)
                                   : block_of(sendbuf, stype, peer * sendcount, sendcount);
    const Typed own_from = in_place ? Typed{} : block_of(sendbuf, stype, me * sendcount, sendcount);
    return std::make_unique<PairExchange>(s, to_peer, block_of(recvbuf, rtype, peer * recvcount, recvcount), own_from,
                                          block_of(recvbuf, rtype, me * recvcount, recvcount), !in_place, in_place);
  }
  if (bytes == 0 || !tables_apply(s, static_cast<long long>(bytes))) return nullptr;
  const auto n = static_cast<std::size_t>(s.size());
  std::vector<int> counts(4 * n);
  for (std::size_t j = 0; j < n; ++j) {
    counts[j] = sendcount;
    counts[n + j] = static_cast<int>(j) * sendcount;
    counts[2 * n + j] = recvcount;
    counts[3 * n + j] = static_cast<int>(j) * recvcount;
  }
  return std::make_unique<AlltoallPlan>(s, sendbuf, stype, recvbuf, rtype, in_place, std::move(counts));
}

std::unique_ptr<PersistentPlan> plan_scatter(Segment& s, const void* sendbuf, int sendcount, const dtype::Datatype* stype,
                                   const Typed& recv, bool in_place, int root, long long block) {
  if (block > 0 && by_pair(s, Family::scatter, static_cast<std::size_t>(block))) {
    if (s.me() != root) return std::make_unique<PairRooted>(s, false, Typed{}, Typed{}, recv, false, root);
    const Typed own = block_of(sendbuf, *stype, root * sendcount, sendcount);
    return std::make_unique<PairRooted>(s, false, own, recv, block_of(sendbuf, *stype, (1 - root) * sendcount, sendcount),
                                        !in_place, root);
  }
  if (auto m = messages_scatter(s, sendbuf, sendcount, stype, recv, in_place, root, block)) return m;
  if (block <= 0 || !tables_apply(s, block)) return nullptr;
  std::vector<int> counts;
  if (s.me() == root) {
    const auto n = static_cast<std::size_t>(s.size());
    counts.resize(2 * n);
    for (std::size_t j = 0; j < n; ++j) {
      counts[j] = sendcount;
      counts[n + j] = static_cast<int>(j) * sendcount;
    }
  }
  return std::make_unique<ScatterPlan>(s, sendbuf, stype, recv, in_place, root, std::move(counts));
}

std::unique_ptr<PersistentPlan> plan_gather(Segment& s, const Typed& send, bool in_place, void* recvbuf, int recvcount,
                                  const dtype::Datatype* rtype, int root, long long block) {
  if (block > 0 && by_pair(s, Family::gather, static_cast<std::size_t>(block))) {
    if (s.me() != root) return std::make_unique<PairRooted>(s, true, Typed{}, Typed{}, send, false, root);
    return std::make_unique<PairRooted>(s, true, send, block_of(recvbuf, *rtype, root * recvcount, recvcount),
                                        block_of(recvbuf, *rtype, (1 - root) * recvcount, recvcount), !in_place, root);
  }
  if (block <= 0 || !tables_apply(s, block)) return nullptr;
  std::vector<Typed> dst;
  if (s.me() == root) dst = uniform_blocks(recvbuf, recvcount, *rtype, s.size());
  return std::make_unique<GatherPlan>(s, send, in_place, std::move(dst), root);
}

// ---- the v forms and reduce_scatter ---------------------------------------------

std::unique_ptr<PersistentPlan> plan_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result,
                                                    const int* counts) {
  if (!vector_in_slot(s, r, std::size_t(r.count) * r.type->size)) return nullptr;
  return std::make_unique<ReduceScatterPlan>(s, r, mine, result, counts);
}

std::unique_ptr<PersistentPlan> plan_gatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf,
                                             const int* counts, const int* displs, const dtype::Datatype* rtype,
                                             int root) {
  const int me = s.me();
  if (s.size() == 2) {
    // The moving block: the root knows it from its counts, the other member
    // from its send (equal by the matching rule).
    const std::size_t moving = me == root ? std::size_t(counts[1 - root]) * rtype->size : send.bytes();
    if (by_pair(s, Family::gather, moving)) {
      if (me != root) return std::make_unique<PairRooted>(s, true, Typed{}, Typed{}, send, false, root);
      return std::make_unique<PairRooted>(s, true, send, block_of(recvbuf, *rtype, displs[root], counts[root]),
                                          block_of(recvbuf, *rtype, displs[1 - root], counts[1 - root]), !in_place,
                                          root);
    }
  }
  // The members' block sizes are the root's alone to know: blocks that do
  // not fit a slot region need single copy (tables_apply with no common size).
  if (!tables_apply(s, -1)) return nullptr;
  std::vector<Typed> dst;
  if (me == root) dst = blocks_of(recvbuf, *rtype, counts, displs, s.size());
  return std::make_unique<GatherPlan>(s, send, in_place, std::move(dst), root);
}

std::unique_ptr<PersistentPlan> plan_scatterv(Segment& s, const void* sendbuf, const int* counts, const int* displs,
                                              const dtype::Datatype* stype, const Typed& recv, bool in_place,
                                              int root) {
  const int me = s.me();
  if (s.size() == 2) {
    const std::size_t moving = me == root ? std::size_t(counts[1 - root]) * stype->size : recv.bytes();
    if (by_pair(s, Family::scatter, moving)) {
      if (me != root) return std::make_unique<PairRooted>(s, false, Typed{}, Typed{}, recv, false, root);
      return std::make_unique<PairRooted>(s, false, block_of(sendbuf, *stype, displs[root], counts[root]), recv,
                                          block_of(sendbuf, *stype, displs[1 - root], counts[1 - root]), !in_place,
                                          root);
    }
  }
  if (!tables_apply(s, -1)) return nullptr;
  std::vector<int> c;
  if (me == root) {
    c.assign(counts, counts + s.size());
    c.insert(c.end(), displs, displs + s.size());
  }
  return std::make_unique<ScatterPlan>(s, sendbuf, stype, recv, in_place, root, std::move(c));
}

std::unique_ptr<PersistentPlan> plan_allgatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf,
                                                const int* counts, const int* displs, const dtype::Datatype& rtype) {
  const int n = s.size(), me = s.me();
  std::size_t total = 0;  // every member knows every count
  for (int j = 0; j < n; ++j) total += std::size_t(counts[j]) * rtype.size;
  if (n == 2 && counts[0] > 0 && counts[1] > 0 && by_pair(s, Family::allgather, total / 2)) {
    const Typed own = block_of(recvbuf, rtype, displs[me], counts[me]);
    return std::make_unique<PairExchange>(s, in_place ? own : send,
                                          block_of(recvbuf, rtype, displs[1 - me], counts[1 - me]), send, own,
                                          !in_place, false);
  }
  bool any_large;
  if (total == 0 || !allgather_applies(s, counts, rtype, &any_large, true)) return nullptr;
  return std::make_unique<AllgatherPlan>(s, send, in_place, blocks_of(recvbuf, rtype, counts, displs, n));
}

std::unique_ptr<PersistentPlan> plan_alltoallv(Segment& s, const void* sendbuf, const int* scounts,
                                               const int* sdispls, const dtype::Datatype& stype, void* recvbuf,
                                               const int* rcounts, const int* rdispls, const dtype::Datatype& rtype,
                                               bool in_place) {
  const int n = s.size(), me = s.me();
  if (n == 2) {
    // Both members know both moving blocks (one's send to the other is the
    // other's receive), so both take the pair messages, or neither.
    const int peer = 1 - me;
    const std::size_t out = in_place ? std::size_t(rcounts[peer]) * rtype.size : std::size_t(scounts[peer]) * stype.size;
    const std::size_t in = std::size_t(rcounts[peer]) * rtype.size;
    if (out > 0 && in > 0 && by_pair(s, Family::alltoall, std::max(out, in))) {
      const Typed to_peer = in_place ? block_of(recvbuf, rtype, rdispls[peer], rcounts[peer])
                                     : block_of(sendbuf, stype, sdispls[peer], scounts[peer]);
      const Typed own_from = in_place ? Typed{} : block_of(sendbuf, stype, sdispls[me], scounts[me]);
      return std::make_unique<PairExchange>(s, to_peer, block_of(recvbuf, rtype, rdispls[peer], rcounts[peer]),
                                            own_from, block_of(recvbuf, rtype, rdispls[me], rcounts[me]), !in_place,
                                            in_place);
    }
  }
  if (!tables_apply(s, -1)) return nullptr;
  const auto un = static_cast<std::size_t>(n);
  std::vector<int> c(4 * un, 0);
  if (!in_place) {
    std::copy(scounts, scounts + n, c.begin());
    std::copy(sdispls, sdispls + n, c.begin() + static_cast<std::ptrdiff_t>(un));
  }
  std::copy(rcounts, rcounts + n, c.begin() + static_cast<std::ptrdiff_t>(2 * un));
  std::copy(rdispls, rdispls + n, c.begin() + static_cast<std::ptrdiff_t>(3 * un));
  return std::make_unique<AlltoallPlan>(s, sendbuf, in_place ? rtype : stype, recvbuf, rtype, in_place, std::move(c));
}

std::unique_ptr<PersistentPlan> plan_neighbor(Segment& s, NeighborArgs a, int max_outdegree,
                                              std::shared_ptr<const void> lists) {
  if (!seg::neighbor_fits(s, max_outdegree, a.gather)) return nullptr;
  return std::make_unique<NeighborPlan>(s, std::move(a), std::move(lists));
}

std::unique_ptr<PersistentPlan> plan_alltoallw(Segment& s, std::vector<Typed> src, std::vector<Typed> dst) {
  if (!tables_apply(s, -1)) return nullptr;  // the block sizes are each pair's to know: single copy
  return std::make_unique<AlltoallwPlan>(s, std::move(src), std::move(dst));
}

}  // namespace ringmpi::coll
