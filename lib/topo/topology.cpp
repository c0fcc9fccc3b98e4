#include "topo/topology.hpp"

#include <algorithm>
#include <climits>

#include "mpi.h"

namespace ringmpi::topo {

int Topology::cart_size() const {
  long long n = 1;
  for (int d : dims) n *= d;
  return static_cast<int>(n);
}

int Topology::cart_rank(const int* coords) const {
  int rank = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int c = coords[i];
    if (periods[i]) {
      c %= dims[i];
      if (c < 0) c += dims[i];
    } else if (c < 0 || c >= dims[i]) {
      return -1;
    }
    rank = rank * dims[i] + c;
  }
  return rank;
}

void Topology::cart_coords(int rank, int* coords) const {
  for (std::size_t i = dims.size(); i-- > 0;) {
    coords[i] = rank % dims[i];
    rank /= dims[i];
  }
}

void Topology::cart_shift(int rank, int dir, int disp, int* source, int* dest) const {
  std::vector<int> c(dims.size());
  cart_coords(rank, c.data());
  const int here = c[dir];
  auto at = [&](long long v) {
    c[dir] = static_cast<int>(periods[dir] ? ((v % dims[dir]) + dims[dir]) % dims[dir] : v);
    if (!periods[dir] && (v < 0 || v >= dims[dir])) return MPI_PROC_NULL;
    return cart_rank(c.data());
  };
  *dest = at(static_cast<long long>(here) + disp);
  *source = at(static_cast<long long>(here) - disp);
}

int Topology::graph_degree(int rank) const { return index[rank] - (rank == 0 ? 0 : index[rank - 1]); }

int Topology::max_outdegree() const {
  switch (kind) {
    case Kind::cart:
      return 2 * static_cast<int>(dims.size());
    case Kind::graph: {
      int widest = 0;
      for (std::size_t r = 0; r < index.size(); ++r) widest = std::max(widest, graph_degree(static_cast<int>(r)));
      return widest;
    }
    case Kind::dist_graph:
      return dist_max_outdegree;
  }
  return -1;
}

const int* Topology::graph_neighbors(int rank) const { return edges.data() + (rank == 0 ? 0 : index[rank - 1]); }

std::string graph_invalid(int nnodes, const int* index, const int* edges) {
  int prev = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < prev)
      return "index[" + std::to_string(i) + "]=" + std::to_string(index[i]) + " is smaller than index[" +
             std::to_string(i - 1) + "]";
    prev = index[i];
  }
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  for (int e = 0; e < nedges; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return "edges[" + std::to_string(e) + "]=" + std::to_string(edges[e]) + " is outside 0.." +
             std::to_string(nnodes - 1);
  return "";
}

}  // namespace ringmpi::topo
