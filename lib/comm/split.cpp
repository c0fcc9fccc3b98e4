// MPI_Comm_split, MPI_Comm_create and MPI_Comm_create_group: one allgather
// of (colour, key, group fingerprint, error) plus the context masks.
#include <algorithm>
#include <numeric>

#include "comm/peers.hpp"
#include "comm/round.hpp"
#include "exchange/tags.hpp"

namespace ringmpi::comm {
namespace {

// Where the local and the remote group sit in an intercommunicator's union.
struct Sides {
  int local_base, remote_base, local_size, remote_size;
  explicit Sides(const Comm& c)
      : local_base(c.local_first ? 0 : c.remote_size()),
        remote_base(c.local_first ? c.size() : 0),
        local_size(c.size()),
        remote_size(c.remote_size()) {}
};

auto intra_who() {
  return [](int i) { return "rank " + std::to_string(i) + " of the communicator"; };
}
auto inter_who(const Comm& c) {
  return [s = Sides(c)](int i) {
    if (i >= s.local_base && i < s.local_base + s.local_size)
      return "rank " + std::to_string(i - s.local_base) + " of the local group";
    return "rank " + std::to_string(i - s.remote_base) + " of the remote group";
  };
}

// Indices [base, base+n) of r.all whose colour is `color`, ordered by key,
// ties by index (the old rank).
std::vector<int> members(const Round& r, int base, int n, int color) {
  std::vector<int> m;
  for (int i = base; i < base + n; ++i)
    if (r.all[i].color == color) m.push_back(i);
  std::stable_sort(m.begin(), m.end(), [&](int a, int b) { return r.all[a].key < r.all[b].key; });
  return m;
}

std::vector<int> world_of(const exchange::Peers& p, const std::vector<int>& idx) {
  std::vector<int> w;
  w.reserve(idx.size());
  for (int i : idx) w.push_back(p.world[i]);
  return w;
}

int position(const std::vector<int>& idx, int i) {
  return int(std::find(idx.begin(), idx.end(), i) - idx.begin());
}

Made split_inter(const Comm& parent, int color, int key, const LocalError& local) {
  const exchange::Peers p = peers_of(parent);
  Entry e = entry_for(local);
  e.color = color;
  e.key = key;
  Round r = run_round(p, e);
  Made out;
  int slot;
  if (failed_somewhere(r, local, inter_who(parent), &out)) return out;
  if (pick_slot(r.mask, &slot, &out)) return out;
  if (color == MPI_UNDEFINED) return out;
  const Sides s(parent);
  const std::vector<int> mine = members(r, s.local_base, s.local_size, color);
  const std::vector<int> theirs = members(r, s.remote_base, s.remote_size, color);
  if (theirs.empty()) return out;  // no partner group: MPI_COMM_NULL (MPI-2.2)
  return finish(make_inter(parent, world_of(p, mine), world_of(p, theirs), position(mine, p.me), parent.local_first,
                           slot));
}

// MPI-2.2 Comm_create on an intracommunicator: the ranks of one group all
// passed it (same fingerprint, as many of them as it has members).
bool inconsistent_groups(const Round& r, Made* out) {
  for (std::size_t i = 0; i < r.all.size(); ++i) {
    const Entry& a = r.all[i];
    if (a.color == MPI_UNDEFINED) continue;
    int count = 0;
    for (const Entry& b : r.all) {
      if (b.color != a.color) continue;
      ++count;
      if (b.ghash != a.ghash || b.gsize != a.gsize) {
        *out = Made{MPI_ERR_GROUP,
                    "the members of one new group passed different group arguments (rank " + std::to_string(i) +
                        " passed a group of size " + std::to_string(a.gsize) + ", another member one of size " +
                        std::to_string(b.gsize) + " or with other members/order)",
                    MPI_COMM_NULL};
        return true;
      }
    }
    if (count != a.gsize) {
      *out = Made{MPI_ERR_GROUP,
                  "rank " + std::to_string(i) + " passed a group of " + std::to_string(a.gsize) + " processes but only " +
                      std::to_string(count) +
                      " of them passed that group: all members of a group must pass it, and groups passed "
                      "on different ranks must be disjoint",
                  MPI_COMM_NULL};
      return true;
    }
  }
  return false;
}

}  // namespace

Made split(const Comm& parent, int color, int key, const LocalError& local, int kind, SegmentOffer* seg) {
  if (parent.inter) return split_inter(parent, color, key, local);
  const exchange::Peers p = peers_of(parent);
  Entry e = entry_for(local);
  e.color = color;
  e.key = key;
  e.arg = kind;
  if (seg) e.segment = seg->offer;
  Round r = run_round(p, e);
  Made out;
  int slot;
  if (failed_somewhere(r, local, intra_who(), &out)) return out;
  for (std::size_t i = 0; i < r.all.size(); ++i)
    if (r.all[i].color != MPI_UNDEFINED && color != MPI_UNDEFINED && r.all[i].arg != kind)
      return Made{MPI_ERR_ARG,
                  "split_type=" + std::to_string(kind) + " here but rank " + std::to_string(i) +
                      " passed split_type=" + std::to_string(r.all[i].arg) +
                      "; all processes must pass the same split_type (or MPI_UNDEFINED)",
                  MPI_COMM_NULL};
  if (pick_slot(r.mask, &slot, &out)) return out;
  if (color == MPI_UNDEFINED) return out;
  const std::vector<int> m = members(r, 0, p.size(), color);
  take_offer(seg, r, p, m[0], static_cast<int>(m.size()));
  return finish(make_intra(parent, world_of(p, m), position(m, p.me), slot));
}

ContextPool::Mask offer() { return state().contexts.mask(busy_slots()); }

Made create_ordered(const Comm& parent, const std::vector<int>& order, const ContextPool::Mask& agreed) {
  Made out;
  int slot;
  // Every rank gets the same verdict from the same mask, members or not.
  if (pick_slot(agreed, &slot, &out)) return out;
  const int me = position(order, parent.rank);
  if (me == static_cast<int>(order.size())) return out;
  std::vector<int> world;
  world.reserve(order.size());
  for (int r : order) world.push_back(parent.peer_world[static_cast<std::size_t>(r)]);
  return finish(make_intra(parent, std::move(world), me, slot));
}

Made create(const Comm& parent, const group::GroupPtr& g, const LocalError& local, SegmentOffer* seg) {
  const exchange::Peers p = peers_of(parent);
  std::vector<int> gw;
  Entry e = entry_for(local);
  if (seg && !parent.inter) e.segment = seg->offer;
  if (g && local.code == MPI_SUCCESS) {
    gw = g->to_world_ranks();
    e.gsize = int(gw.size());
    e.ghash = hash_ranks(gw);
    const int mine = g->rank_of_world(p.world[p.me]);
    // Intra: the colour names the group by its first member's rank in the
    // parent; inter: membership only (one group per side).
    e.color = mine == MPI_UNDEFINED ? MPI_UNDEFINED : parent.inter ? 0 : parent.local->rank_of_world(gw[0]);
    e.key = mine;
  } else {
    e.color = MPI_UNDEFINED;
  }
  Round r = run_round(p, e);
  Made out;
  int slot;
  if (!parent.inter) {
    if (failed_somewhere(r, local, intra_who(), &out)) return out;
    if (inconsistent_groups(r, &out)) return out;
    if (pick_slot(r.mask, &slot, &out)) return out;
    if (e.color == MPI_UNDEFINED) return out;
    // The new rank 0 is the group's first member, whose parent rank the colour is.
    take_offer(seg, r, p, e.color, static_cast<int>(gw.size()));
    return finish(make_intra(parent, gw, e.key, slot));
  }
  if (failed_somewhere(r, local, inter_who(parent), &out)) return out;
  const Sides s(parent);
  for (int side = 0; side < 2; ++side) {
    const int base = side ? s.remote_base : s.local_base, n = side ? s.remote_size : s.local_size;
    int in = 0;
    for (int i = base; i < base + n; ++i) {
      if (r.all[i].ghash != r.all[base].ghash || r.all[i].gsize != r.all[base].gsize)
        return Made{MPI_ERR_GROUP,
                    std::string("the ranks of the ") + (side ? "remote" : "local") +
                        " group passed different group arguments; all processes of one group of the "
                        "intercommunicator must pass the same group",
                    MPI_COMM_NULL};
      in += r.all[i].color != MPI_UNDEFINED;
    }
    if (in != r.all[base].gsize)
      return Made{MPI_ERR_GROUP,
                  std::string("the group passed by the ") + (side ? "remote" : "local") +
                      " group is not a subgroup of that group",
                  MPI_COMM_NULL};
  }
  if (pick_slot(r.mask, &slot, &out)) return out;
  if (e.color == MPI_UNDEFINED) return out;
  const std::vector<int> theirs = members(r, s.remote_base, s.remote_size, 0);
  if (theirs.empty()) return out;
  return finish(make_inter(parent, gw, world_of(p, theirs), e.key, parent.local_first, slot));
}

Made create_group(const Comm& parent, const group::GroupPtr& g, int tag, SegmentOffer* seg) {
  exchange::Peers p;
  p.world = g->to_world_ranks();
  p.me = g->rank_of_world(parent.peer_world[parent.rank]);
  p.context = parent.coll_context();
  p.ids.reserve(p.world.size());
  for (int w : p.world) p.ids.push_back(parent.local->rank_of_world(w));
  Entry e;
  e.gsize = g->size();
  e.ghash = hash_ranks(p.world);
  if (seg) e.segment = seg->offer;
  Round r = run_round(p, e, exchange::create_group_tag(tag));
  for (std::size_t i = 0; i < r.all.size(); ++i)
    if (r.all[i].ghash != e.ghash || r.all[i].gsize != e.gsize)
      return Made{MPI_ERR_GROUP,
                  "rank " + std::to_string(i) +
                      " of the group passed a different group; every member must pass the same group",
                  MPI_COMM_NULL};
  Made out;
  int slot;
  if (pick_slot(r.mask, &slot, &out)) return out;
  take_offer(seg, r, p, 0, static_cast<int>(p.world.size()));
  const int me = p.me;
  return finish(make_intra(parent, std::move(p.world), me, slot));
}

}  // namespace ringmpi::comm
