// Where a process runs: the objects of hwloc's tree that hold it (package,
// NUMA node, L3, L2 and L1 cache), from the topology comm/numa.hpp loads
// (HWLOC_SYNTHETIC and HWLOC_XMLFILE honoured) and the binding the launcher
// gave the process (its allowed cpus, read from the kernel). The placement
// (topo/levels.hpp) tells processes apart by these.
#pragma once

#include <cstdint>
#include <vector>

namespace ringmpi::comm {
struct NumaCache;
}

namespace ringmpi::topo {

// The levels of the hierarchy, in the order a usual machine nests them
// (topo/levels.hpp orders them by the machine at hand).
enum Level : int { kPackage, kNuma, kL3, kL2, kL1, kLevels };

// Logical index of the object holding the process at each level, -1 where
// it has none (the machine has no such object, or the process is not
// confined to one: see location_of). Plain int32s: it travels in the
// constructors' agreement round as bytes.
struct Location {
  std::int32_t at[kLevels];
};

// For a process allowed on `allowed_cpus` (OS numbers) and running on
// `current_cpu`. NUMA node: comm::numa_node_of (an unbound process counts
// where it runs now: the kernel keeps a process near its memory). Package:
// the one holding every allowed cpu, else the one above that NUMA node.
// Caches: the one holding every allowed cpu, else -1: an unbound process
// moves between cores all the time, so the cache it runs under now says
// nothing about where it will run.
Location location_of(const comm::NumaCache& topo, const std::vector<int>& allowed_cpus, int current_cpu);

// The calling process's location; loads (once) and caches the topology.
// All -1 but NUMA node 0 when hwloc cannot load one.
Location this_process_location();

}  // namespace ringmpi::topo
