// Edge routing for MPI_Dist_graph_create over the library's internal
// collectives (never the public MPI_Alltoallv: a rank with no edges passes
// no buffer at all, and errors must be reported under the caller's name).
//
// Every rank's edges, padded to the largest count, travel in one
// all-gather; each rank then picks the edges that touch its node. The data
// are a few ints per edge, and with reordering every rank needs the whole
// graph anyway (to compute the same placement), so an all-gather costs no
// more than routing would here.
#include "topo/edge_routing.hpp"

#include <algorithm>
#include <cstdint>

#include "coll/base.hpp"

namespace ringmpi::topo {

std::vector<std::vector<Edge>> gather_edges(const comm::Comm& c, const std::vector<Edge>& mine,
                                            const std::vector<int>& counts) {
  const coll::Peers peers = coll::peers_of(c);
  const std::size_t n = static_cast<std::size_t>(peers.size());
  std::vector<std::vector<Edge>> out(n);
  const int most = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  if (most == 0) return out;
  const std::size_t width = static_cast<std::size_t>(most);
  std::vector<Edge> padded(mine);
  padded.resize(width);
  std::vector<Edge> all(width * n);
  std::uint64_t ignored = 1;
  coll::allgather_and(peers, padded.data(), width * sizeof(Edge), all.data(), &ignored, 1);
  for (std::size_t r = 0; r < n; ++r) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(r * width);
    out[r].assign(first, first + counts[r]);
  }
  return out;
}

Adjacency adjacency_of(const std::vector<std::vector<Edge>>& all, int node) {
  Adjacency a;
  for (const auto& from_rank : all)
    for (const Edge& e : from_rank) {
      if (e.source == node) {
        a.destinations.push_back(e.dest);
        a.dest_weights.push_back(e.weight);
      }
      if (e.dest == node) {
        a.sources.push_back(e.source);
        a.source_weights.push_back(e.weight);
      }
    }
  return a;
}

}  // namespace ringmpi::topo
