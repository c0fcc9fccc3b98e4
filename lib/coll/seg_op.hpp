// One member's part of a nonblocking collective on the shared segment
// (seg_nonblocking*.cpp): an extension request (lib/p2p/extension.hpp) whose
// steps are
//   start    the member writes all it contributes (slot region or published
//            address) and posts, in the iseg_* function itself;
//   ready()  the posts its reads need are there (other members' starts);
//   complete() the reads (and folds): an error class; then done = k;
//   released() nobody reads this member's published memory any more (the
//            readers' done >= k): only then is the request complete, since
//            the memory may be the caller's buffer.
// ready() and released() depend on nothing but other members' starts and
// their progress (which every MPI call makes), never on a later call of
// theirs: the segment's rule for nonblocking collectives (segment.hpp).
#pragma once

#include <memory>
#include <type_traits>
#include <vector>

#include "coll/seg_common.hpp"
#include "dtype/datatype.hpp"
#include "p2p/extension.hpp"

namespace ringmpi::coll::seg {

// Storage of the operations of nonblocking segment collectives: one is made
// at every start and freed at its completion, so freed blocks are kept on a
// free list per 64-byte size class (a few hundred instructions of malloc and
// free per call otherwise, on a start that is otherwise a few stores). Not
// locked: operations are made and freed only inside MPI calls, which the
// call lock serializes at MPI_THREAD_MULTIPLE (core/call_lock.hpp).
struct Pooled {
  static void* operator new(std::size_t bytes);
  static void operator delete(void* p, std::size_t bytes);
};

class SegOp : public p2p::Extension, public Pooled {
 public:
  SegOp(std::shared_ptr<Segment> seg, std::uint64_t k) : seg_(std::move(seg)), k_(k) {}

  // Keeps p (a derived datatype, a temporary) alive until the operation ends; null is ignored.
  void keep(std::shared_ptr<const void> p) {
    if (p) kept_.push_back(std::move(p));
  }
  // Segment::pending entry: completes the reads if it can.
  bool try_complete() {
    if (!ready()) return false;
    error_ = complete();
    seg_->store_done(k_);
    read_ = true;
    return true;
  }
  bool poll() override {
    if (!read_) seg_->drain();
    return read_ && released();
  }
  int error() const override { return error_; }
  const char* describe() const override {
    return error_ == MPI_ERR_TRUNCATE ? "a member's block is longer than the root's receive block for it (send and "
                                        "receive type signatures must match, MPI-3.1 §5.5)"
                                      : "applying the reduction operation failed";
  }
  // Whether complete() reads other members' data (ready() waits for them).
  virtual bool reads() const = 0;

 private:
  virtual bool ready() = 0;
  virtual int complete() = 0;
  virtual bool released() = 0;
  std::shared_ptr<Segment> seg_;
  std::vector<std::shared_ptr<const void>> kept_;  // empty (no allocation) for predefined types
  std::uint64_t k_;
  bool read_ = false;
  int error_ = MPI_SUCCESS;
};

// ready() of an operation that reads nothing, complete() of one with nothing to do.
inline const auto always = [] { return true; };
inline const auto nothing = [] { return MPI_SUCCESS; };

// A SegOp from three callables (a template, so starting one allocates
// nothing but the operation itself).
template <class Ready, class Complete, class Released>
class SegOpOf final : public SegOp {
 public:
  SegOpOf(std::shared_ptr<Segment> seg, std::uint64_t k, Ready ready, Complete complete, Released released)
      : SegOp(std::move(seg), k),
        ready_(std::move(ready)),
        complete_(std::move(complete)),
        released_(std::move(released)) {}

 private:
  bool ready() override { return ready_(); }
  int complete() override { return complete_(); }
  bool released() override { return released_(); }
  bool reads() const override { return !std::is_same_v<Ready, std::decay_t<decltype(always)>>; }
  Ready ready_;
  Complete complete_;
  Released released_;
};

template <class Ready, class Complete, class Released = decltype(always)>
std::unique_ptr<SegOp> make_op(const std::shared_ptr<Segment>& s, std::uint64_t k, Ready ready, Complete complete,
                               Released released = always) {
  return std::make_unique<SegOpOf<Ready, Complete, Released>>(s, k, std::move(ready), std::move(complete),
                                                              std::move(released));
}

// Queues op on s and starts its request. Queued first, so that the request's
// first poll (a drain) can complete it at once when it reads nothing (a
// bcast root, a reduce non-root, a scatter root): its MPI_Wait then costs
// nothing. An operation that reads is not polled in the start: its reads
// and folds run in the next progress (MPI_Test, MPI_Wait, any call), so the
// start returns after the writes, and an application computing between
// start and wait gets the reads done inside its computation, not before it.
inline int start_op(std::unique_ptr<SegOp> op, Segment& s, MPI_Comm comm, MPI_Request* request) {
  SegOp* raw = op.get();
  const bool poll_now = !op->reads();
  s.add_pending([raw] { return raw->try_complete(); });
  if (int e = p2p::start_extension(std::move(op), comm, request, poll_now)) {
    s.drop_last_pending();  // never started: nobody waits for its done
    return e;
  }
  return MPI_SUCCESS;
}

// h, kept alive, when it is a derived datatype; null for a predefined one.
inline std::shared_ptr<const void> keep_type(MPI_Datatype h) {
  dtype::TypePtr t = dtype::lookup_shared(h);
  return t && !t->predefined ? std::shared_ptr<const void>(std::move(t)) : nullptr;
}
// The same when the caller has looked h up already (t: h's object, or null):
// a predefined type needs no handle lookup.
inline std::shared_ptr<const void> keep_type(MPI_Datatype h, const dtype::Datatype* t) {
  return t && t->predefined ? nullptr : keep_type(h);
}

// released() of an operation: this member's published memory is free once
// every reader's done >= k (nothing to wait for when it went into the slot).
// `who` (one char per member, kept by the lambda): the readers, where they
// are not all the others (Segment::all_done).
template <class Who = std::span<const char>>
inline auto readers_done(Segment& s, std::uint64_t k, bool by_address, Who who = {}) {
  return [&s, k, by_address, who = std::move(who)] { return !by_address || s.all_done(k, who); };
}

}  // namespace ringmpi::coll::seg
