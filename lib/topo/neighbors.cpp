#include "topo/neighbors.hpp"

#include "mpi.h"

namespace ringmpi::topo {

Neighbors neighbors_of(const Topology& t, int rank) {
  Neighbors n;
  switch (t.kind) {
    case Topology::Kind::cart: {
      const int nd = static_cast<int>(t.dims.size());
      for (int d = 0; d < nd; ++d) {
        int lo, hi;
        t.cart_shift(rank, d, 1, &lo, &hi);
        n.sources.push_back(lo);
        n.sources.push_back(hi);
        // Receives of a dimension: the positive side first. A neighbour
        // sends to its negative side first, and that message is for its
        // negative neighbour's positive-side block; when the same rank is
        // both neighbours (a periodic dimension of 1 or 2), first-come
        // first-matched then pairs each block with the right message.
        n.recv_order.push_back(2 * d + 1);
        n.recv_order.push_back(2 * d);
      }
      n.destinations = n.sources;
      return n;
    }
    case Topology::Kind::graph: {
      const int deg = t.graph_degree(rank);
      const int* nb = t.graph_neighbors(rank);
      n.sources.assign(nb, nb + deg);
      n.destinations = n.sources;
      break;
    }
    case Topology::Kind::dist_graph:
      n.sources = t.sources;
      n.destinations = t.destinations;
      break;
  }
  // Several edges between two ranks pair up in order (the k-th message from
  // a rank fills the k-th block listing it), which is posting order.
  for (int i = 0; i < static_cast<int>(n.sources.size()); ++i) n.recv_order.push_back(i);
  return n;
}

std::shared_ptr<const Neighbors> cached_neighbors(const Topology& t, int rank) {
  if (!t.neighbors || t.neighbors_rank != rank) {
    t.neighbors = std::make_shared<const Neighbors>(neighbors_of(t, rank));
    t.neighbors_rank = rank;
  }
  return t.neighbors;
}

}  // namespace ringmpi::topo
