#include "comm/hw_levels.hpp"

#include <hwloc.h>
#include <sched.h>
#include <strings.h>

#include <cstdlib>
#include <cstring>

#include "comm/comm.hpp"
#include "comm/numa.hpp"
#include "shm/arena.hpp"

namespace ringmpi::comm {
namespace {

const NumaCache* topology() {
  State& s = state();
  if (!s.numa) s.numa = load_topology();
  return s.numa.get();
}

// The object at `depth` holding every PU of `place`, else the one holding `current`.
int index_at(hwloc_topology_t t, int depth, hwloc_const_cpuset_t place, hwloc_obj_t current) {
  if (!hwloc_bitmap_iszero(place))
    for (hwloc_obj_t o = hwloc_get_next_obj_by_depth(t, depth, nullptr); o; o = hwloc_get_next_obj_by_depth(t, depth, o))
      if (o->cpuset && hwloc_bitmap_isincluded(place, o->cpuset)) return static_cast<int>(o->logical_index);
  if (!current) return 0;
  for (hwloc_obj_t o = hwloc_get_next_obj_by_depth(t, depth, nullptr); o; o = hwloc_get_next_obj_by_depth(t, depth, o))
    if (o->cpuset && hwloc_bitmap_isincluded(current->cpuset, o->cpuset)) return static_cast<int>(o->logical_index);
  return 0;
}

HwLevel level_at(hwloc_topology_t t, int depth, hwloc_const_cpuset_t place, hwloc_obj_t current) {
  HwLevel l;
  l.type = hwloc_obj_type_string(hwloc_get_depth_type(t, depth));
  l.depth = depth;
  l.count = hwloc_get_nbobjs_by_depth(t, depth);
  l.index = index_at(t, depth, place, current);
  return l;
}

}  // namespace

std::vector<int> planned_cpus(int rank) {
  std::vector<int> cpus;
  const char* env = std::getenv(shm::kEnvPlaces);
  if (!env || rank < 0) return cpus;
  const char* p = env;
  for (int r = 0; r < rank && p; ++r) {
    p = std::strchr(p, ';');
    if (p) ++p;
  }
  if (!p) return cpus;
  const char* end = std::strchr(p, ';');
  const std::string item(p, end ? static_cast<std::size_t>(end - p) : std::strlen(p));
  std::size_t at = 0;
  while (at < item.size()) {
    const std::size_t comma = item.find(',', at);
    const std::string range = item.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    const int lo = std::atoi(range.c_str());
    const std::size_t dash = range.find('-');
    const int hi = dash == std::string::npos ? lo : std::atoi(range.c_str() + dash + 1);
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return cpus;
}

std::vector<HwLevel> this_process_levels() {
  std::vector<HwLevel> levels;
  const NumaCache* topo = topology();
  if (!topo) return levels;
  hwloc_topology_t t = topo->topology;
  hwloc_bitmap_t place = hwloc_bitmap_alloc();
  std::vector<int> cpus = planned_cpus(core::rt().rank);
  if (cpus.empty()) cpus = this_process_allowed_cpus();
  for (int cpu : cpus)
    if (hwloc_obj_t pu = pu_of_cpu(*topo, cpu)) hwloc_bitmap_set(place, pu->os_index);
  hwloc_obj_t current = pu_of_cpu(*topo, sched_getcpu());
  // NUMA nodes hang off the normal level that holds them (hwloc 2): they
  // come right after it.
  const int nnuma = hwloc_get_nbobjs_by_depth(t, HWLOC_TYPE_DEPTH_NUMANODE);
  hwloc_obj_t numa0 = nnuma > 0 ? hwloc_get_obj_by_depth(t, HWLOC_TYPE_DEPTH_NUMANODE, 0) : nullptr;
  const int numa_after = numa0 && numa0->parent ? numa0->parent->depth : -1;
  const int depth = hwloc_topology_get_depth(t);
  for (int d = 0; d < depth; ++d) {
    levels.push_back(level_at(t, d, place, current));
    if (d == numa_after) levels.push_back(level_at(t, HWLOC_TYPE_DEPTH_NUMANODE, place, current));
  }
  hwloc_bitmap_free(place);
  return levels;
}

bool this_process_level(const std::string& type, HwLevel* level) {
  for (const HwLevel& l : this_process_levels())
    if (strcasecmp(l.type.c_str(), type.c_str()) == 0) {
      *level = l;
      return true;
    }
  return false;
}

}  // namespace ringmpi::comm
