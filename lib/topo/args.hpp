// Argument checks of the topology constructors and maps (MPI-3.1 §7.5).
//
// They only judge: the verdict (a comm::LocalError, code MPI_SUCCESS when
// the arguments are good) travels in the constructor's first collective
// round (topo/create.hpp), so a bad argument on one rank fails the call on
// every rank and nobody waits. The sentences name the argument and value.
#pragma once

#include <vector>

#include "comm/create.hpp"
#include "topo/edge_routing.hpp"
#include "topo/topology.hpp"

namespace ringmpi::topo {

// MPI_Cart_create / MPI_Cart_map on a communicator of `size` ranks.
comm::LocalError check_cart(int size, int ndims, const int* dims, const int* periods);

// MPI_Graph_create (nnodes may be 0) / MPI_Graph_map (for_map: at least 1).
comm::LocalError check_graph(int size, int nnodes, const int* index, const int* edges, bool for_map);

// MPI_Dist_graph_create: on success *mine holds the edges this rank names
// (weight 1 when weights is MPI_UNWEIGHTED).
comm::LocalError check_dist_graph(int size, int n, const int* sources, const int* degrees, const int* destinations,
                                  const int* weights, bool weighted, std::vector<Edge>* mine);

// MPI_Dist_graph_create_adjacent: on success *mine holds this rank's lists
// (weights left empty when unweighted).
comm::LocalError check_adjacent(int size, int indegree, const int* sources, const int* sourceweights, int outdegree,
                                const int* destinations, const int* destweights, bool weighted, Adjacency* mine);

// MPI_Cart_sub on a Cartesian topology t.
comm::LocalError check_cart_sub(const Topology& t, const int* remain_dims);

}  // namespace ringmpi::topo
