// Edge routing for MPI_Dist_graph_create over the library's internal
// collectives (never the public MPI_Alltoallv: a rank with no edges passes
// no buffer at all, and errors must be reported under the caller's name).
//
// Round 1: every rank's edge count, with a one-word mask ANDed over all
// ranks that says whether every rank's arguments were valid. Round 2 (only
// when they were): every rank's edges, padded to the largest count. Each
// rank then picks the edges that touch it. The data are at most a few ints
// per edge per rank, so an all-gather costs no more than routing would here.
#include "topo/edge_routing.hpp"

#include <algorithm>
#include <cstdint>

#include "coll/base.hpp"

namespace ringmpi::topo {

bool route_edges(const comm::Comm& c, const std::vector<Edge>& mine, const std::string& bad, Adjacency* out,
                 std::string* why) {
  const coll::Peers peers = coll::peers_of(c);
  const int n = peers.size();
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(n));
  std::uint64_t ok = bad.empty() ? 1 : 0;
  coll::allgather_and(peers, &count, sizeof count, counts.data(), &ok, 1);
  if (!ok) {
    *why = bad.empty() ? "another rank's arguments were invalid" : bad;
    return false;
  }
  const int most = *std::max_element(counts.begin(), counts.end());
  if (most == 0) return true;
  const std::size_t block = static_cast<std::size_t>(most) * sizeof(Edge);
  std::vector<Edge> padded(mine);
  padded.resize(static_cast<std::size_t>(most));
  std::vector<Edge> all(static_cast<std::size_t>(most) * static_cast<std::size_t>(n));
  std::uint64_t ignored = 1;
  coll::allgather_and(peers, padded.data(), block, all.data(), &ignored, 1);
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < counts[static_cast<std::size_t>(r)]; ++i) {
      const Edge& e = all[static_cast<std::size_t>(r) * static_cast<std::size_t>(most) + static_cast<std::size_t>(i)];
      if (e.source == c.rank) {
        out->destinations.push_back(e.dest);
        out->dest_weights.push_back(e.weight);
      }
      if (e.dest == c.rank) {
        out->sources.push_back(e.source);
        out->source_weights.push_back(e.weight);
      }
    }
  return true;
}

}  // namespace ringmpi::topo
