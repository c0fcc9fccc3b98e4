// hwloc synthetic machines as the library sees them (a comm::NumaCache, as
// comm::load_topology gives under HWLOC_SYNTHETIC), processes bound to one
// PU each the way a launcher maps them, and where each then runs
// (topo::location_of, the constructors' own code).
#pragma once

#include <doctest/doctest.h>
#include <hwloc.h>

#include <memory>
#include <vector>

#include "comm/numa.hpp"
#include "topo/locality.hpp"

namespace ringmpi::topo::testing {

inline std::unique_ptr<comm::NumaCache> machine(const char* synthetic) {
  hwloc_topology_t t;
  REQUIRE(hwloc_topology_init(&t) == 0);
  REQUIRE(hwloc_topology_set_synthetic(t, synthetic) == 0);
  REQUIRE(hwloc_topology_load(t) == 0);
  return std::make_unique<comm::NumaCache>(t);
}

// OS index of the PU of process p < n: PU p (packed: --map-by core).
inline std::vector<int> packed(const comm::NumaCache& m, int n) {
  std::vector<int> pus;
  for (int p = 0; p < n; ++p) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(m.topology, HWLOC_OBJ_PU, static_cast<unsigned>(p));
    REQUIRE(pu != nullptr);
    pus.push_back(static_cast<int>(pu->os_index));
  }
  return pus;
}

// Round-robin over the k objects of `type` (--map-by numa, --map-by
// l3cache): process p on the (p / k)-th PU of object p % k.
inline std::vector<int> round_robin(const comm::NumaCache& m, hwloc_obj_type_t type, int n) {
  const int k = hwloc_get_nbobjs_by_type(m.topology, type);
  REQUIRE(k > 0);
  std::vector<int> pus;
  for (int p = 0; p < n; ++p) {
    hwloc_obj_t o = hwloc_get_obj_by_type(m.topology, type, static_cast<unsigned>(p % k));
    hwloc_obj_t pu =
        hwloc_get_obj_inside_cpuset_by_type(m.topology, o->cpuset, HWLOC_OBJ_PU, static_cast<unsigned>(p / k));
    REQUIRE(pu != nullptr);
    pus.push_back(static_cast<int>(pu->os_index));
  }
  return pus;
}

// Where each process runs when bound to its one PU.
inline std::vector<Location> bound_to(const comm::NumaCache& m, const std::vector<int>& pus) {
  std::vector<Location> where;
  for (int cpu : pus) where.push_back(location_of(m, {cpu}, cpu));
  return where;
}

}  // namespace ringmpi::topo::testing
