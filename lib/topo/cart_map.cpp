#include "topo/cart_map.hpp"

#include <cstdint>
#include <numeric>

#include "coll/base.hpp"
#include "comm/numa.hpp"
#include "topo/reorder.hpp"

namespace ringmpi::topo {

std::vector<int> cart_placement(const std::vector<int>& dims, const std::vector<int>& periods,
                                const std::vector<int>& domain) {
  std::vector<int> identity(domain.size());
  std::iota(identity.begin(), identity.end(), 0);
  const std::vector<int> pos = place(bisection_order(dims), domain);
  const auto adj = grid_adjacency(dims, periods);
  std::vector<int> at(domain.size());
  for (std::size_t p = 0; p < domain.size(); ++p) at[static_cast<std::size_t>(pos[p])] = domain[p];
  return crossing_pairs(adj, at) < crossing_pairs(adj, domain) ? pos : identity;
}

int cart_map(const comm::Comm& c, const std::vector<int>& dims, const std::vector<int>& periods) {
  const coll::Peers peers = coll::peers_of(c);
  const int mine = comm::this_process_numa_node();
  std::vector<int> all(static_cast<std::size_t>(peers.size()));
  std::uint64_t ignored = 1;
  coll::allgather_and(peers, &mine, sizeof mine, all.data(), &ignored, 1);
  long long cells = 1;
  for (int d : dims) cells *= d;
  if (c.rank >= cells) return -1;
  all.resize(static_cast<std::size_t>(cells));
  return cart_placement(dims, periods, all)[static_cast<std::size_t>(c.rank)];
}

}  // namespace ringmpi::topo
