// Process sets (MPI-4.0 §11.3.2): their names, their info, their groups.
//
//   mpi://WORLD            the processes of this MPI_COMM_WORLD
//   mpi://SELF             this process
//   ringmpi://package/<i>  the processes bound inside package i (hwloc's
//   ringmpi://numa/<i>     logical index), NUMA node i
//
// A process's place is where mpiexec binds it: the launcher passes every
// rank's cpus to every rank (shm::kEnvPlaces), so each process computes
// every set alone, and all compute the same list (a set is listed when it
// has a member). Ranks that are not bound (more ranks than cores, or
// --bind-to none) count as placed on the whole machine: they are in a
// package's or NUMA node's set only when the machine has one of them.
// With HWLOC_SYNTHETIC / HWLOC_XMLFILE the sets follow that topology and
// mpiexec's plan for it, so tests can show several NUMA nodes on any machine.
#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "api/info_args.hpp"
#include "api/session.hpp"
#include "comm/comm.hpp"
#include "comm/hw_levels.hpp"
#include "comm/numa.hpp"
#include "core/runtime.hpp"
#include "group/group.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {
namespace {

using Set = Pset;

// Every rank's place (a PU set each), from mpiexec's plan
// (comm::planned_cpus); the whole machine for each when it binds none.
// Rank r of this MPI_COMM_WORLD is process slot base + r (a spawned world
// starts past the slots already used: docs/design/dynamic-processes.md).
std::vector<hwloc_bitmap_t> places(const comm::NumaCache& topo, int base, int size) {
  std::vector<hwloc_bitmap_t> out;
  hwloc_const_cpuset_t machine = hwloc_topology_get_topology_cpuset(topo.topology);
  for (int r = 0; r < size; ++r) {
    hwloc_bitmap_t b = hwloc_bitmap_alloc();
    for (int cpu : comm::planned_cpus(base + r))
      if (hwloc_obj_t pu = comm::pu_of_cpu(topo, cpu)) hwloc_bitmap_set(b, pu->os_index);
    if (hwloc_bitmap_iszero(b)) hwloc_bitmap_copy(b, machine);
    out.push_back(b);
  }
  return out;
}

void add_level(const comm::NumaCache& topo, int depth, const char* label, int base,
               const std::vector<hwloc_bitmap_t>& where, std::vector<Set>* sets) {
  hwloc_topology_t t = topo.topology;
  const int n = hwloc_get_nbobjs_by_depth(t, depth);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_depth(t, depth, static_cast<unsigned>(i));
    if (!o || !o->cpuset) continue;
    Set s{std::string("ringmpi://") + label + "/" + std::to_string(o->logical_index), {}};
    for (std::size_t r = 0; r < where.size(); ++r)
      if (hwloc_bitmap_isincluded(where[r], o->cpuset)) s.world.push_back(base + static_cast<int>(r));
    if (!s.world.empty()) sets->push_back(std::move(s));
  }
}

// The list, made once per process (the machine and the binding do not
// change while it runs).
std::vector<Set> make_sets() {
  const int base = core::rt().world_base, size = core::rt().world_size;
  std::vector<Set> v;
  Set world{"mpi://WORLD", {}};
  for (int r = 0; r < size; ++r) world.world.push_back(base + r);
  v.push_back(std::move(world));
  v.push_back(Set{"mpi://SELF", {core::rt().rank}});
  std::unique_ptr<comm::NumaCache> topo = comm::load_topology();
  if (!topo) return v;
  const std::vector<hwloc_bitmap_t> where = places(*topo, base, size);
  const int package = hwloc_get_type_depth(topo->topology, HWLOC_OBJ_PACKAGE);
  if (package >= 0) add_level(*topo, package, "package", base, where, &v);
  add_level(*topo, HWLOC_TYPE_DEPTH_NUMANODE, "numa", base, where, &v);
  for (hwloc_bitmap_t b : where) hwloc_bitmap_free(b);
  return v;
}

const std::vector<Set>& all_sets() {
  std::vector<Set>& sets = sessions().psets;
  if (sets.empty()) sets = make_sets();
  return sets;
}

const Set* find_set(const char* name) {
  for (const Set& s : all_sets())
    if (s.name == name) return &s;
  return nullptr;
}

int pset_name_arg(Call& call, const char* pset_name, const Set** out) {
  if (int e = call.not_null(pset_name, "pset_name")) return e;
  *out = find_set(pset_name);
  if (*out) return MPI_SUCCESS;
  return call.fail(MPI_ERR_ARG,
                   "argument pset_name=\"%s\" names no process set (MPI_Session_get_nth_pset lists them: mpi://WORLD, "
                   "mpi://SELF, ringmpi://package/<i>, ringmpi://numa/<i>)",
                   pset_name);
}

}  // namespace

std::vector<std::string> pset_names() {
  std::vector<std::string> out;
  for (const Set& s : all_sets()) out.push_back(s.name);
  return out;
}

bool pset_members(const std::string& name, std::vector<int>* world_ranks) {
  const Set* s = find_set(name.c_str());
  if (s) *world_ranks = s->world;
  return s != nullptr;
}

}  // namespace ringmpi::api

using ringmpi::api::Session;
using ringmpi::api::session_arg;

extern "C" {

int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int* npset_names) {
  Call call("MPI_Session_get_num_psets");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  // `info` may narrow the query (§11.3.2); no key does here.
  if (info != MPI_INFO_NULL && !core::info_state().table.get(info))
    return call.fail(MPI_ERR_INFO, "argument info=0x%x is not a valid info object", static_cast<unsigned>(info));
  if (int e = call.not_null(npset_names, "npset_names")) return e;
  *npset_names = static_cast<int>(api::all_sets().size());
  return MPI_SUCCESS;
}

int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int* pset_len, char* pset_name) {
  Call call("MPI_Session_get_nth_pset");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  if (info != MPI_INFO_NULL && !core::info_state().table.get(info))
    return call.fail(MPI_ERR_INFO, "argument info=0x%x is not a valid info object", static_cast<unsigned>(info));
  const auto& sets = api::all_sets();
  if (n < 0 || n >= static_cast<int>(sets.size()))
    return call.fail(MPI_ERR_ARG, "argument n=%d is not in 0..%d (MPI_Session_get_num_psets says there are %d)", n,
                     static_cast<int>(sets.size()) - 1, static_cast<int>(sets.size()));
  if (int e = call.not_null(pset_len, "pset_len")) return e;
  if (*pset_len < 0) return call.fail(MPI_ERR_ARG, "argument *pset_len=%d is negative", *pset_len);
  const std::string& name = sets[static_cast<std::size_t>(n)].name;
  // *pset_len 0: only the length the name needs, NUL included (§11.3.2).
  if (*pset_len == 0) {
    *pset_len = static_cast<int>(name.size()) + 1;
    return MPI_SUCCESS;
  }
  if (int e = call.not_null(pset_name, "pset_name")) return e;
  const std::size_t len = std::min(name.size(), static_cast<std::size_t>(*pset_len - 1));
  std::memcpy(pset_name, name.data(), len);
  pset_name[len] = '\0';
  *pset_len = static_cast<int>(name.size()) + 1;
  return MPI_SUCCESS;
}

int MPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info) {
  Call call("MPI_Session_get_pset_info");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  const api::Set* set;
  if (int e = api::pset_name_arg(call, pset_name, &set)) return e;
  if (int e = call.not_null(info, "info")) return e;
  auto in = std::make_unique<core::Info>();
  in->set("mpi_size", std::to_string(set->world.size()));
  return api::new_info_handle(call, std::move(in), info);
}

int MPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup) {
  Call call("MPI_Group_from_session_pset");
  Session* s;
  if (int e = session_arg(call, session, &s)) return e;
  const api::Set* set;
  if (int e = api::pset_name_arg(call, pset_name, &set)) return e;
  if (int e = call.not_null(newgroup, "newgroup")) return e;
  const MPI_Group g = group::new_handle(group::Group::from_world_ranks(set->world));
  if (g == MPI_GROUP_NULL) return call.fail(MPI_ERR_INTERN, "2^20 groups are live; free some with MPI_Group_free");
  api::sessions().groups.emplace_back(g, session);
  *newgroup = g;
  return MPI_SUCCESS;
}

}  // extern "C"
