// MPI_Dist_graph_create's edge routing (MPI-3.1 §7.5.4): any rank may name
// any edge; each edge (s -> d, w) must end up in s's out-list and d's in-list.
#pragma once

#include <vector>

#include "comm/comm.hpp"

namespace ringmpi::topo {

struct Edge {
  int source, dest, weight;
};

// A node's in- and out-neighbours with their weights.
struct Adjacency {
  std::vector<int> sources, source_weights, destinations, dest_weights;
};

// Collective over c (one internal round on its collective context): every
// rank's edges, per rank in rank order; counts[r] is rank r's number of
// edges, agreed in an earlier round (topo/create.hpp), so a round where
// nobody has an edge is skipped by every rank alike.
std::vector<std::vector<Edge>> gather_edges(const comm::Comm& c, const std::vector<Edge>& mine,
                                            const std::vector<int>& counts);

// Node's in- and out-lists among all ranks' edges, in the order of the
// edges' contributors (rank order), then the order each contributor gave.
Adjacency adjacency_of(const std::vector<std::vector<Edge>>& all, int node);

}  // namespace ringmpi::topo
