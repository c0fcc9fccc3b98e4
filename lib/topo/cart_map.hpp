// Cartesian reordering (MPI_Cart_map, MPI_Cart_create with reorder = true)
// on this machine: which grid rank each process takes.
#pragma once

#include <vector>

namespace ringmpi::topo {

// From the NUMA nodes of the grid's processes (domain[p] for old rank p <
// grid size): the grid rank of every process. Processes of one NUMA node get
// a compact block of the grid (topo/reorder.hpp) when that makes fewer
// neighbour pairs cross NUMA nodes than the identity; otherwise the identity.
std::vector<int> cart_placement(const std::vector<int>& dims, const std::vector<int>& periods,
                                const std::vector<int>& domain);

}  // namespace ringmpi::topo
