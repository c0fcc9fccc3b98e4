// Virtual topologies (MPI-3.1 chapter 7): the description a communicator
// carries, and the pure arithmetic on it (no communication here).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ringmpi::topo {

struct Neighbors;

struct Topology {
  enum class Kind { cart, graph, dist_graph } kind = Kind::cart;
  // Cartesian: extent and periodicity of each dimension, row-major ranks.
  std::vector<int> dims;
  std::vector<int> periods;
  // Graph (MPI_Graph_create): index[i] = neighbours of nodes 0..i, edges flat.
  std::vector<int> index;
  std::vector<int> edges;
  // Distributed graph: this rank's adjacency only.
  std::vector<int> sources, source_weights, destinations, dest_weights;
  bool weighted = false;
  // Distributed graph: the largest out-degree of any rank, agreed when the
  // topology was created (-1: not known).
  int dist_max_outdegree = -1;
  // The neighbourhood of `neighbors_rank`, kept by topo::cached_neighbors
  // (topo/neighbors.hpp); mutable: a cache, not part of the description.
  mutable std::shared_ptr<const Neighbors> neighbors;
  mutable int neighbors_rank = -1;

  int cart_size() const;
  // Row-major rank of coords (periodic dimensions wrap; -1 when a
  // non-periodic coordinate is out of range).
  int cart_rank(const int* coords) const;
  void cart_coords(int rank, int* coords) const;
  // (source, dest) of a shift by disp along dimension dir, MPI_PROC_NULL off the edge.
  void cart_shift(int rank, int dir, int disp, int* source, int* dest) const;
  int graph_degree(int rank) const;
  // The largest number of destinations any rank of the topology has (the
  // same answer on every rank; -1 when it is not known).
  int max_outdegree() const;
  const int* graph_neighbors(int rank) const;
};

// MPI_Dims_create: fills the zero entries of dims with the most balanced
// factorisation (non-increasing order) of nnodes / product(non-zero dims).
// Returns "" or the reason it cannot (nnodes not divisible, negative entries).
std::string dims_create(int nnodes, int ndims, int* dims);

// The k factors of n >= 1 (non-increasing) that MPI_Dims_create picks; see dims.cpp.
std::vector<long long> balanced_factors(long long n, int k);

// Why index/edges do not describe a graph of nnodes nodes, or "".
std::string graph_invalid(int nnodes, const int* index, const int* edges);

}  // namespace ringmpi::topo
