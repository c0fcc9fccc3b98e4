#include "comm/peers.hpp"

namespace ringmpi::comm {

exchange::Peers peers_of(const Comm& c) {
  exchange::Peers p;
  p.context = c.coll_context();
  if (!c.inter) {
    p.world = c.peer_world;
    p.me = c.rank;
    return p;
  }
  std::vector<int> local = c.local->to_world_ranks();
  const std::vector<int>& remote = c.peer_world;
  if (c.local_first) {
    p.world = local;
    p.world.insert(p.world.end(), remote.begin(), remote.end());
    p.me = c.rank;
  } else {
    p.world = remote;
    p.world.insert(p.world.end(), local.begin(), local.end());
    p.me = static_cast<int>(remote.size()) + c.rank;
  }
  return p;
}

}  // namespace ringmpi::comm
