// hwloc synthetic machines for the reordering tests: the NUMA node of every
// PU, and where a launcher puts process p (packed or scattered).
#pragma once

#include <doctest/doctest.h>
#include <hwloc.h>

#include <vector>

namespace ringmpi::topo::testing {

// NUMA node (logical index) of every PU (logical index) of a synthetic machine.
inline std::vector<int> numa_of_pus(const char* synthetic) {
  hwloc_topology_t t;
  hwloc_topology_init(&t);
  REQUIRE(hwloc_topology_set_synthetic(t, synthetic) == 0);
  REQUIRE(hwloc_topology_load(t) == 0);
  const int pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  const int nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
  std::vector<int> out(static_cast<std::size_t>(pus), 0);
  for (int p = 0; p < pus; ++p) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, static_cast<unsigned>(p));
    for (int n = 0; n < nodes; ++n)
      if (hwloc_bitmap_isset(hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(n))->cpuset,
                             pu->os_index))
        out[static_cast<std::size_t>(p)] = n;
  }
  hwloc_topology_destroy(t);
  return out;
}

// Logical index of the object of `type` (a package, a NUMA node) above every
// PU (logical index) of a synthetic machine.
inline std::vector<int> level_of_pus(const char* synthetic, hwloc_obj_type_t type) {
  hwloc_topology_t t;
  hwloc_topology_init(&t);
  REQUIRE(hwloc_topology_set_synthetic(t, synthetic) == 0);
  REQUIRE(hwloc_topology_load(t) == 0);
  const int pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
  std::vector<int> out(static_cast<std::size_t>(pus), 0);
  for (int p = 0; p < pus; ++p) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, static_cast<unsigned>(p));
    hwloc_obj_t o = hwloc_get_ancestor_obj_by_type(t, type, pu);
    if (!o && type == HWLOC_OBJ_NUMANODE) {
      for (int n = 0; n < hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE); ++n) {
        hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(n));
        if (hwloc_bitmap_isset(node->cpuset, pu->os_index)) o = node;
      }
    }
    REQUIRE(o != nullptr);
    out[static_cast<std::size_t>(p)] = static_cast<int>(o->logical_index);
  }
  hwloc_topology_destroy(t);
  return out;
}

// Process p on PU p (packed) or on NUMA node p % nodes (scattered).
inline std::vector<int> domains(const std::vector<int>& numa, int nodes, bool scattered) {
  std::vector<int> d(numa.size());
  const int per = static_cast<int>(numa.size()) / nodes;
  for (int p = 0; p < static_cast<int>(numa.size()); ++p)
    d[static_cast<std::size_t>(p)] = numa[static_cast<std::size_t>(scattered ? (p % nodes) * per + p / nodes : p)];
  return d;
}

}  // namespace ringmpi::topo::testing
