// Neighbourhood collectives on the shared segment (MPI-3.1 §7.6), blocking
// and nonblocking.
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
// (by address; it then waits until its destinations, the only members that
// read it, are done with collective k: a sparse neighbourhood, such as a
// halo, does not wait for the whole communicator as a barrier would), and
// its readers follow the mode written in its region. The nonblocking form
// (on a segment attached already, coll/seg_op.hpp) writes at its start and
// takes its blocks in its own progress once its sources have posted; its
// request completes when, by address, its destinations are done.
#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "coll/seg_fits.hpp"
#include "coll/seg_op.hpp"
#include "coll/scheduled.hpp"

namespace ringmpi::coll {

using namespace seg;

namespace {

Typed typed(const void* base, const Block& b) {
  return Typed{static_cast<const std::byte*>(base) + b.displ, b.count, b.type};
}


// Per-call lists inline up to these sizes (core/small_vec.hpp): the table
// of a grid of up to 3 dimensions, the members of a segment of up to 64.
using Blocks = core::SmallVec<Typed, kInlineBlocks>;
using Flags = core::SmallVec<char, kInlineBlocks>;
using Members = core::SmallVec<char, 64>;

}  // namespace

// This member's table published and posted (the others woken); the mode.
std::uint64_t neighbor_publish(Segment& s, std::uint64_t k, const NeighborArgs& a, std::unique_ptr<Temp>* keep) {
  Blocks blocks;
  Flags to;
  if (a.gather) {
    bool any = false;
    for (int d : *a.destinations) any = any || d != MPI_PROC_NULL;
    blocks.push_back(any ? typed(a.sendbuf, a.sends[0]) : Typed{nullptr, 0, nullptr});
    to.push_back(any);
  } else {
    blocks.reserve(a.destinations->size());
    to.reserve(a.destinations->size());
    for (std::size_t j = 0; j < a.destinations->size(); ++j) {
      blocks.push_back(typed(a.sendbuf, a.sends[j]));
      to.push_back((*a.destinations)[j] != MPI_PROC_NULL);
    }
  }
  const std::uint64_t mode = publish_blocks(s, k, blocks, to, keep, a.gather ? nullptr : a.destinations);
  s.wake_all();
  return mode;
}

namespace {

// The members in `ranks` (sources or destinations), MPI_PROC_NULL left out.
Members members_in(const Segment& s, const std::vector<int>& ranks) {
  Members in(static_cast<std::size_t>(s.size()), 0);
  for (int j : ranks)
    if (j != MPI_PROC_NULL) in[static_cast<std::size_t>(j)] = 1;
  return in;
}

}  // namespace

// Every receive block from member j, which has posted k, in recv_order.
void neighbor_take(const Segment& s, std::uint64_t k, const NeighborArgs& a, int j) {
  int taken = 0;  // blocks taken from j so far
  for (int q : *a.recv_order) {
    if ((*a.sources)[static_cast<std::size_t>(q)] != j) continue;
    const int e = a.gather ? 0 : entry_for(s, k, j, taken++);
    if (e >= 0) take_block(s, k, j, typed(a.recvbuf, a.recvs[static_cast<std::size_t>(q)]), e);
  }
}


void neighbor_self(const NeighborArgs& a) {
  std::size_t next = 0;  // the entry after the last one taken
  for (int q : *a.recv_order) {
    if ((*a.sources)[static_cast<std::size_t>(q)] == MPI_PROC_NULL) continue;
    if (!a.gather)
      while (next < a.destinations->size() && (*a.destinations)[next] == MPI_PROC_NULL) ++next;
    const std::size_t e = a.gather ? 0 : next++;
    if (e < a.sends.size())
      copy_typed(typed(a.sendbuf, a.sends[e]), typed(a.recvbuf, a.recvs[static_cast<std::size_t>(q)]));
  }
}

bool seg::neighbor_fits(const Segment& s, int max_outdegree, bool gather) {
  return s.single_copy() && max_outdegree >= 0 && table_fits(s, gather ? 1 : static_cast<std::size_t>(max_outdegree));
}

void seg_neighbor(Segment& s, const NeighborArgs& a) {
  core::count(core::Counter::seg_neighbor);
  const std::uint64_t k = s.begin();
  std::unique_ptr<Temp> keep;
  const std::uint64_t mode = neighbor_publish(s, k, a, &keep);
  each_posted(s, k, members_in(s, *a.sources), [&](int j) { neighbor_take(s, k, a, j); });
  s.finish(k);
  // Its destinations read this member's buffers (or its packed copies) until they are done.
  if (mode == kByAddress) {
    const Members readers = members_in(s, *a.destinations);
    s.wait_all_done(k, readers);
  }
}

int iseg_neighbor(const std::shared_ptr<Segment>& sp, const NeighborArgs& a,
                  std::vector<std::shared_ptr<const void>>& keep_alive, MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  core::count(core::Counter::seg_neighbor);
  const std::uint64_t k = s.begin();
  std::unique_ptr<Temp> keep;
  const bool by_address = neighbor_publish(s, k, a, &keep) == kByAddress;
  const Members want = members_in(s, *a.sources);
  const auto ready = [&s, k, want] {
    for (int j = 0; j < s.size(); ++j)
      if (want[static_cast<std::size_t>(j)] && !posted(s, j, k)) return false;
    return true;
  };
  const auto complete = [&s, k, want, a] {
    for (int j = 0; j < s.size(); ++j)
      if (want[static_cast<std::size_t>(j)]) neighbor_take(s, k, a, j);
    return MPI_SUCCESS;
  };
  const auto released = readers_done(s, k, by_address, by_address ? members_in(s, *a.destinations) : Members{});
  auto op = make_op(sp, k, ready, complete, released);
  op->keep(std::shared_ptr<const void>(std::move(keep)));
  for (auto& p : keep_alive) op->keep(std::move(p));
  return start_op(std::move(op), s, comm, request);
}

}  // namespace ringmpi::coll
