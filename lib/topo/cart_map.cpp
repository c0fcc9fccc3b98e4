#include "topo/cart_map.hpp"

#include <cstddef>

#include "topo/criterion.hpp"
#include "topo/reorder.hpp"

namespace ringmpi::topo {

CommGraph grid_graph(const std::vector<int>& dims, const std::vector<int>& periods) {
  const auto adj = grid_adjacency(dims, periods);
  std::vector<WeightedEdge> edges;
  for (std::size_t i = 0; i < adj.size(); ++i)
    for (int j : adj[i])
      if (static_cast<std::size_t>(j) > i) edges.push_back({static_cast<int>(i), j, 1});
  return make_comm_graph(static_cast<int>(adj.size()), edges);
}

std::vector<int> cart_placement(const std::vector<int>& dims, const std::vector<int>& periods,
                                const std::vector<std::vector<int>>& levels) {
  const CommGraph g = grid_graph(dims, periods);
  return best_placement(g, levels, {place(bisection_order(dims), levels), graph_placement_tree(g, levels)});
}

}  // namespace ringmpi::topo
