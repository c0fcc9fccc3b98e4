// Placement of a communication graph on the machine (MPI_Graph_map, and
// reorder = true in MPI_Graph_create / MPI_Dist_graph_create(_adjacent)):
// which node of the graph each process takes so that heavy edges stay
// inside a package, a NUMA node, an L3 cache, an L2 cache.
//
// Pure functions of the graph and the processes' domains (from hwloc and the
// launcher's binding: topo/locality.hpp, topo/levels.hpp), so they are tested on
// hwloc synthetic machines (tests/unit/topo/graph_map_test.cpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ringmpi::topo {

struct WeightedEdge {
  int a, b;
  std::int64_t weight;
};

// An undirected weighted graph over nodes 0..n-1: adj[i] lists (j, w) once
// per neighbour j != i, w the sum of the weights of all edges between i and
// j in either direction (a dist-graph edge and its reverse add up).
struct CommGraph {
  std::vector<std::vector<std::pair<int, std::int64_t>>> adj;
  int size() const { return static_cast<int>(adj.size()); }
};

// Edges with an end outside 0..n-1 and self loops are dropped; negative
// weights count as 0.
CommGraph make_comm_graph(int n, const std::vector<WeightedEdge>& edges);

// The graph of MPI_Graph_create's (index, edges) arguments, weight 1 per listed edge.
CommGraph graph_of_index(int nnodes, const int* index, const int* edges);

// Total weight of the edges whose ends lie in different domains, for
// domain_at[node].
std::int64_t cut_weight(const CommGraph& g, const std::vector<int>& domain_at);

// node_of[p] for process p (domain[p] = its NUMA node, p < g.size()): a
// partition of the graph into one part per domain, each part as large as its
// domain's share of the processes, grown greedily (the unplaced node most
// strongly tied to the part grows it; a new part starts from the unplaced
// node least tied to the rest), then improved by pairwise swaps between
// parts while a swap lowers the cut. Within a domain the processes, in
// rank order, take the part's nodes in ascending order. The identity is
// returned unless this cuts strictly less weight than it.
std::vector<int> graph_placement(const CommGraph& g, const std::vector<int>& domain);

// The same down the hwloc tree (topo/levels.hpp): levels[0][p] is process
// p's coarsest domain (its package), levels[1][p] a finer one inside it (its
// NUMA node), and so on down the caches (L3, L2). The graph is partitioned
// over the coarsest domains as above, then each part over the finer domains
// of its processes (recursive partitioning). Kept only when it beats the
// identity by topo/criterion.hpp (lexicographic, coarsest level first);
// else the identity. With one level this is graph_placement.
std::vector<int> graph_placement_tree(const CommGraph& g, const std::vector<std::vector<int>>& levels);

}  // namespace ringmpi::topo
