// Persistent bcast, scatter and scan by internal messages on three or more
// ranks: coll/persistent_messages.hpp says when and what each sends.
//
// One epoch of a member: begin() (local copies that need nothing from
// others), the sends that need no receive, then in poll(): the one incoming
// message (if the member has one), received(), the sends that forward it,
// every send gone, finish(). The memory a send reads (the user's buffer,
// or a staging copy where the datatype is not contiguous) is not written
// again before that send is complete, and a member's result is written only
// from what it received, so an epoch is over when poll() says true.
#include "coll/persistent_messages.hpp"

#include <cstring>
#include <vector>

#include "coll/schedule.hpp"
#include "coll/seg_common.hpp"
#include "coll/select.hpp"
#include "comm/comm.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/request.hpp"

namespace ringmpi::coll {

IncomingMessage::~IncomingMessage() {
  if (posted_ && posted_->complete) p2p::release_internal(posted_);
}

bool IncomingMessage::poll(void* buf, std::size_t bytes, int from, int from_world, int tag, std::uint32_t context,
                           int* error) {
  if (!posted_) {
    std::size_t n;
    const int got = p2p::try_recv_internal(buf, bytes, from, from_world, tag, context, &n);
    if (got > 0) return true;
    if (got == 0) return false;
    posted_ = p2p::irecv_internal(buf, bytes, from, tag, context);
  }
  if (!posted_->complete) return false;
  if (posted_->st_error != MPI_SUCCESS) *error = posted_->st_error;
  p2p::release_internal(posted_);
  posted_ = nullptr;
  return true;
}

namespace {

// Whether the blocking call of shape (family, bytes) on s's communicator
// goes by messages (the selection table's rules: mode 0, nothing forced or
// given), on three or more ranks.
bool by_messages(const Segment& s, Family f, std::size_t bytes, bool exclusive = false) {
  if (s.size() < 3 || bytes == 0 || mode_now(f) != 0) return false;
  Shape sh;
  sh.np = s.size();
  sh.oversubscribed = s.oversubscribed();
  sh.bytes = bytes;
  sh.count = 1;
  sh.exclusive = exclusive;
  return blocking_choice(f, thresholds(), sh) == Algo::messages;
}

class MessagePlan : public PersistentPlan {
 public:
  explicit MessagePlan(Segment& s) : PersistentPlan(&s), me_(s.me()) {}
  Algo algo() const override { return Algo::messages; }
  // Freed while an epoch runs (only MPI_Finalize frees an active request):
  // requests still in the engine's queues stay there with the engine.
  ~MessagePlan() override {
    for (p2p::Request* r : sends_)
      if (r->complete) p2p::release_internal(r);
  }
  // The epoch needs nothing of the segment: no reference taken.
  void start(comm::Comm& c, const std::shared_ptr<Segment>&) override {
    error_ = MPI_SUCCESS;
    if (!resolved_) {  // the world ranks, kept: the communicator of this plan never changes them
      for (Out& o : outs_) o.world = c.peer_world[static_cast<std::size_t>(o.to)];
      if (from_ >= 0) from_world_ = c.peer_world[static_cast<std::size_t>(from_)];
      resolved_ = true;
    }
    context_ = c.coll_context();
    tag_ = next_tag(c);
    got_ = from_ < 0;
    forwarded_ = false;
    begin();
    if (got_) forward();
  }
  bool reads() const override { return from_ >= 0; }
  bool poll() override {
    if (!got_) {
      if (!incoming_.poll(in_, in_bytes_, from_, from_world_, tag_, context_, &error_)) return false;
      if (error_ == MPI_SUCCESS) error_ = received();
      forward();
    }
    for (std::size_t i = 0; i < sends_.size();) {
      if (!sends_[i]->complete) return false;
      p2p::release_internal(sends_[i]);
      sends_[i] = sends_.back();
      sends_.pop_back();
    }
    if (error_ == MPI_SUCCESS) error_ = finish();
    return true;
  }

 protected:
  // The member this one receives from (-1: none) into `in` (in_bytes).
  void set_in(int from, void* in, std::size_t bytes) {
    from_ = from;
    in_ = in;
    in_bytes_ = bytes;
  }
  // A message of `bytes` from `data` to member `to`, sent once the member
  // has its incoming message (at once where it has none).
  void add_out(int to, const void* data, std::size_t bytes) { outs_.push_back(Out{to, -1, data, bytes}); }
  virtual void begin() {}
  virtual int received() { return MPI_SUCCESS; }
  virtual int finish() { return MPI_SUCCESS; }
  void write() override {}
  int me_;

 private:
  struct Out {
    int to, world;  // member, and its world rank (set at the first start)
    const void* data;
    std::size_t bytes;
  };
  void forward() {
    got_ = true;
    if (forwarded_) return;
    forwarded_ = true;
    for (const Out& o : outs_)
      if (p2p::Request* r = p2p::isend_internal(o.data, o.bytes, o.world, tag_, context_, me_)) sends_.push_back(r);
  }
  int from_ = -1;
  void* in_ = nullptr;
  std::size_t in_bytes_ = 0;
  std::vector<Out> outs_;
  int from_world_ = -1;
  bool resolved_ = false;
  std::uint32_t context_ = 0;
  int tag_ = 0;
  bool got_ = true, forwarded_ = false;
  std::vector<p2p::Request*> sends_;
  IncomingMessage incoming_;
};

// The binomial tree of bcast_bytes rooted at `root`, on the packed bytes.
class TreeBcast final : public MessagePlan {
 public:
  TreeBcast(Segment& s, const Typed& buf, int root) : MessagePlan(s), buf_(buf), root_(root) {
    const int n = s.size(), vr = (me_ - root + n) % n;
    void* data = const_cast<void*>(buf.buf);
    if (!buf.type->contiguous()) {
      stage_.resize(buf.bytes());
      data = stage_.data();
    }
    int mask = 1;
    while (mask < n) {
      if (vr & mask) {
        set_in((vr - mask + root) % n, data, buf.bytes());
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (vr + mask < n) add_out((vr + mask + root) % n, data, buf.bytes());
  }

 private:
  void begin() override {
    if (me_ == root_ && !stage_.empty()) dtype::pack(buf_.buf, buf_.count, *buf_.type, 0, stage_.data(), stage_.size());
  }
  int finish() override {
    if (me_ != root_ && !stage_.empty())
      dtype::unpack(const_cast<void*>(buf_.buf), buf_.count, *buf_.type, 0, stage_.data(), stage_.size());
    return MPI_SUCCESS;
  }
  Typed buf_;
  int root_;
  std::vector<std::byte> stage_;
};

// The root sends member i its block i; the others receive one message.
class LinearScatter final : public MessagePlan {
 public:
  LinearScatter(Segment& s, const void* sendbuf, int sendcount, const dtype::Datatype* stype, const Typed& recv,
                bool in_place, int root, std::size_t block)
      : MessagePlan(s), recv_(recv), root_(root) {
    const int n = s.size();
    if (me_ != root) {
      void* data = const_cast<void*>(recv.buf);
      if (!recv.type->contiguous()) {
        stage_.resize(block);
        data = stage_.data();
      }
      set_in(root, data, block);
      return;
    }
    if (!in_place) own_from_ = seg::block_of(sendbuf, *stype, root * sendcount, sendcount);
    const bool packs = !stype->contiguous();
    if (packs) stage_.resize(block * std::size_t(n));
    for (int i = 0; i < n; ++i) {
      if (i == root) continue;
      const Typed b = seg::block_of(sendbuf, *stype, i * sendcount, sendcount);
      std::byte* packed = packs ? stage_.data() + block * std::size_t(i) : nullptr;
      if (packs) packs_.push_back(Pack{b, packed, block});
      add_out(i, packs ? static_cast<const void*>(packed) : b.buf, block);
    }
  }

 private:
  // A block of a non-contiguous send type, packed into its place in stage_ at each start.
  struct Pack {
    Typed from;
    std::byte* to;
    std::size_t bytes;
  };
  void begin() override {
    for (const Pack& p : packs_) dtype::pack(p.from.buf, p.from.count, *p.from.type, 0, p.to, p.bytes);
    if (own_from_.type) copy_typed(own_from_, recv_);  // the root, not in place
  }
  int finish() override {
    if (me_ != root_ && !stage_.empty())
      dtype::unpack(const_cast<void*>(recv_.buf), recv_.count, *recv_.type, 0, stage_.data(), stage_.size());
    return MPI_SUCCESS;
  }
  Typed recv_;
  int root_;
  Typed own_from_{};         // the root's own block (its type null where in place or not the root)
  std::vector<Pack> packs_;  // the root's blocks of a non-contiguous send type, its own excluded
  std::vector<std::byte> stage_;
};

// The chain of coll::scan: partial(k) = x0 op ... op xk travels from rank k
// to rank k + 1; each rank folds with its own operation only (operands in
// rank order, for non-commutative operations). Contiguous types only.
class ChainScan final : public MessagePlan {
 public:
  ChainScan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive)
      : MessagePlan(s), r_(r), mine_(mine), result_(result), m_(std::size_t(r.count) * r.type->size),
        exclusive_(exclusive) {
    acc_.resize(m_);
    if (me_ > 0) {
      prev_.resize(m_);
      set_in(me_ - 1, prev_.data(), m_);
    }
    if (me_ + 1 < s.size()) add_out(me_ + 1, acc_.data(), m_);
  }

 private:
  void begin() override {
    if (me_ != 0) return;
    std::memcpy(acc_.data(), mine_, m_);
    if (!exclusive_ && result_ != mine_) std::memmove(result_, mine_, m_);
  }
  int received() override {
    std::memcpy(acc_.data(), mine_, m_);  // mine_ may be result_ (in place): read before the result is written
    const int e = seg::apply(r_, prev_.data(), acc_.data(), r_.count);  // prev op x(rank)
    std::memcpy(result_, exclusive_ ? prev_.data() : acc_.data(), m_);
    return e;
  }
  Reduction r_;
  const void* mine_;
  void* result_;
  std::size_t m_;
  bool exclusive_;
  std::vector<std::byte> acc_, prev_;
};

}  // namespace

std::unique_ptr<PersistentPlan> messages_bcast(Segment& s, const Typed& buf, int root) {
  if (!by_messages(s, Family::bcast, buf.bytes())) return nullptr;
  return std::make_unique<TreeBcast>(s, buf, root);
}

std::unique_ptr<PersistentPlan> messages_scatter(Segment& s, const void* sendbuf, int sendcount,
                                                 const dtype::Datatype* stype, const Typed& recv, bool in_place,
                                                 int root, long long block) {
  if (block <= 0 || !by_messages(s, Family::scatter, static_cast<std::size_t>(block))) return nullptr;
  return std::make_unique<LinearScatter>(s, sendbuf, sendcount, stype, recv, in_place, root,
                                         static_cast<std::size_t>(block));
}

std::unique_ptr<PersistentPlan> messages_scan(Segment& s, const Reduction& r, const void* mine, void* result,
                                              bool exclusive) {
  const std::size_t m = std::size_t(r.count) * r.type->size;
  if (!r.type->contiguous() || !by_messages(s, Family::scan, m, exclusive)) return nullptr;
  return std::make_unique<ChainScan>(s, r, mine, result, exclusive);
}

}  // namespace ringmpi::coll
