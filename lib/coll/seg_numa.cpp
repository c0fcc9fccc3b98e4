// Two-level (NUMA-aware) collectives on the shared segment: the members of
// one NUMA node are a group (coll/numa_groups.hpp), led by its lowest rank,
// and only leaders reach across nodes. Used when a communicator spans
// several NUMA nodes and some node holds several of its members (or when
// RINGMPI_COLL_<family>=3 asks for it).
//
// - Barrier: Segment::barrier_two_level (segment.hpp has the protocol).
// - Bcast: the root's data crosses to each other node once: that node's
//   leader copies it into its own slot region (small) or its own buffer
//   (large, single copy), and the node's members read their leader's copy.
// - Reduce / Allreduce of small vectors: each leader folds its group's
//   contributions (read from its own node), the ranks that need the result
//   fold the groups' partial results. Folding group by group keeps the rank
//   order only when the groups are runs of consecutive ranks; otherwise the
//   operation must be commutative, or the flat fold runs instead.
//
// Scatter(v), gather(v), all-gather and all-to-all stay flat: every block
// goes from its owner straight to its reader, so each byte crosses the
// interconnect at most once already, and a hop through a leader would only
// add a copy.
#include <cstring>

#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "dtype/op.hpp"

namespace ringmpi::coll {

using namespace seg;

bool two_level(const Segment& s, tunables::Id family) {
  // A way of the segment (forced, or named by a rule in mode 0) is flat.
  if (family_mode(family) == 1 || is_way(s.way()) || !s.groups().two_level()) return false;
  core::count(core::Counter::seg_two_level);
  return true;
}

void seg_barrier(Segment& s) {
  core::count(core::Counter::seg_barrier);
  if (two_level(s, tunables::Id::coll_barrier))
    s.barrier_two_level();
  else
    s.barrier();
}

void bcast_two_level(Segment& s, const Typed& buf, int root) {
  const NumaGroups& g = s.groups();
  const std::size_t m = buf.bytes();
  const bool small = m <= s.inline_max();
  const int me = s.me();
  const int my_group = g.group_of[static_cast<std::size_t>(me)];
  const int root_group = g.group_of[static_cast<std::size_t>(root)];
  const int leader = g.leader(my_group);
  const std::uint64_t k = s.begin();
  // Who reads from whom: the root's group and the other leaders from the
  // root, everybody else from their leader.
  const bool relay = me == leader && my_group != root_group;
  const auto readers = [&](int from) {
    std::vector<int> r;
    if (from == root) {
      for (int j : g.members[static_cast<std::size_t>(root_group)])
        if (j != root) r.push_back(j);
      for (int h = 0; h < g.count(); ++h)
        if (h != root_group) r.push_back(g.leader(h));
    } else {
      for (int j : g.members[static_cast<std::size_t>(my_group)])
        if (j != from) r.push_back(j);
    }
    return r;
  };
  const auto publish = [&](const std::byte* packed, std::unique_ptr<Published>* pub) {
    if (small) {
      std::byte* region = s.reserve(k, m);
      if (packed)
        core::copy_bulk(region, packed, m);
      else
        pack_to(buf, region);
    } else {
      *pub = std::make_unique<Published>(buf);
      s.line(me).addr = (*pub)->addr();
    }
    s.post(k);
    s.wake_all();
  };
  std::unique_ptr<Published> pub;
  if (me != root) {
    const int src = my_group == root_group || relay ? root : leader;
    s.wait_posted(src, k);
    if (small) {
      const std::byte* region = s.data(src, k);
      if (relay) publish(region, &pub);  // the group first, then my own copy
      unpack_from(region, m, buf);
    } else {
      read_into(s, src, s.line(src).addr, m, buf);
      if (relay) publish(nullptr, &pub);
    }
    s.finish(k);
  } else {
    publish(nullptr, &pub);
    s.finish(k);
  }
  if (!small && (me == root || relay))
    for (int j : readers(me)) s.wait_done(j, k);
}

int fold_two_level(Segment& s, const Reduction& r, const void* mine, void* result, int root, bool all) {
  const NumaGroups& g = s.groups();
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  const std::size_t partial_at = align64(m);
  const int me = s.me();
  const int my_group = g.group_of[static_cast<std::size_t>(me)];
  const bool leader = g.leader(my_group) == me;
  const std::uint64_t k = s.begin();
  std::byte* region = s.reserve(k, leader ? partial_at + m : m);
  core::copy_bulk(region, mine, m);
  s.post(k);
  if (!leader) s.wake(g.leader(my_group));
  int err = MPI_SUCCESS;
  if (leader) {
    // The group's members, the right fold in rank order: x_a op (x_b op (...)).
    const auto& members = g.members[static_cast<std::size_t>(my_group)];
    err = fold_down(r, static_cast<int>(members.size()) - 1, [&](int j) {
      const int member = members[static_cast<std::size_t>(j)];
      s.wait_posted(member, k);
      return s.data(member, k);
    }, region + partial_at);
    s.post_ready(k);
    s.wake_all();
  }
  if (all || me == root) {
    // The groups' partial results, in group order.
    const int e = fold_down(r, g.count() - 1, [&](int h) {
      s.wait_ready(g.leader(h), k);
      return s.data(g.leader(h), k) + partial_at;
    }, result);
    if (err == MPI_SUCCESS) err = e;
  }
  s.finish(k);
  return err;
}

bool fold_two_level_applies(const Segment& s, const Reduction& r, tunables::Id family) {
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  if (align64(m) + m > s.inline_max() || !s.groups().two_level()) return false;
  if (!s.groups().contiguous) {
    if (!r.op.commute) return false;
  }
  return two_level(s, family);
}

}  // namespace ringmpi::coll
