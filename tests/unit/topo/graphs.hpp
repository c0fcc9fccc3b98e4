// Communication graphs the reordering tests place.
#pragma once

#include <vector>

#include "topo/graph_map.hpp"

namespace ringmpi::topo::testing {

// The seed's shuffle-exchange graph on 2^k nodes: exchange (flip the lowest
// bit), shuffle (rotate left) and unshuffle (rotate right), as in
// MPI_Graph_create's index/edges form.
inline CommGraph shuffle_exchange(int k) {
  const int n = 1 << k;
  std::vector<int> index, edges;
  for (int i = 0; i < n; ++i) {
    edges.push_back(i ^ 1);
    edges.push_back(((i << 1) | (i >> (k - 1))) & (n - 1));
    edges.push_back((i >> 1) | ((i & 1) << (k - 1)));
    index.push_back(static_cast<int>(edges.size()));
  }
  return graph_of_index(n, index.data(), edges.data());
}

inline CommGraph ring(int n) {
  std::vector<WeightedEdge> e;
  for (int i = 0; i < n; ++i) e.push_back({i, (i + 1) % n, 1});
  return make_comm_graph(n, e);
}

}  // namespace ringmpi::topo::testing
