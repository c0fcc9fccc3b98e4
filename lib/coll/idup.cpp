// MPI_Comm_idup as a schedule: every participant offers the context slots
// it reserved at the call (comm/context.hpp, invariant 8) to all others; the
// last step ANDs the offers, hands the reservation back and makes the
// duplicate on the lowest common slot, as MPI_Comm_dup does.
#include "coll/idup.hpp"

#include <memory>

#include "coll/schedule.hpp"
#include "coll/segment.hpp"
#include "comm/create.hpp"

namespace ringmpi::coll {

int idup(MPI_Comm parent_handle, comm::Comm& parent, MPI_Comm* newcomm, MPI_Request* request,
         const comm::Hints* hints) {
  // What each participant sends every other: its context slots, and (rank
  // 0, the duplicate's rank 0) a shared segment it reserved for the
  // duplicate, as MPI_Comm_dup offers one in its round (coll/segment.hpp,
  // reserve_offer), so that a duplicate used only for nonblocking
  // collectives has its segment from the start.
  struct Offer {
    comm::ContextPool::Mask mask;
    std::int32_t segment;
  };
  // The key of the reservation (comm/context.hpp, invariant 8): the same in
  // every participant, different for every other idup pending anywhere.
  const std::uint64_t key = (std::uint64_t{parent.context} << 32) | parent.schedule_seq;
  auto s = make_schedule(parent);
  Schedule* sp = s.get();
  const int n = s->peers().size(), me = s->peers().me;
  auto offers = std::make_shared<std::vector<Offer>>(static_cast<std::size_t>(n));
  Offer& mine = (*offers)[static_cast<std::size_t>(me)];
  mine.mask = comm::state().contexts.reserve(key, comm::busy_slots());
  mine.segment = reserve_offer(parent, 0);
  s->keep(offers);
  for (int k = 1; k < n; ++k) s->send((me + k) % n, &mine, sizeof(Offer));
  for (int k = 1; k < n; ++k) {
    const int i = (me - k + n) % n;
    s->recv(i, &(*offers)[static_cast<std::size_t>(i)], sizeof(Offer));
  }
  s->round();
  *newcomm = MPI_COMM_NULL;
  const int owner = parent.inter ? -1 : parent.peer_world[0];
  std::shared_ptr<const comm::Hints> own_hints = hints ? std::make_shared<const comm::Hints>(*hints) : nullptr;
  s->local([sp, offers, me, n, owner, parent_handle, newcomm, own_hints] {
    comm::ContextPool::Mask agreed = (*offers)[static_cast<std::size_t>(me)].mask;
    comm::state().contexts.unreserve(agreed);
    for (const Offer& o : *offers)
      for (int w = 0; w < comm::ContextPool::kWords; ++w) agreed[static_cast<std::size_t>(w)] &= o.mask[static_cast<std::size_t>(w)];
    comm::SegmentOffer seg;
    seg.offer = (*offers)[static_cast<std::size_t>(me)].segment;
    if (owner >= 0 && n > 1) {  // as comm::take_offer: rank 0's reservation
      seg.index = (*offers)[0].segment;
      seg.owner = owner;
      seg.size = n;
    }
    comm::Comm* p = comm::lookup(parent_handle);
    if (!p) {
      settle_offer(nullptr, nullptr, seg);
      sp->fail(MPI_ERR_COMM, "the parent communicator was freed before MPI_Comm_idup completed");
      return MPI_SUCCESS;
    }
    const comm::Made made = comm::dup_on(parent_handle, *p, agreed);
    *newcomm = made.handle;
    if (comm::Comm* c = comm::made_comm(made); c && own_hints) c->hints = *own_hints;
    settle_offer(comm::made_comm(made), p, seg);
    if (made.code != MPI_SUCCESS) sp->fail(made.code, made.why);
    return MPI_SUCCESS;
  });
  return start(std::move(s), parent_handle, request);
}

}  // namespace ringmpi::coll
