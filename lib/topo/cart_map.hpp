// MPI_Cart_map and MPI_Cart_create(reorder = true) on this machine: which
// rank each process of a communicator takes in a Cartesian grid.
#pragma once

#include <vector>

#include "comm/comm.hpp"

namespace ringmpi::topo {

// Collective over c (one internal round: every process's NUMA node, from
// hwloc and its binding; see comm/numa.hpp). The grid rank of the caller, or
// -1 when its rank is past the grid. Processes of one NUMA node get a compact
// block of the grid (topo/reorder.hpp) when that makes fewer neighbour pairs
// cross NUMA nodes than the identity; otherwise the identity.
int cart_map(const comm::Comm& c, const std::vector<int>& dims, const std::vector<int>& periods);

// The same decision from the NUMA nodes of the grid's processes (domain[p]
// for old rank p < grid size): the grid rank of every process.
std::vector<int> cart_placement(const std::vector<int>& dims, const std::vector<int>& periods,
                                const std::vector<int>& domain);

}  // namespace ringmpi::topo
