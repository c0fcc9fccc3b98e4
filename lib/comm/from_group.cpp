// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4.0
// §7.4.2, §7.6.2): constructors with no parent communicator, collective over
// the members of the group(s) only (create.hpp says how they are addressed).
#include <cstdint>

#include "comm/round.hpp"
#include "core/runtime.hpp"

namespace ringmpi::comm {
namespace {

// FNV-1a of the string tag: the tags of the creation's messages.
std::uint32_t hash_tag(const std::string& tag, std::uint32_t salt) {
  std::uint32_t h = 2166136261u ^ salt;
  for (unsigned char ch : tag) {
    h ^= ch;
    h *= 16777619u;
  }
  return h;
}
int tag_of(const std::string& stringtag, std::uint32_t salt) {
  return exchange::create_group_tag(static_cast<int>(hash_tag(stringtag, salt) & 0x7fffffff));
}

// Who takes part: g's members on the library's context, stamped with world ranks.
exchange::Peers peers_of_group(const group::GroupPtr& g) {
  exchange::Peers p;
  p.world = g->to_world_ranks();
  p.me = g->rank_of_world(core::rt().rank);
  p.context = kFromGroupContext + 1;
  p.ids = p.world;
  return p;
}

// A stand-in parent: what make_intra / make_inter take from one (the error
// handler, and the group when the new communicator's members are g's).
Comm stand_in(const group::GroupPtr& g, std::shared_ptr<const Errhandler> errhandler) {
  Comm c;
  c.local = c.remote = g;
  c.rank = g->rank_of_world(core::rt().rank);
  c.context = kFromGroupContext;
  c.errhandler = std::move(errhandler);
  c.peer_world = g->to_world_ranks();
  return c;
}

}  // namespace

Made create_from_group(const group::GroupPtr& g, const std::string& stringtag,
                       std::shared_ptr<const Errhandler> errhandler, SegmentOffer* seg) {
  const exchange::Peers p = peers_of_group(g);
  Entry e;
  e.gsize = g->size();
  e.ghash = hash_ranks(p.world);
  e.arg = static_cast<std::int32_t>(hash_tag(stringtag, 0));
  if (seg) e.segment = seg->offer;
  Round r = run_round(p, e, tag_of(stringtag, 0));
  for (std::size_t i = 0; i < r.all.size(); ++i) {
    if (r.all[i].ghash != e.ghash || r.all[i].gsize != e.gsize)
      return Made{MPI_ERR_GROUP,
                  "rank " + std::to_string(i) +
                      " of the group passed a different group; every member must pass the same group",
                  MPI_COMM_NULL};
    if (r.all[i].arg != e.arg)
      return Made{MPI_ERR_ARG,
                  "rank " + std::to_string(i) + " of the group passed another stringtag than \"" + stringtag +
                      "\"; every member must pass the same one",
                  MPI_COMM_NULL};
  }
  Made out;
  int slot;
  if (pick_slot(r.mask, &slot, &out)) return out;
  take_offer(seg, r, p, 0, static_cast<int>(p.world.size()));
  const Comm parent = stand_in(g, std::move(errhandler));
  return finish(make_intra(parent, p.world, p.me, slot));
}

Made intercomm_from_groups(const group::GroupPtr& local, int local_leader, const group::GroupPtr& remote,
                           int remote_leader, const std::string& stringtag, const LocalError& bad,
                           std::shared_ptr<const Errhandler> errhandler) {
  const exchange::Peers p = peers_of_group(local);
  const Comm local_comm = stand_in(local, std::move(errhandler));
  // The leaders address each other by world rank on the same context.
  Comm world_peer;
  world_peer.context = kFromGroupContext;
  world_peer.rank = core::rt().rank;
  for (int w = 0; w < core::rt().size; ++w) world_peer.peer_world.push_back(w);
  const int remote_leader_world =
      bad.code == MPI_SUCCESS && remote_leader >= 0 && remote_leader < remote->size() ? remote->world_rank(remote_leader)
                                                                                       : 0;
  return intercomm_create(local_comm, local_leader, &world_peer, remote_leader_world, tag_of(stringtag, 2), bad, &p,
                          tag_of(stringtag, 0), tag_of(stringtag, 1));
}

}  // namespace ringmpi::comm
