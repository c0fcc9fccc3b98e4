// World barrier: a counter and a generation word in the RankSlot of the
// world's first slot (each spawn is a world of its own: shm/arena.hpp).
// Each arriver reads the generation, then increments the count; the last
// arriver resets the count (relaxed) and then bumps the generation (release),
// so a rank that sees the new generation also sees the count at zero when it
// enters the next barrier. Waiters sleep on their own doorbells; the last
// arriver wakes them.
#include "coll/barrier.hpp"

#include "coll/base.hpp"
#include "coll/seg.hpp"
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

void barrier(MPI_Comm handle, comm::Comm& c) {
  if (!c.inter && c.size() == 1) return;
  if (Segment* s = segment_for(c, tunables::Id::coll_barrier)) return seg_barrier(*s);
  if (handle == MPI_COMM_WORLD) return barrier_world();
  barrier(peers_of(c));
}

}  // namespace ringmpi::coll
