// MPI_Dist_graph_create's edge routing (MPI-3.1 §7.5.4): any rank may name
// any edge; each edge (s -> d, w) must end up in s's out-list and d's in-list.
#pragma once

#include <string>
#include <vector>

#include "comm/comm.hpp"

namespace ringmpi::topo {

struct Edge {
  int source, dest, weight;
};

// Each rank's in- and out-neighbours with their weights, in the order of the
// edges' contributors (rank order), then the order each contributor gave.
struct Adjacency {
  std::vector<int> sources, source_weights, destinations, dest_weights;
};

// Collective over c (two internal rounds on its collective context). `bad`
// is this rank's argument error ("" if none): it travels in the first round,
// so every rank returns false together when any rank's arguments were bad
// (*why then says whether it was this rank's or another's) and nobody waits.
bool route_edges(const comm::Comm& c, const std::vector<Edge>& mine, const std::string& bad, Adjacency* out,
                 std::string* why);

}  // namespace ringmpi::topo
