// The collective topology constructors and maps (MPI-3.1 §7.5): Cart_create,
// Cart_sub, Graph_create, Dist_graph_create(_adjacent), Cart_map, Graph_map.
//
// Protocol (all on comm's collective context, never the public MPI_* calls):
//  1. Agreement round (one internal allgather): every rank's free context
//     slots (comm::offer, for step 3), its argument
//     verdict (its LocalError, see topo/args.hpp), its reorder flag, where
//     it runs when it asked to reorder (package, NUMA node, L3/L2/L1 cache:
//     topo/locality.hpp, from hwloc and the launcher's binding), and for
//     distributed graphs its edge counts. A bad argument
//     anywhere fails the call on every rank here, so nobody waits. The
//     placement is computed only when every rank asked for reordering.
//  2. Distributed graphs only: every rank's edges (Dist_graph_create) or
//     adjacency lists (Dist_graph_create_adjacent with reordering), so every
//     rank knows the whole graph and computes the same placement.
//  3. The new communicator from round 1 alone (comm::create_ordered): that
//     round also gathers every rank's free context slots, and every rank
//     knows every rank's new rank (ranked as comm::split would with the new
//     rank as key), so no split and no round of its own; the Topology is
//     attached to it.
//
// Reordering: node k of the topology (a grid position, a graph node) is held
// by the process of rank k in the new communicator, as for the Cartesian
// case; the process that takes node k is chosen by topo::cart_placement or
// topo::graph_placement_tree over the levels that tell the processes apart
// (topo/levels.hpp: packages, NUMA nodes, caches). For
// Dist_graph_create_adjacent the lists rank k of
// comm_old passed describe node k, so the process that becomes rank k gets
// them (a permutation of roles, as in MPI_Graph_map; the program finds its
// lists with MPI_Dist_graph_neighbors).
#pragma once

#include <string>
#include <vector>

#include "comm/create.hpp"
#include "topo/edge_routing.hpp"
#include "topo/topology.hpp"

namespace ringmpi::topo {

comm::Made cart_create(const comm::Comm& old, const std::vector<int>& dims, const std::vector<int>& periods,
                       bool reorder, const comm::LocalError& local);

// Ranks that agree on the dropped coordinates share a sub-grid, ranked
// row-major over the kept ones (one round: comm::split carries `local`).
comm::Made cart_sub(const comm::Comm& c, const int* remain_dims, const comm::LocalError& local);

// index/edges as MPI_Graph_create takes them (validated: see check_graph).
comm::Made graph_create(const comm::Comm& old, int nnodes, const int* index, const int* edges, bool reorder,
                        const comm::LocalError& local);

// `mine`: the edges this rank names; weighted: weights were given.
comm::Made dist_graph_create(const comm::Comm& old, const std::vector<Edge>& mine, bool weighted, bool reorder,
                             const comm::LocalError& local);

comm::Made dist_graph_create_adjacent(const comm::Comm& old, Adjacency mine, bool weighted, bool reorder,
                                      const comm::LocalError& local);

// MPI_Cart_map / MPI_Graph_map: the caller's rank in the mapped topology
// (MPI_UNDEFINED past its size), collective over c like the constructors.
struct Mapped {
  int code = MPI_SUCCESS;
  std::string why;
  int rank = MPI_UNDEFINED;
};
Mapped cart_map(const comm::Comm& c, const std::vector<int>& dims, const std::vector<int>& periods,
                const comm::LocalError& local);
Mapped graph_map(const comm::Comm& c, int nnodes, const int* index, const int* edges, const comm::LocalError& local);

}  // namespace ringmpi::topo
