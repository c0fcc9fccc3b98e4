// How placements are compared (graph and Cartesian alike): by the weight of
// the edges that cross a domain at each level of the hierarchy, coarsest
// level first, lexicographically: fewer package crossings win, then fewer
// NUMA crossings, then fewer crossings of each cache level down. A crossing
// higher up costs more than any number lower down (a remote NUMA node's
// memory is slower than any cache miss inside one), hence lexicographic
// rather than a weighted sum.
#pragma once

#include <cstdint>
#include <vector>

#include "topo/graph_map.hpp"

namespace ringmpi::topo {

// The cut weight of g at each level, when process p holds node node_of[p]
// (levels[k][p]: process p's domain at level k).
std::vector<std::int64_t> level_cuts(const CommGraph& g, const std::vector<std::vector<int>>& levels,
                                     const std::vector<int>& node_of);

// Of the candidate placements (each a node_of; those that are no
// permutation of 0..n-1 are skipped), the first whose level_cuts are
// lexicographically smallest, if they are strictly smaller than the
// identity's; else the identity. So a placement never loses to the identity
// and the identity is kept when nothing helps.
std::vector<int> best_placement(const CommGraph& g, const std::vector<std::vector<int>>& levels,
                                const std::vector<std::vector<int>>& candidates);

}  // namespace ringmpi::topo
