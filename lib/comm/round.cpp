#include "comm/round.hpp"

namespace ringmpi::comm {

Round run_round(const exchange::Peers& p, const Entry& mine, int tag) {
  Round r;
  r.all.resize(p.world.size());
  r.mask = state().contexts.mask(busy_slots());
  exchange::allgather_and(p, &mine, sizeof(Entry), r.all.data(), r.mask.data(), ContextPool::kWords, tag);
  return r;
}

Entry entry_for(const LocalError& local) {
  Entry e;
  e.err = local.code;
  e.bad_arg = static_cast<std::int32_t>(local.arg);
  e.bad_value = local.value;
  return e;
}

std::string describe_bad(const Entry& e) {
  const std::string v = std::to_string(e.bad_value);
  switch (static_cast<BadArg>(e.bad_arg)) {
    case BadArg::color: return "color=" + v;
    case BadArg::split_type: return "split_type=" + v;
    case BadArg::group: return "an invalid group argument";
    case BadArg::local_leader: return "local_leader=" + v;
    case BadArg::peer_comm: return "an invalid peer_comm";
    case BadArg::remote_leader: return "remote_leader=" + v;
    case BadArg::tag: return "tag=" + v;
    case BadArg::root: return "root=" + v;
    case BadArg::spawn: return "an invalid command, argv, maxprocs or info to spawn";
    case BadArg::spawn_jobs: return "comm, whose processes of two or more jobs cannot spawn together";
    case BadArg::none: break;
  }
  return "an invalid argument";
}

std::uint32_t hash_ranks(const std::vector<int>& world) {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (int w : world) {
    for (int b = 0; b < 4; ++b) {
      h ^= (std::uint32_t(w) >> (8 * b)) & 0xffu;
      h *= 16777619u;
    }
  }
  return h ^ std::uint32_t(world.size());
}

bool root_round(const exchange::Peers& p, int root, const LocalError& local, const char* hint,
                Round* r, Made* out) {
  Entry e = entry_for(local);
  e.arg = root;
  *r = run_round(p, e);
  if (failed_somewhere(*r, local, [](int i) { return "rank " + std::to_string(i) + " of comm"; }, out)) return true;
  for (std::size_t i = 0; i < r->all.size(); ++i)
    if (r->all[i].arg != root) {
      *out = Made{MPI_ERR_ROOT,
                  "root=" + std::to_string(root) + " here but rank " + std::to_string(i) + " of comm passed root=" +
                      std::to_string(r->all[i].arg) + hint,
                  MPI_COMM_NULL};
      return true;
    }
  return false;
}

bool pick_slot(const ContextPool::Mask& mask, int* slot, Made* out) {
  *slot = ContextPool::lowest(mask);
  if (*slot >= 0) return false;
  *out = Made{MPI_ERR_INTERN,
              "no context id is free in every process of the new communicator: the ids each of them "
              "can offer (" + std::to_string(ContextPool::kSlots) +
                  " in all, less those its communicators and pending MPI_Comm_idup calls hold) have none in "
                  "common; free some communicators with MPI_Comm_free",
              MPI_COMM_NULL};
  return true;
}

void take_offer(SegmentOffer* seg, const Round& r, const exchange::Peers& p, int leader, int size) {
  if (!seg || size < 2) return;
  seg->index = r.all[static_cast<std::size_t>(leader)].segment;
  seg->owner = p.world[static_cast<std::size_t>(leader)];
  seg->size = size;
}

std::unique_ptr<Comm> make_intra(const Comm& parent, std::vector<int> world, int rank, int slot) {
  auto c = std::make_unique<Comm>();
  // The parent's group when the members and their order are the same (a
  // split with one colour in rank order, a topology kept in place): groups
  // are immutable and shared, and building one is most of this function.
  c->local = c->remote =
      !parent.inter && world == parent.peer_world ? parent.local : group::Group::from_world_ranks(world);
  c->rank = rank;
  c->context = ContextPool::context_of(slot);
  c->inter = false;
  c->errhandler = parent.errhandler;
  c->peer_world = std::move(world);
  return c;
}

std::unique_ptr<Comm> make_inter(const Comm& parent, std::vector<int> local_world, std::vector<int> remote_world,
                                 int rank, bool local_first, int slot) {
  auto c = std::make_unique<Comm>();
  c->local = group::Group::from_world_ranks(std::move(local_world));
  c->remote = group::Group::from_world_ranks(remote_world);
  c->rank = rank;
  c->context = ContextPool::context_of(slot);
  c->inter = true;
  c->local_first = local_first;
  c->errhandler = parent.errhandler;
  c->peer_world = std::move(remote_world);
  return c;
}

Made finish(std::unique_ptr<Comm> c) {
  state().contexts.claim(ContextPool::slot_of(c->context));
  const MPI_Comm h = install(std::move(c));
  if (h == MPI_COMM_NULL)
    return Made{MPI_ERR_INTERN, "the communicator table is full (2^20 live communicators)", MPI_COMM_NULL};
  return Made{MPI_SUCCESS, {}, h};
}

}  // namespace ringmpi::comm
