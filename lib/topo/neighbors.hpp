// The neighbourhood of a rank in a virtual topology, as the neighbourhood
// collectives see it (MPI-3.1 §7.6).
#pragma once

#include <memory>
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

// neighbors_of(t, rank), computed on the first call and kept in t: every
// neighbourhood collective asks for it, and a communicator's topology and
// rank never change (a dup shares both). Calls run one at a time under the
// process's call lock (docs/design/threads.md), so the cache needs no lock
// of its own. Shared, so that the caller's copy outlives a communicator
// freed meanwhile.
std::shared_ptr<const Neighbors> cached_neighbors(const Topology& t, int rank);

}  // namespace ringmpi::topo
