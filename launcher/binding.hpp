// Where each rank runs: the --bind-to policy turned into one CPU set per
// rank with hwloc.
//
// Rank r is placed on core r mod C (cores in hwloc's logical order, so
// consecutive ranks share a NUMA node); --bind-to numa widens that to the
// NUMA node holding the core. Topologies without cores use PUs instead.
// With HWLOC_SYNTHETIC / HWLOC_XMLFILE the plan is computed and reported
// from that topology but not applied (it is not this machine's).
// The automatic policy binds to cores when the ranks fit on the cores; when
// there are more ranks than usable CPUs it decides "none" without loading
// the topology at all (a launch-time saving).
#pragma once

#include <sched.h>

#include <string>
#include <vector>

#include "options.hpp"

namespace ringmpi::launcher {

struct Placement {
  std::string where;  // "core 1 (cpus 1,3)" or "NUMA node 0 (cpus 0-7)"
  cpu_set_t cpus;
};

struct BindPlan {
  Bind policy = Bind::none;     // what was decided (never automatic)
  bool apply = false;           // false for foreign (synthetic/XML) topologies
  std::string reason;           // why, for --verbose
  std::vector<Placement> ranks; // empty when policy is none
  int cores = 0;                // cores hwloc saw, 0 when the plan did not load the topology
};

// On a topology error returns policy none with the error in reason.
BindPlan plan_binding(Bind requested, int nranks);

// MPI_UNIVERSE_SIZE by default: the cores hwloc sees (PUs where it sees no
// cores), at least nranks. Loads the topology only when `plan` did not and
// the answer is not nranks anyway (more ranks than usable CPUs).
int default_universe(const BindPlan& plan, int nranks);

// The plan as shm::kEnvPlaces spells it: each rank's cpus ("0-1,4"), ';' between ranks.
std::string places_text(const BindPlan& plan);

}  // namespace ringmpi::launcher
