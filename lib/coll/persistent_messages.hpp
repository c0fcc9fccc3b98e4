// Persistent collectives by internal messages on three or more ranks
// (coll/persistent_plan.hpp makes them; lib/api/coll_persist.cpp starts them).
//
// Where the blocking call of the same shape goes by point-to-point messages
// (the selection table: the compiled rules send small bcasts, scatters and
// scans of oversubscribed communicators to messages, so a root or a low rank
// runs ahead instead of waiting for readers that are not scheduled), the
// persistent request runs the same message pattern as a plan, decided once:
//   bcast:  the binomial tree of coll/typed.cpp bcast_bytes (receive from
//           the parent, then forward to the children);
//   scatter: the root sends each member its block (coll/movement.cpp scatterv);
//   scan, exscan: the chain of coll/reduction.cpp scan (rank k receives the
//           partial result of ranks 0..k-1, folds its own, passes it on).
// A start takes the communicator's next schedule tag (coll/schedule.hpp
// next_tag), as PairPlan does, so its messages match nothing else; it sends
// what needs no receive first (a root's blocks, rank 0's vector) and the
// epoch's poll takes the one incoming message straight from the ring when it
// is next there (p2p::try_recv_internal), else by a posted internal receive,
// then forwards. Every member decides alike: the family, the sizes every
// member knows, the communicator size and its agreed oversubscription.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "coll/persistent_plan.hpp"

namespace ringmpi::p2p {
struct Request;
}

namespace ringmpi::coll {

// The one incoming message of a plan's epoch (PairPlan's and the plans
// below): taken straight from the sender's ring when it is the next record
// there (p2p::try_recv_internal: one look, no progress, so it may run inside
// progress()), else by a posted internal receive polled until complete.
class IncomingMessage {
 public:
  IncomingMessage() = default;
  IncomingMessage(const IncomingMessage&) = delete;
  IncomingMessage& operator=(const IncomingMessage&) = delete;
  // Freed while an epoch runs (only MPI_Finalize frees an active request):
  // a receive still in the engine's queues stays there with the engine.
  ~IncomingMessage();
  // Whether the message (at most `bytes` into buf, from member `from`,
  // world rank from_world) is in; a failed receive's class goes to *error.
  bool poll(void* buf, std::size_t bytes, int from, int from_world, int tag, std::uint32_t context, int* error);

 private:
  p2p::Request* posted_ = nullptr;
};

// Each returns nullptr where the blocking call of this shape does not take
// messages (then the caller plans the segment, or the nonblocking form runs).
std::unique_ptr<PersistentPlan> messages_bcast(Segment& s, const Typed& buf, int root);
// `block`: the bytes of every block; the root's blocks are sendcount of
// stype from sendbuf; recv unused at the root in place.
std::unique_ptr<PersistentPlan> messages_scatter(Segment& s, const void* sendbuf, int sendcount,
                                                 const dtype::Datatype* stype, const Typed& recv, bool in_place,
                                                 int root, long long block);
std::unique_ptr<PersistentPlan> messages_scan(Segment& s, const Reduction& r, const void* mine, void* result,
                                              bool exclusive);

}  // namespace ringmpi::coll
