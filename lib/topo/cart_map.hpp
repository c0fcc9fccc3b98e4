// Cartesian reordering (MPI_Cart_map, MPI_Cart_create with reorder = true)
// on this machine: which grid rank each process takes.
#pragma once

#include <vector>

#include "topo/graph_map.hpp"

namespace ringmpi::topo {

// The grid's neighbour pairs as a graph (weight 1 per pair; periodic
// dimensions wrap).
CommGraph grid_graph(const std::vector<int>& dims, const std::vector<int>& periods);

// From the domains of the grid's processes down the hierarchy (levels[k][p]
// for old rank p < grid size, coarsest first: topo/levels.hpp), the grid
// rank of every process. Two candidates: the grid in recursive-bisection
// order taken by the processes sorted by domain (topo/reorder.hpp: exact
// when the domains' sizes fit the halves), and the grid partitioned as a
// graph down the levels (topo/graph_map.hpp: any sizes); the one with fewer
// crossings by topo/criterion.hpp, or the identity unless one beats it.
std::vector<int> cart_placement(const std::vector<int>& dims, const std::vector<int>& periods,
                                const std::vector<std::vector<int>>& levels);

}  // namespace ringmpi::topo
