// MPI_Comm_idup as a schedule: every participant offers the context slots
// it reserved at the call (comm/context.hpp, invariant 8) to all others; the
// last step ANDs the offers, hands the reservation back and makes the
// duplicate on the lowest common slot, as MPI_Comm_dup does.
#include "coll/idup.hpp"

#include <memory>

#include "coll/schedule.hpp"
#include "comm/create.hpp"

namespace ringmpi::coll {

int idup(MPI_Comm parent_handle, comm::Comm& parent, MPI_Comm* newcomm, MPI_Request* request) {
  using Mask = comm::ContextPool::Mask;
  // The key of the reservation (comm/context.hpp, invariant 8): the same in
  // every participant, different for every other idup pending anywhere.
  const std::uint64_t key = (std::uint64_t{parent.context} << 32) | parent.schedule_seq;
  auto s = make_schedule(parent);
  Schedule* sp = s.get();
  const int n = s->peers().size(), me = s->peers().me;
  auto offers = std::make_shared<std::vector<Mask>>(static_cast<std::size_t>(n));
  (*offers)[static_cast<std::size_t>(me)] = comm::state().contexts.reserve(key, comm::busy_slots());
  s->keep(offers);
  for (int k = 1; k < n; ++k) s->send((me + k) % n, &(*offers)[static_cast<std::size_t>(me)], sizeof(Mask));
  for (int k = 1; k < n; ++k) {
    const int i = (me - k + n) % n;
    s->recv(i, &(*offers)[static_cast<std::size_t>(i)], sizeof(Mask));
  }
  s->round();
  *newcomm = MPI_COMM_NULL;
  s->local([sp, offers, me, parent_handle, newcomm] {
    Mask agreed = (*offers)[static_cast<std::size_t>(me)];
    comm::state().contexts.unreserve(agreed);
    for (const Mask& m : *offers)
      for (int w = 0; w < comm::ContextPool::kWords; ++w) agreed[static_cast<std::size_t>(w)] &= m[static_cast<std::size_t>(w)];
    const comm::Comm* p = comm::lookup(parent_handle);
    if (!p) {
      sp->fail(MPI_ERR_COMM, "the parent communicator was freed before MPI_Comm_idup completed");
      return MPI_SUCCESS;
    }
    const comm::Made made = comm::dup_on(parent_handle, *p, agreed);
    *newcomm = made.handle;
    if (made.code != MPI_SUCCESS) sp->fail(made.code, made.why);
    return MPI_SUCCESS;
  });
  return start(std::move(s), parent_handle, request);
}

}  // namespace ringmpi::coll
