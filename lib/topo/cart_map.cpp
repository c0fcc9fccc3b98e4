#include "topo/cart_map.hpp"

#include <numeric>

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

}  // namespace ringmpi::topo
