// A communicator's members grouped by NUMA node, for the two-level
// collectives on its segment (coll/seg_numa.cpp): pure, unit tested.
#pragma once

#include <vector>

namespace ringmpi::coll {

struct NumaGroups {
  std::vector<int> group_of;              // member -> its group
  std::vector<std::vector<int>> members;  // group -> its members, ascending; groups ordered by their lowest member
  bool contiguous = true;                 // every group is a run of consecutive ranks
  int count() const { return static_cast<int>(members.size()); }
  int leader(int g) const { return members[static_cast<std::size_t>(g)][0]; }
  // Worth two levels: several nodes, and some node with several members.
  bool two_level() const { return count() > 1 && count() < static_cast<int>(group_of.size()); }
};

// Groups members by node[i] (the NUMA node each member reported at attach).
inline NumaGroups group_by_node(const std::vector<int>& node) {
  NumaGroups g;
  std::vector<int> node_of_group;
  g.group_of.resize(node.size());
  for (std::size_t i = 0; i < node.size(); ++i) {
    int k = 0;
    while (k < g.count() && node_of_group[static_cast<std::size_t>(k)] != node[i]) ++k;
    if (k == g.count()) {
      node_of_group.push_back(node[i]);
      g.members.emplace_back();
    }
    g.group_of[i] = k;
    auto& m = g.members[static_cast<std::size_t>(k)];
    if (!m.empty() && m.back() != static_cast<int>(i) - 1) g.contiguous = false;
    m.push_back(static_cast<int>(i));
  }
  return g;
}

}  // namespace ringmpi::coll
