// Where a process runs, above its NUMA node: the hwloc tree levels the
// graph placement partitions over (topo/graph_map.hpp), read from the
// topology comm::this_process_numa_node() loaded (HWLOC_SYNTHETIC and
// HWLOC_XMLFILE honoured).
#pragma once

namespace ringmpi::topo {

// Logical index of the package holding NUMA node `numa` (a logical index),
// or 0 when the topology is not loaded or has no package above it.
int package_of_numa_node(int numa);

}  // namespace ringmpi::topo
