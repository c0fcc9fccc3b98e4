// From where every process runs (topo/locality.hpp) to the domains the
// placement partitions over (topo/graph_map.hpp, topo/cart_map.hpp):
// levels[k][p] is process p's domain at level k, coarsest level first.
//
// A pure function of the gathered locations, so every rank derives the same
// levels and the same placement.
#pragma once

#include <vector>

#include "topo/locality.hpp"

namespace ringmpi::topo {

struct Levels {
  std::vector<Level> kind;                 // which hwloc level each one is
  std::vector<std::vector<int>> domain;    // domain[k][p], 0.. in each level
  bool empty() const { return domain.empty(); }
};

// The levels of `where` (one Location per process) that tell processes
// apart, nested and ordered coarsest first:
//  - order: fewer distinct objects among the processes first, ties in
//    Level order; on the usual machine that is package, NUMA node, L3, L2,
//    L1, and on one whose L3 holds several NUMA nodes (sub-NUMA clustering)
//    the L3 comes before them;
//  - nested: a process's domain at level k is the tuple of its objects at
//    levels 0..k (numbered in lexicographic order), so each domain lies in
//    one domain of the level above it even where hwloc's objects do not;
//  - dropped: a level some process has no object at (-1: unbound, or no
//    such object), one that splits no domain of the level above it (one
//    package, an L3 per NUMA node), and one where every process is alone
//    (its crossings are the same under every placement).
// Empty when nothing tells the processes apart: no placement can beat the
// identity.
Levels placement_levels(const std::vector<Location>& where);

}  // namespace ringmpi::topo
