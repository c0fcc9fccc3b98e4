// World barrier: a counter and a generation word in the RankSlot of the
// world's first slot (each spawn is a world of its own: shm/arena.hpp).
// Each arriver reads the generation, then increments the count; the last
// arriver resets the count (relaxed) and then bumps the generation (release),
// so a rank that sees the new generation also sees the count at zero when it
// enters the next barrier. Waiters sleep on their own doorbells; the last
// arriver wakes them.
#include "coll/barrier.hpp"

#include "coll/base.hpp"
#include "coll/fits.hpp"
#include "coll/plan.hpp"
#include "coll/seg.hpp"
#include "core/counters.hpp"
#include "core/runtime.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::coll {

void barrier_world() {
  core::Runtime& r = core::rt();
  if (r.world_size == 1) return;
  shm::RankSlot& h = r.arena.slot(static_cast<std::uint32_t>(r.world_base));
  const std::uint32_t gen = h.barrier_generation.load(std::memory_order_acquire);
  if (h.barrier_count.fetch_add(1, std::memory_order_acq_rel) + 1 == std::uint32_t(r.world_size)) {
    h.barrier_count.store(0, std::memory_order_relaxed);
    h.barrier_generation.store(gen + 1, std::memory_order_release);
    for (int i = r.world_base; i < r.world_base + r.world_size; ++i)
      if (i != r.rank) p2p::wake(i);
    return;
  }
  p2p::wait_until([&] { return h.barrier_generation.load(std::memory_order_acquire) != gen; });
}

int barrier(MPI_Comm handle, comm::Comm& c, std::string* why) {
  Shape shape;
  Segment* seg = prepare(c, Family::barrier, false, handle == MPI_COMM_WORLD, &shape);
  barrier_fits(seg, &shape);
  Plan& plan = plan_of(c);
  if (plan.barrier_kind != Algo::none && plan.barrier_segment.lock() != c.coll.segment)
    plan.barrier_kind = Algo::none;  // another segment: not yet fixed
  shape.barrier_kind = plan.barrier_kind;
  Algo a;
  std::string reason;
  if (int e = select(c, Family::barrier, shape, &a, &reason)) {
    if (why) {
      *why = std::move(reason);
      return e;
    }
    const char* ignored;  // the library's own barrier: the default choice
    a = choose(Family::barrier, Setting{}, plan_of(c).limits, shape, &ignored);
    count(c, Family::barrier, a);
  }
  const Timed timed(c, Family::barrier, a);
  switch (a) {
    case Algo::local: break;
    case Algo::segment:  // the kind chosen here, for the segment's whole life (select.hpp)
      plan.barrier_kind = a;
      plan.barrier_segment = c.coll.segment;
      core::count(core::Counter::seg_barrier);
      seg->barrier();
      break;
    case Algo::numa_leaders:
      plan.barrier_kind = a;
      plan.barrier_segment = c.coll.segment;
      core::count(core::Counter::seg_barrier);
      core::count(core::Counter::seg_two_level);
      seg->barrier_two_level();
      break;
    case Algo::world_counter: barrier_world(); break;
    default: barrier(peers_of(c)); break;
  }
  return MPI_SUCCESS;
}

}  // namespace ringmpi::coll
