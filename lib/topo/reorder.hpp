// Rank reordering for virtual topologies (MPI-3.1 §7.5: reorder = true,
// MPI_Cart_map, MPI_Graph_map): layouts where neighbouring positions are
// close, so that processes close in the machine can take them.
//
// The positions of the topology are laid out in an order where every run of
// consecutive positions is compact (recursive bisection of a grid; breadth
// first order of a graph), the processes are sorted by where they run
// (package, NUMA node, caches: topo/levels.hpp, then old rank), and the k-th
// process takes the k-th position. The processes of one domain at any level
// then hold one run of the order, a compact region when the domain's size
// fits the bisection's halves, so fewer neighbour pairs cross domains than
// under the identity whenever the launcher scattered consecutive ranks.
#pragma once

#include <vector>

namespace ringmpi::topo {

// Cells of a row-major grid of `dims` in recursive-bisection order: the grid
// is halved along its longest extent (the first such dimension) until single cells.
std::vector<int> bisection_order(const std::vector<int>& dims);

// Nodes 0..n-1 of an undirected graph (adj[i]: neighbours of i) in breadth
// first order, components in order of their smallest node.
std::vector<int> breadth_first_order(const std::vector<std::vector<int>>& adj);

// position_of[p] for process p < order.size(): processes sorted by their
// domains (levels[0][p], levels[1][p], ..., coarsest first), then by p, take
// the positions in `order`.
std::vector<int> place(const std::vector<int>& order, const std::vector<std::vector<int>>& levels);

// Neighbour pairs (i, j in adj[i], i < j) whose processes lie in different
// domains, for domain_at[position].
int crossing_pairs(const std::vector<std::vector<int>>& adj, const std::vector<int>& domain_at);

// Adjacency of a Cartesian grid (periodic dimensions wrap; a dimension of
// extent 2 that wraps links the same pair once).
std::vector<std::vector<int>> grid_adjacency(const std::vector<int>& dims, const std::vector<int>& periods);

}  // namespace ringmpi::topo
