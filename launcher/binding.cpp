#include "binding.hpp"

#include <hwloc.h>
#include <hwloc/glibc-sched.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

namespace ringmpi::launcher {
namespace {

struct Topology {
  hwloc_topology_t t = nullptr;
  ~Topology() {
    if (t) hwloc_topology_destroy(t);
  }
};

bool foreign_topology_requested() {
  const char* syn = std::getenv("HWLOC_SYNTHETIC");
  const char* xml = std::getenv("HWLOC_XMLFILE");
  return (syn && *syn) || (xml && *xml);
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return CPU_COUNT(&set);
}

std::string cpus_text(hwloc_const_bitmap_t set) {
  char* s = nullptr;
  hwloc_bitmap_list_asprintf(&s, set);
  std::unique_ptr<char, decltype(&std::free)> hold(s, &std::free);
  return s ? s : "?";
}

hwloc_obj_t numa_of(hwloc_topology_t t, hwloc_obj_t core) {
  hwloc_obj_t numa = nullptr;
  while ((numa = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, numa)))
    if (hwloc_bitmap_intersects(numa->cpuset, core->cpuset)) return numa;
  return nullptr;
}

}  // namespace

BindPlan plan_binding(Bind requested, int nranks) {
  BindPlan plan;
  if (requested == Bind::none) {
    plan.reason = "--bind-to none";
    return plan;
  }
  const bool foreign = foreign_topology_requested();
  if (requested == Bind::automatic && !foreign) {
    // Cores never outnumber usable CPUs, so this decides without hwloc.
    const int cpus = usable_cpus();
    if (cpus > 0 && nranks > cpus) {
      plan.reason = std::to_string(nranks) + " ranks > " + std::to_string(cpus) + " usable cpus";
      return plan;
    }
  }

  Topology topo;
  if (hwloc_topology_init(&topo.t) != 0) {
    plan.reason = "hwloc_topology_init failed";
    topo.t = nullptr;
    return plan;
  }
  // The x86 backend adds nothing the Linux one does not know for cores and
  // NUMA nodes, and its CPUID probing is slow in a VM (each one exits to the
  // hypervisor): ~5 ms of mpiexec's start on this machine.
  hwloc_topology_set_components(topo.t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
  if (requested != Bind::numa) {
    // Cores and PUs are all a core binding needs; skipping the rest makes
    // loading several times faster. Not for numa: a NUMA node hangs below
    // a package, group or cache, and filtering those out would widen its
    // cpuset to its nearest kept ancestor.
    hwloc_topology_set_all_types_filter(topo.t, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(topo.t, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
  }
  if (hwloc_topology_load(topo.t) != 0) {
    plan.reason = "hwloc could not load the topology";
    return plan;
  }
  hwloc_obj_type_t unit_type = HWLOC_OBJ_CORE;
  int units = hwloc_get_nbobjs_by_type(topo.t, HWLOC_OBJ_CORE);
  if (units <= 0) {
    unit_type = HWLOC_OBJ_PU;
    units = hwloc_get_nbobjs_by_type(topo.t, HWLOC_OBJ_PU);
  }
  if (units <= 0) {
    plan.reason = "the topology has no cores";
    return plan;
  }
  const std::string unit_name = unit_type == HWLOC_OBJ_CORE ? "core" : "pu";
  plan.cores = units;

  if (requested == Bind::automatic) {
    if (nranks > units) {
      plan.reason = std::to_string(nranks) + " ranks > " + std::to_string(units) + " " + unit_name + "s";
      return plan;
    }
    plan.policy = Bind::core;
    plan.reason = std::to_string(nranks) + " ranks <= " + std::to_string(units) + " " + unit_name + "s";
  } else {
    plan.policy = requested;
    plan.reason = std::string("--bind-to ") + bind_name(requested);
  }
  plan.apply = hwloc_topology_is_thissystem(topo.t) != 0;
  if (!plan.apply) plan.reason += " (foreign topology: computed, not applied)";

  plan.ranks.resize(static_cast<std::size_t>(nranks));
  for (int r = 0; r < nranks; ++r) {
    const unsigned index = static_cast<unsigned>(r % units);
    hwloc_obj_t unit = hwloc_get_obj_by_type(topo.t, unit_type, index);
    hwloc_obj_t target = unit;
    std::string where = unit_name + " " + std::to_string(index);
    if (plan.policy == Bind::numa) {
      if (hwloc_obj_t numa = numa_of(topo.t, unit)) {
        target = numa;
        where = "NUMA node " + std::to_string(numa->logical_index);
      }
    }
    Placement& p = plan.ranks[static_cast<std::size_t>(r)];
    p.where = where + " (cpus " + cpus_text(target->cpuset) + ")";
    CPU_ZERO(&p.cpus);
    hwloc_cpuset_to_glibc_sched_affinity(topo.t, target->cpuset, &p.cpus, sizeof p.cpus);
  }
  return plan;
}

int default_universe(const BindPlan& plan, int nranks) {
  if (plan.cores > 0) return std::max(plan.cores, nranks);
  const int cpus = usable_cpus();
  if (cpus > 0 && nranks >= cpus && !foreign_topology_requested()) return nranks;  // cores <= cpus
  Topology topo;
  if (hwloc_topology_init(&topo.t) != 0) {
    topo.t = nullptr;
    return std::max(nranks, cpus);
  }
  hwloc_topology_set_components(topo.t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
  hwloc_topology_set_all_types_filter(topo.t, HWLOC_TYPE_FILTER_KEEP_NONE);
  hwloc_topology_set_type_filter(topo.t, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
  if (hwloc_topology_load(topo.t) != 0) return std::max(nranks, cpus);
  int units = hwloc_get_nbobjs_by_type(topo.t, HWLOC_OBJ_CORE);
  if (units <= 0) units = hwloc_get_nbobjs_by_type(topo.t, HWLOC_OBJ_PU);
  return std::max(nranks, units);
}

std::string places_text(const BindPlan& plan) {
  std::string out;
  for (std::size_t r = 0; r < plan.ranks.size(); ++r) {
    if (r) out += ';';
    const cpu_set_t& set = plan.ranks[r].cpus;
    bool first = true;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (!CPU_ISSET(c, &set)) continue;
      int last = c;
      while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
      if (!first) out += ',';
      first = false;
      out += std::to_string(c);
      if (last > c) out += "-" + std::to_string(last);
      c = last;
    }
  }
  return out;
}

}  // namespace ringmpi::launcher
