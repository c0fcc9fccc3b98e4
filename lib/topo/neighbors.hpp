// The neighbourhood of a rank in a virtual topology, as the neighbourhood
// collectives see it (MPI-3.1 §7.6).
#pragma once

#include <vector>

#include "topo/topology.hpp"

namespace ringmpi::topo {

struct Neighbors {
  // Ranks in the communicator, or MPI_PROC_NULL (a Cartesian edge): block i
  // of a receive buffer comes from sources[i], block j of a send buffer
  // goes to destinations[j].
  std::vector<int> sources, destinations;
  // The order in which to post the receives (indices into sources) so that
  // first-come first-matched pairs every block with the right message when
  // one rank is a neighbour twice (see neighbors.cpp).
  std::vector<int> recv_order;
};

// Cartesian: for each dimension the neighbour in the negative direction,
// then in the positive one (as MPI_Cart_shift(dim, 1) gives them), both as
// sources and as destinations. Graph: MPI_Graph_neighbors' order, both ways.
// Distributed graph: the sources and destinations given at creation.
Neighbors neighbors_of(const Topology& t, int rank);

}  // namespace ringmpi::topo
