#include "topo/locality.hpp"

#include <hwloc.h>
#include <sched.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "comm/comm.hpp"
#include "comm/numa.hpp"

namespace ringmpi::topo {
namespace {

constexpr hwloc_obj_type_t kType[kLevels] = {HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};

// The object of `type` above the PU of cpu (a tree type: not a NUMA node,
// which hangs off the tree as a memory child).
hwloc_obj_t above(const comm::NumaCache& topo, hwloc_obj_type_t type, int cpu) {
  hwloc_obj_t pu = comm::pu_of_cpu(topo, cpu);
  return pu ? hwloc_get_ancestor_obj_by_type(topo.topology, type, pu) : nullptr;
}

// Logical index of the one object of `type` holding every allowed cpu, or -1.
int common_object(const comm::NumaCache& topo, hwloc_obj_type_t type, const std::vector<int>& allowed) {
  hwloc_obj_t common = nullptr;
  for (int cpu : allowed) {
    hwloc_obj_t o = above(topo, type, cpu);
    if (!o || (common && o != common)) return -1;
    common = o;
  }
  return common ? static_cast<int>(common->logical_index) : -1;
}

// Logical index of the package above NUMA node `numa`, or -1.
int package_of_numa_node(const comm::NumaCache& topo, int numa) {
  hwloc_obj_t o = hwloc_get_obj_by_type(topo.topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(numa));
  for (; o; o = o->parent)
    if (o->type == HWLOC_OBJ_PACKAGE) return static_cast<int>(o->logical_index);
  return -1;
}

}  // namespace

Location location_of(const comm::NumaCache& topo, const std::vector<int>& allowed_cpus, int current_cpu) {
  Location l;
  l.at[kNuma] = comm::numa_node_of(topo, allowed_cpus, current_cpu);
  l.at[kPackage] = common_object(topo, HWLOC_OBJ_PACKAGE, allowed_cpus);
  if (l.at[kPackage] < 0) l.at[kPackage] = package_of_numa_node(topo, l.at[kNuma]);
  for (int k = kL3; k < kLevels; ++k) l.at[k] = common_object(topo, kType[k], allowed_cpus);
  return l;
}

Location this_process_location() {
  comm::State& s = comm::state();
  if (!s.numa) s.numa = comm::load_topology();
  if (!s.numa) return {{-1, 0, -1, -1, -1}};
  // The answer for one set of allowed cpus is kept when the cpu this process
  // runs on now does not change it (its allowed cpus share a NUMA node):
  // MPI_Cart_create with reorder asks on every call, and the hwloc lookups
  // were about 1500 of its 13k instructions at np = 4. (Under the call lock
  // like every MPI call, so the statics need no lock of their own.)
  static std::vector<int> kept_cpus;
  static Location kept{};
  std::vector<int> allowed = comm::this_process_allowed_cpus();
  if (!kept_cpus.empty() && allowed == kept_cpus) return kept;
  const Location here = location_of(*s.numa, allowed, sched_getcpu());
  const Location anywhere = location_of(*s.numa, allowed, -1);
  if (!allowed.empty() && std::equal(std::begin(here.at), std::end(here.at), std::begin(anywhere.at))) {
    kept = here;
    kept_cpus = std::move(allowed);
  }
  return here;
}

}  // namespace ringmpi::topo
