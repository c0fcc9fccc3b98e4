// MPI_Intercomm_create and MPI_Intercomm_merge.
//
// Intercomm_create in three steps:
//   1. each local group: one allgather_and on local_comm (leader agreed on,
//      the leader's argument errors, the group's free context mask);
//   2. the two leaders exchange (their world rank, their group, their mask)
//      on peer_comm's coll_context() with the user's tag, so no pending user
//      message on peer_comm can be taken for it; the leader with the lower
//      world rank sends first, so the exchange cannot deadlock whatever the
//      message size;
//   3. each leader broadcasts the outcome to its group over local_comm.
// The context is the lowest slot free in both groups (context.hpp, inv. 3).
#include <cstring>

#include "comm/peers.hpp"
#include "comm/round.hpp"
#include "core/runtime.hpp"
#include "p2p/internal_transfer.hpp"

namespace ringmpi::comm {
namespace {

// What a leader sends to the other leader.
struct LeaderHello {
  std::int32_t err;  // nonzero: this side failed before the exchange
  std::int32_t leader_world;
  std::int32_t size;
  ContextPool::Mask mask;
  // followed by `size` world ranks
};

// What a leader broadcasts to its group.
struct Outcome {
  std::int32_t err;  // the error class every rank returns, or MPI_SUCCESS
  std::int32_t slot;
  std::int32_t local_first;
  std::int32_t remote_size;
  // followed by remote_size world ranks
};

std::vector<std::byte> pack(const void* head, std::size_t head_bytes, const std::vector<int>& ranks) {
  std::vector<std::byte> b(head_bytes + ranks.size() * sizeof(int));
  std::memcpy(b.data(), head, head_bytes);
  if (!ranks.empty()) std::memcpy(b.data() + head_bytes, ranks.data(), ranks.size() * sizeof(int));
  return b;
}

std::vector<int> ranks_after(const std::byte* b, std::size_t head_bytes, int n) {
  std::vector<int> r(n);
  if (n) std::memcpy(r.data(), b + head_bytes, std::size_t(n) * sizeof(int));
  return r;
}

// Step 2 on the leader: fills *o (err set on failure; *why the reason).
// With my_err set, the leader only tells the other side that this side
// failed, so the other group fails too instead of waiting for ever.
void leaders_exchange(const Comm& local_comm, const Comm& peer, int remote_leader, int tag,
                      const ContextPool::Mask& local_mask, Outcome* o, std::vector<int>* remote, std::string* why,
                      int my_err = MPI_SUCCESS) {
  const int me_world = core::rt().rank;
  const int other_world = peer.peer_world[remote_leader];
  LeaderHello mine{};
  mine.err = my_err;
  mine.leader_world = me_world;
  mine.size = local_comm.size();
  mine.mask = local_mask;
  const std::vector<int> local_world = local_comm.local->to_world_ranks();
  const std::vector<std::byte> out = pack(&mine, sizeof mine, local_world);
  std::vector<std::byte> in(sizeof(LeaderHello) + std::size_t(core::rt().size) * sizeof(int));
  auto send = [&] {
    p2p::send_internal(out.data(), out.size(), other_world, tag, peer.coll_context(), peer.rank);
  };
  auto recv = [&] { return p2p::recv_internal(in.data(), in.size(), remote_leader, tag, peer.coll_context()); };
  std::size_t got;
  if (me_world < other_world) {
    send();
    got = recv();
  } else {
    got = recv();
    send();
  }
  if (my_err != MPI_SUCCESS) return;
  LeaderHello theirs;
  std::memcpy(&theirs, in.data(), sizeof theirs);
  if (got < sizeof theirs || theirs.size < 0 || got != sizeof theirs + std::size_t(theirs.size) * sizeof(int)) {
    o->err = MPI_ERR_INTERN;
    *why = "the remote leader's reply is malformed (is it in an MPI_Intercomm_create with the same tag?)";
    return;
  }
  *remote = ranks_after(in.data(), sizeof theirs, theirs.size);
  if (theirs.err != MPI_SUCCESS) {
    o->err = theirs.err;
    *why = "a process of the remote group passed an invalid argument (see its message), so the call fails in "
           "both groups";
    return;
  }
  for (int w : *remote)
    if (local_comm.local->rank_of_world(w) != MPI_UNDEFINED) {
      o->err = MPI_ERR_GROUP;
      *why = "world rank " + std::to_string(w) +
             " is in both the local and the remote group; the groups of an intercommunicator must be disjoint";
      return;
    }
  ContextPool::Mask both;
  for (int i = 0; i < ContextPool::kWords; ++i) both[i] = local_mask[i] & theirs.mask[i];
  o->slot = ContextPool::lowest(both);
  o->local_first = me_world < other_world;
  o->remote_size = theirs.size;
  if (o->slot < 0) {
    Made m;
    int s;
    pick_slot(both, &s, &m);
    o->err = m.code;
    *why = m.why;
  }
}

}  // namespace

Made intercomm_create(const Comm& local_comm, int local_leader, const Comm* peer, int remote_leader, int tag,
                      const LocalError& local, const exchange::Peers* local_peers, int round_tag, int bcast_tag) {
  const exchange::Peers p = local_peers ? *local_peers : peers_of(local_comm);
  const bool leader = local_comm.rank == local_leader;
  Entry e = entry_for(local);
  e.arg = local_leader;
  Round r = run_round(p, e, round_tag);
  Made out;
  if (failed_somewhere(r, local, [](int i) { return "rank " + std::to_string(i) + " of local_comm"; }, &out)) {
    if (leader && local.code == MPI_SUCCESS) {
      Outcome ignored{};
      std::vector<int> none;
      std::string unused;
      leaders_exchange(local_comm, *peer, remote_leader, tag, r.mask, &ignored, &none, &unused, out.code);
    }
    return out;
  }
  for (std::size_t i = 0; i < r.all.size(); ++i)
    if (r.all[i].arg != local_leader)
      return Made{MPI_ERR_RANK,
                  "local_leader=" + std::to_string(local_leader) + " here but rank " + std::to_string(i) +
                      " of local_comm passed local_leader=" + std::to_string(r.all[i].arg) +
                      "; all ranks of local_comm must name the same leader",
                  MPI_COMM_NULL};

  Outcome o{};
  o.err = MPI_SUCCESS;
  std::vector<int> remote;
  std::string why;
  if (leader) leaders_exchange(local_comm, *peer, remote_leader, tag, r.mask, &o, &remote, &why);

  std::vector<std::byte> buf;
  if (leader) buf = pack(&o, sizeof o, remote);
  else buf.resize(sizeof o + std::size_t(core::rt().size) * sizeof(int));
  std::size_t bytes = buf.size();
  exchange::bcast(p, local_leader, buf.data(), buf.size(), &bytes, bcast_tag);
  if (!leader) {
    std::memcpy(&o, buf.data(), sizeof o);
    if (o.err == MPI_SUCCESS) remote = ranks_after(buf.data(), sizeof o, o.remote_size);
    why = "the local leader (rank " + std::to_string(local_leader) +
          " of local_comm) could not set up the intercommunicator (see its message)";
  }
  if (o.err != MPI_SUCCESS) return Made{o.err, why, MPI_COMM_NULL};
  return finish(make_inter(local_comm, local_comm.local->to_world_ranks(), std::move(remote), local_comm.rank,
                           o.local_first != 0, o.slot));
}

Made merge(const Comm& inter, bool high) {
  const exchange::Peers p = peers_of(inter);
  Entry e;
  e.arg = high ? 1 : 0;
  Round r = run_round(p, e);
  const int ls = inter.size(), rs = inter.remote_size();
  const int local_base = inter.local_first ? 0 : rs, remote_base = inter.local_first ? ls : 0;
  for (int i = 0; i < ls; ++i)
    if (r.all[local_base + i].arg != e.arg)
      return Made{MPI_ERR_ARG,
                  "high=" + std::to_string(e.arg) + " here but rank " + std::to_string(i) +
                      " of the local group passed high=" + std::to_string(r.all[local_base + i].arg) +
                      "; all processes of one group must pass the same high",
                  MPI_COMM_NULL};
  const int remote_high = r.all[remote_base].arg;
  for (int i = 0; i < rs; ++i)
    if (r.all[remote_base + i].arg != remote_high)
      return Made{MPI_ERR_ARG, "the processes of the remote group passed different values of high", MPI_COMM_NULL};
  Made out;
  int slot;
  if (pick_slot(r.mask, &slot, &out)) return out;
  // The "low" group first; with equal `high` on both sides, the union order.
  const bool local_first = e.arg == remote_high ? inter.local_first : e.arg < remote_high;
  std::vector<int> world = inter.local->to_world_ranks();
  if (local_first)
    world.insert(world.end(), inter.peer_world.begin(), inter.peer_world.end());
  else
    world.insert(world.begin(), inter.peer_world.begin(), inter.peer_world.end());
  const int rank = local_first ? inter.rank : rs + inter.rank;
  return finish(make_intra(inter, std::move(world), rank, slot));
}

}  // namespace ringmpi::comm
