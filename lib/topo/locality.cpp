#include "topo/locality.hpp"

#include <hwloc.h>

#include "comm/comm.hpp"
#include "comm/numa.hpp"

namespace ringmpi::topo {

int package_of_numa_node(int numa) {
  const comm::NumaCache* cache = comm::state().numa.get();
  if (!cache || numa < 0) return 0;
  hwloc_obj_t o = hwloc_get_obj_by_type(cache->topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(numa));
  for (; o; o = o->parent)
    if (o->type == HWLOC_OBJ_PACKAGE) return static_cast<int>(o->logical_index);
  return 0;
}

}  // namespace ringmpi::topo
