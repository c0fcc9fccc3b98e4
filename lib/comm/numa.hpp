// Which NUMA node this rank runs on (MPI_Comm_split_type with the ringmpi
// extension RMPI_COMM_TYPE_NUMA).
//
// The topology comes from hwloc, which honours HWLOC_SYNTHETIC and
// HWLOC_XMLFILE, so tests can describe several NUMA nodes on a one-node
// machine. Binding and location are read from the kernel (sched_getaffinity,
// sched_getcpu), not through hwloc: hwloc cannot query them on a topology that
// is not "this system" (a synthetic or XML one). OS cpu numbers are matched
// to the topology's PUs by OS index.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

struct hwloc_topology;
struct hwloc_obj;

namespace ringmpi::comm {

// An hwloc topology, owned.
struct NumaCache {
  explicit NumaCache(hwloc_topology* t) : topology(t) {}
  NumaCache(const NumaCache&) = delete;
  NumaCache& operator=(const NumaCache&) = delete;
  ~NumaCache();
  hwloc_topology* topology;
};

// The PU with OS index `cpu`; a cpu the topology does not have (a
// synthetic topology smaller than the machine) counts as the PU of logical
// index cpu % (number of PUs), deterministically. nullptr when cpu < 0 or
// the topology has no PU.
hwloc_obj* pu_of_cpu(const NumaCache& topo, int cpu);

// Logical index of the NUMA node for a rank allowed on `allowed_cpus` (OS
// numbers) and running on `current_cpu`: the one node all allowed cpus are
// in; when they span several nodes (an unbound rank), the node of
// current_cpu. A cpu the topology does not have (a synthetic topology
// smaller than the machine) counts as cpu % (number of PUs), so every rank
// still gets a node. Returns 0 when the topology has no NUMA node.
int numa_node_of(const NumaCache& topo, const std::vector<int>& allowed_cpus, int current_cpu);

// The OS numbers of the cpus the calling process may run on (its binding).
std::vector<int> this_process_allowed_cpus();

// The node of the calling process; loads (once) and caches the topology.
int this_process_numa_node();

// Binds the pages of [addr, addr + len) to NUMA node `node` (logical index)
// with hwloc, moving pages already there; only on a real machine of several
// nodes (not a synthetic or XML topology). Returns whether it did.
bool bind_to_node(void* addr, std::size_t len, int node);

// Loads the topology as hwloc sees it now (environment included); nullptr
// when hwloc fails.
std::unique_ptr<NumaCache> load_topology();

}  // namespace ringmpi::comm
