// Where this process sits in the machine's hardware hierarchy, as hwloc
// describes it (HWLOC_SYNTHETIC / HWLOC_XMLFILE honoured, as in numa.hpp):
// for MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED / _HW_UNGUIDED (MPI-4.0
// §7.4.2), MPI_Get_hw_resource_info (4.1 §11.4.2) and the ringmpi:// process
// sets of sessions (lib/api/session_psets.cpp).
//
// A process's place is where mpiexec binds it (planned_cpus: the plan
// mpiexec passes to every rank, which on a synthetic or XML topology is not
// applied but still says where each rank would run), else the set of cpus
// it may run on; its object at a level is the one object of that level
// containing all those PUs, or, for a process not bound inside one
// (unbound, or bound across two), the object of the cpu it runs on now,
// like numa_node_of.
#pragma once

#include <string>
#include <vector>

namespace ringmpi::comm {

// The OS cpu numbers mpiexec binds world rank `rank` to (shm::kEnvPlaces),
// or empty when it binds no rank.
std::vector<int> planned_cpus(int rank);

// One level of the hierarchy and this process's object there.
struct HwLevel {
  std::string type;  // hwloc's name: "Machine", "Package", "NUMANode", "L3Cache", "Core", "PU", ...
  int depth = 0;     // hwloc depth (negative for NUMANode, a memory level)
  int count = 0;     // objects at this level in the machine
  int index = -1;    // this process's object (logical index)
};

// The levels from the machine down to the PU, NUMANode placed just below
// the deepest level whose objects each hold whole NUMA nodes; levels that
// add no split (one object per object of the level above) are kept, so
// the list names every type hwloc shows. Empty when hwloc fails.
std::vector<HwLevel> this_process_levels();

// This process's object at the level named `type` (hwloc's type names,
// case-insensitive, e.g. "Package", "NUMANode", "L3Cache", "Core"): true
// and *level filled, or false when this machine has no such level.
bool this_process_level(const std::string& type, HwLevel* level);

}  // namespace ringmpi::comm
