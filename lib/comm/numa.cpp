#include "comm/numa.hpp"

#include <hwloc.h>
#include <sched.h>

#include "comm/comm.hpp"

namespace ringmpi::comm {

NumaCache::~NumaCache() { hwloc_topology_destroy(topology); }

std::unique_ptr<NumaCache> load_topology() {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) != 0) return nullptr;
  if (hwloc_topology_load(t) != 0) {
    hwloc_topology_destroy(t);
    return nullptr;
  }
  return std::make_unique<NumaCache>(t);
}

namespace {

// Logical index of the NUMA node holding the PU with OS index cpu (folded
// into the topology's PU count), or -1.
int node_of_cpu(const NumaCache& topo, int cpu) {
  hwloc_topology_t t = topo.topology;
  hwloc_obj_t pu = pu_of_cpu(topo, cpu);
  if (!pu) return -1;
  const int nnodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
  for (int i = 0; i < nnodes; ++i) {
    hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, unsigned(i));
    if (node && node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index)) return int(node->logical_index);
  }
  return -1;
}

}  // namespace

hwloc_obj* pu_of_cpu(const NumaCache& topo, int cpu) {
  hwloc_topology_t t = topo.topology;
  const int npu = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  if (npu <= 0 || cpu < 0) return nullptr;
  if (hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, unsigned(cpu))) return pu;
  // Not in this topology: fold onto its PUs by position, deterministically.
  return hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, unsigned(cpu % npu));
}

int numa_node_of(const NumaCache& topo, const std::vector<int>& allowed_cpus, int current_cpu) {
  int common = -1;
  bool single = !allowed_cpus.empty();
  for (int cpu : allowed_cpus) {
    const int n = node_of_cpu(topo, cpu);
    if (common == -1) common = n;
    if (n != common) {
      single = false;
      break;
    }
  }
  if (single && common >= 0) return common;
  const int n = node_of_cpu(topo, current_cpu);
  if (n >= 0) return n;
  return common >= 0 ? common : 0;
}

std::vector<int> this_process_allowed_cpus() {
  std::vector<int> allowed;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return allowed;
  // Stop at the last allowed cpu instead of testing all CPU_SETSIZE (1024)
  // bits: MPI_Cart_create with reorder asks on every call, and the full scan
  // was a fifth of that call's instructions on a 2-cpu machine.
  const int n = CPU_COUNT(&set);
  allowed.reserve(static_cast<std::size_t>(n));
  for (int c = 0; static_cast<int>(allowed.size()) < n && c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) allowed.push_back(c);
  return allowed;
}

int this_process_numa_node() {
  State& s = state();
  if (!s.numa) s.numa = load_topology();
  if (!s.numa) return 0;
  return numa_node_of(*s.numa, this_process_allowed_cpus(), sched_getcpu());
}

bool bind_to_node(void* addr, std::size_t len, int node) {
  State& s = state();
  if (!s.numa) s.numa = load_topology();
  if (!s.numa) return false;
  hwloc_topology_t t = s.numa->topology;
  if (!hwloc_topology_is_thissystem(t) || hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE) < 2) return false;
  hwloc_obj_t n = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(node));
  if (!n) return false;
  return hwloc_set_area_membind(t, addr, len, n->nodeset, HWLOC_MEMBIND_BIND,
                                HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_MIGRATE) == 0;
}

}  // namespace ringmpi::comm
