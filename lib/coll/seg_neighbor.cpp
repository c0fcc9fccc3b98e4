// Neighbourhood collectives on the shared segment (MPI-3.1 §7.6), blocking.
//
// Every member publishes a table of its outgoing blocks (publish_blocks),
// one entry per destination together with that destination's rank (the
// allgather forms: one entry, the same block for every destination), in
// its slot region or by address; then it takes each of its receive blocks
// straight from its source's table. Blocks pair as the message engine pairs
// them: the receive blocks are visited in recv_order (topo/neighbors.hpp)
// and the o-th block this member takes from source j is the o-th entry of
// j's table addressed to it, so a rank that is a neighbour twice (a
// periodic dimension of size 1 or 2, a multigraph) gets what first-come
// first-matched messages would give it. MPI_PROC_NULL neighbours publish
// nothing and leave their receive block untouched.
//
// When it applies: every member can read every other's memory (single
// copy, agreed at attach) and the widest table of the topology (its largest
// out-degree, which every rank knows alike) fits a region. Then each writer
// chooses alone between its slot (everything fits) and its own buffers
// (by address; it then waits until everyone is done with collective k), and
// its readers follow the mode written in its region.
#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "coll/scheduled.hpp"

namespace ringmpi::coll {

using namespace seg;

namespace {

Typed typed(const void* base, const Block& b) {
  return Typed{static_cast<const std::byte*>(base) + b.displ, b.count, b.type};
}

}  // namespace

void neighbor_self(const void* sendbuf, const std::vector<Block>& sends, const std::vector<int>& destinations,
                   void* recvbuf, const std::vector<Block>& recvs, const std::vector<int>& sources,
                   const std::vector<int>& recv_order, bool gather) {
  std::size_t next = 0;  // the entry after the last one taken
  for (int q : recv_order) {
    if (sources[static_cast<std::size_t>(q)] == MPI_PROC_NULL) continue;
    if (!gather)
      while (next < destinations.size() && destinations[next] == MPI_PROC_NULL) ++next;
    const std::size_t e = gather ? 0 : next++;
    if (e < sends.size()) copy_typed(typed(sendbuf, sends[e]), typed(recvbuf, recvs[static_cast<std::size_t>(q)]));
  }
}

bool seg_neighbor(Segment& s, int max_outdegree, const void* sendbuf, const std::vector<Block>& sends,
                  const std::vector<int>& destinations, void* recvbuf, const std::vector<Block>& recvs,
                  const std::vector<int>& sources, const std::vector<int>& recv_order, bool gather) {
  if (!s.single_copy() || max_outdegree < 0 ||
      !table_fits(s, gather ? 1 : static_cast<std::size_t>(max_outdegree)))
    return false;
  core::count(core::Counter::seg_neighbor);
  const std::uint64_t k = s.begin();
  std::vector<Typed> blocks;
  std::vector<char> to;
  if (gather) {
    bool any = false;
    for (int d : destinations) any = any || d != MPI_PROC_NULL;
    blocks.push_back(any ? typed(sendbuf, sends[0]) : Typed{nullptr, 0, nullptr});
    to.push_back(any);
  } else {
    for (std::size_t j = 0; j < destinations.size(); ++j) {
      blocks.push_back(typed(sendbuf, sends[j]));
      to.push_back(destinations[j] != MPI_PROC_NULL);
    }
  }
  std::unique_ptr<Temp> keep;
  const std::uint64_t mode = publish_blocks(s, k, blocks, to, &keep, false, gather ? nullptr : &destinations);
  s.wake_all();
  const std::size_t n = static_cast<std::size_t>(s.size());
  std::vector<char> want(n, 0);
  for (int j : sources)
    if (j != MPI_PROC_NULL) want[static_cast<std::size_t>(j)] = 1;
  std::vector<int> taken(n, 0);  // blocks taken from each source so far
  each_posted(s, k, std::move(want), [&](int j) {
    for (int q : recv_order) {
      if (sources[static_cast<std::size_t>(q)] != j) continue;
      const int e = gather ? 0 : entry_for(s, k, j, taken[static_cast<std::size_t>(j)]++);
      if (e >= 0) take_block(s, k, j, typed(recvbuf, recvs[static_cast<std::size_t>(q)]), e);
    }
  });
  s.finish(k);
  // Others read this member's buffers (or its packed copies) until they are done.
  if (mode == kByAddress) s.wait_all_done(k);
  return true;
}

}  // namespace ringmpi::coll
