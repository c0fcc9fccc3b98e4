// Intracommunicator constructors and MPI_Comm_free (the logic is in lib/comm).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "api/call.hpp"
#include "api/comm_hints.hpp"
#include "api/info_args.hpp"
#include "api/comm_free.hpp"
#include "coll/barrier.hpp"
#include "coll/idup.hpp"
#include "coll/segment.hpp"
#include "comm/create.hpp"
#include "comm/hw_levels.hpp"
#include "comm/numa.hpp"
#include "comm/peers.hpp"
#include "exchange/exchange.hpp"
#include "core/attributes.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"
#include "group/group.hpp"
#include "comm/ports.hpp"
#include "p2p/engine.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

// MPI_Comm_free, and MPI_Comm_disconnect (disconnect: a barrier on the
// communicator first, MPI-3.1 §10.5.4).
int free_comm(Call& call, MPI_Comm* comm, bool disconnect) {
  if (int e = call.not_null(comm, "comm")) return e;
  comm::Comm* c;
  if (int e = call.comm(*comm, "comm", &c)) return e;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return call.fail(MPI_ERR_COMM, "argument comm is %s, which cannot be %s",
                     *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF",
                     disconnect ? "disconnected" : "freed");
  if (disconnect) coll::barrier(*comm, *c);
  comm::drop_links(*comm);  // processes of another job it connected (comm/ports.cpp)
  if (int e = core::delete_attributes(core::AttrObject::comm, *comm, c->attrs))
    return call.fail(e, "an attribute delete callback of %s returned error %d, so it was not freed",
                     api::describe_comm(*comm).c_str(), e);
  comm::destroy(*comm);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

// Hands a constructor's outcome to the caller.
int deliver(Call& call, const comm::Made& m, MPI_Comm* newcomm) {
  *newcomm = m.handle;
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  return MPI_SUCCESS;
}

// MPI_INFO_NULL or a live info object; hints are accepted and ignored.
int check_info(Call& call, MPI_Info info, const char* arg) {
  if (info == MPI_INFO_NULL || core::info_state().table.get(info)) return MPI_SUCCESS;
  return call.fail(MPI_ERR_INFO, "argument %s=0x%x is not a valid info object (freed, or not an info handle)", arg,
                   static_cast<unsigned>(info));
}

// Empty when every member of g is in `in`; else why not.
std::string not_subset(const group::Group& g, const group::Group& in, const char* what) {
  std::vector<char> member(static_cast<std::size_t>(core::rt().size), 0);
  for (int i = 0; i < in.size(); ++i) member[in.world_rank(i)] = 1;
  for (int i = 0; i < g.size(); ++i) {
    const int w = g.world_rank(i);
    if (w < 0 || w >= core::rt().size || !member[w])
      return "argument group is not a subgroup of " + std::string(what) + ": its rank " + std::to_string(i) +
             " (MPI_COMM_WORLD rank " + std::to_string(w) + ") is not in it";
  }
  return {};
}

// A communicator constructor whose new intracommunicator gets its shared
// segment in the constructor's round when the parent has one
// (coll/segment.hpp, reserve_offer; nothing on an intercommunicator).
// `make` runs the constructor with the offer; `new_rank0`: the parent rank
// known to become rank 0, or -1.
template <class Make>
comm::Made with_segment(const comm::Comm& parent, Make&& make, int new_rank0 = -1) {
  comm::SegmentOffer seg;
  seg.offer = coll::reserve_offer(parent, new_rank0);
  comm::Made m = make(&seg);
  coll::settle_offer(comm::made_comm(m), &parent, seg);
  return m;
}

// MPI_COMM_TYPE_HW_GUIDED (MPI-4.0 §7.4.2): the colour of this process for
// the resource info's "mpi_hw_resource_type" names: "mpi_shared_memory"
// (the whole job shares memory: one colour), or an hwloc level, as
// "hwloc://Package" or plain "Package" ("NUMANode", "L3Cache", "Core", ...):
// the logical index of this process's object there. MPI_UNDEFINED (so
// MPI_COMM_NULL) for a missing key or a type this machine does not have, as
// the standard says for a value the implementation does not recognise.
int hw_guided_color(MPI_Info info, std::string* resource) {
  const core::Info* in = info == MPI_INFO_NULL ? nullptr : core::info_state().table.get(info);
  const std::string* v = in ? in->find("mpi_hw_resource_type") : nullptr;
  if (!v) return MPI_UNDEFINED;
  if (*v == "mpi_shared_memory") {
    *resource = *v;
    return 0;
  }
  const std::string prefix = "hwloc://";
  const std::string type = v->compare(0, prefix.size(), prefix) == 0 ? v->substr(prefix.size()) : *v;
  comm::HwLevel level;
  if (!comm::this_process_level(type, &level)) return MPI_UNDEFINED;
  *resource = prefix + level.type;
  return level.index;
}

// MPI_COMM_TYPE_HW_UNGUIDED (MPI-4.0 §7.4.2): the first level of the
// hierarchy, from the machine down, at which the members of comm are not
// all in one object: each new communicator is a strict subset of comm,
// its processes sharing that object. Every member contributes its object at
// every level (one round), so all choose the same level even when a
// process's place changed since it last looked. MPI_UNDEFINED everywhere
// (MPI_COMM_NULL) when no level splits comm (one member, or all on one PU).
int hw_unguided_color(const comm::Comm& c, std::string* resource) {
  const std::vector<comm::HwLevel> levels = comm::this_process_levels();
  // Every process sees the same machine, so the same number of levels; the
  // count travels too, in case one did not (hwloc failed there).
  constexpr std::size_t kMaxLevels = 31;
  std::vector<std::int32_t> mine(kMaxLevels + 1, -1);
  mine[0] = static_cast<std::int32_t>(std::min(levels.size(), kMaxLevels));
  for (std::size_t i = 0; i < levels.size() && i < kMaxLevels; ++i) mine[i + 1] = levels[i].index;
  const exchange::Peers p = comm::peers_of(c);
  std::vector<std::int32_t> all(mine.size() * static_cast<std::size_t>(p.size()));
  std::uint64_t no_mask = ~std::uint64_t{0};  // the round needs no context mask; one word ANDed for nothing
  exchange::allgather_and(p, mine.data(), mine.size() * sizeof(std::int32_t), all.data(), &no_mask, 1);
  const std::size_t stride = mine.size();
  std::int32_t nlevels = mine[0];
  for (int r = 0; r < p.size(); ++r) nlevels = std::min(nlevels, all[static_cast<std::size_t>(r) * stride]);
  for (std::int32_t l = 0; l < nlevels; ++l) {
    const std::size_t at = static_cast<std::size_t>(l) + 1;
    bool split = false;
    for (int r = 1; r < p.size() && !split; ++r) split = all[static_cast<std::size_t>(r) * stride + at] != all[at];
    if (!split) continue;
    *resource = "hwloc://" + levels[static_cast<std::size_t>(l)].type;
    return mine[at];
  }
  return MPI_UNDEFINED;
}

}  // namespace ringmpi::api

using ringmpi::api::check_info;
using ringmpi::api::deliver;
using ringmpi::api::with_segment;

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  Call call("MPI_Comm_dup");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  return deliver(call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::dup(comm, *c, seg); }, 0), newcomm);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  Call call("MPI_Comm_idup");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = coll::idup(comm, *c, newcomm, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
  Call call("MPI_Comm_dup_with_info");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  comm::Hints hints;
  if (int e = api::hints_from_info(call, info, comm::Hints{}, &hints)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  const int e = deliver(call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::dup(comm, *c, seg); }, 0), newcomm);
  // The hints of info instead of comm's (MPI-4.0 §7.4.2).
  if (comm::Comm* n = e == MPI_SUCCESS ? comm::lookup(*newcomm) : nullptr) n->hints = hints;
  return e;
}

// The hints the library keeps (api/comm_hints.hpp): the assertions, which it
// checks, and a hardware split's resource type; other keys are ignored.
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
  Call call("MPI_Comm_set_info");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (info == MPI_INFO_NULL) return call.fail(MPI_ERR_INFO, "argument info is MPI_INFO_NULL");
  return api::hints_from_info(call, info, c->hints, &c->hints);
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  Call call("MPI_Comm_get_info");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(info_used, "info_used")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(api::info_of_hints(c->hints)), info_used);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  Call call("MPI_Comm_split");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  comm::LocalError bad;
  if (color < 0 && color != MPI_UNDEFINED)
    bad = {MPI_ERR_ARG, "argument color=" + std::to_string(color) + " is negative and not MPI_UNDEFINED",
           comm::BadArg::color, color};
  return deliver(call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::split(*c, color, key, bad, 0, seg); }),
                 newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  Call call("MPI_Comm_split_type");
  comm::Comm* c;
  // An intercommunicator too (as MPICH 4.2 and Open MPI 5 accept it): like
  // MPI_Comm_split, the ranks of each side with the same type go together,
  // facing those of the other side with that type.
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = check_info(call, info, "info")) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  comm::LocalError bad;
  int color = 0;
  std::string resource;  // the new communicator's mpi_hw_resource_type
  switch (split_type) {
    case MPI_UNDEFINED:
      color = MPI_UNDEFINED;
      break;
    case MPI_COMM_TYPE_SHARED:  // every rank of a ringmpi job shares the arena
      color = 0;
      break;
    case RMPI_COMM_TYPE_NUMA:
      color = comm::this_process_numa_node();
      break;
    case MPI_COMM_TYPE_HW_GUIDED:
      color = api::hw_guided_color(info, &resource);
      break;
    case MPI_COMM_TYPE_HW_UNGUIDED:
      if (c->inter) {  // the levels below a group's span: a question for one group
        bad = {MPI_ERR_COMM,
               "argument comm is an intercommunicator; MPI_COMM_TYPE_HW_UNGUIDED needs an intracommunicator",
               comm::BadArg::split_type, split_type};
        break;
      }
      color = api::hw_unguided_color(*c, &resource);
      break;
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
      // MPI-4.1 §7.4.2: the resource named by mpi_hw_resource_type, like
      // HW_GUIDED; "mpi_shared_memory" and hwloc's levels are the
      // resources this library knows.
      color = api::hw_guided_color(info, &resource);
      break;
    default:
      bad = {MPI_ERR_ARG,
             "argument split_type=" + std::to_string(split_type) +
                 " is not MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED, "
                 "MPI_COMM_TYPE_RESOURCE_GUIDED, RMPI_COMM_TYPE_NUMA or MPI_UNDEFINED",
             comm::BadArg::split_type, split_type};
  }
  const int e = deliver(
      call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::split(*c, color, key, bad, split_type, seg); }),
      newcomm);
  if (comm::Comm* n = e == MPI_SUCCESS ? comm::lookup(*newcomm) : nullptr) {
    n->hints.hw_resource_type = resource;
    // HW_UNGUIDED: the level chosen also goes back in the info argument
    // (MPI-4.0 §7.4.2 returns the resource type through it; MPICH writes
    // it there, and mpi4py's testSplitTypeHWUnguided reads it from there).
    if (split_type == MPI_COMM_TYPE_HW_UNGUIDED && info != MPI_INFO_NULL && !resource.empty())
      if (core::Info* in = core::info_state().table.get(info)) in->set("mpi_hw_resource_type", resource);
  }
  return e;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  Call call("MPI_Comm_create");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  comm::LocalError bad;
  group::GroupPtr g;
  if (const group::GroupPtr* gp = group::lookup(group)) {
    g = *gp;
    std::string why = api::not_subset(*g, *c->local, c->inter ? "the local group of comm" : "the group of comm");
    if (!why.empty()) bad = {MPI_ERR_GROUP, why, comm::BadArg::group, 0};
  } else {
    char why[128];
    std::snprintf(why, sizeof why, "argument group=0x%x is not a valid group (freed, or not a group handle)",
                  static_cast<unsigned>(group));
    bad = {MPI_ERR_GROUP, group == MPI_GROUP_NULL ? std::string("argument group is MPI_GROUP_NULL") : why,
           comm::BadArg::group, 0};
  }
  return deliver(call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::create(*c, g, bad, seg); }), newcomm);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  Call call("MPI_Comm_create_group");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  const group::GroupPtr* gp = group::lookup(group);
  if (!gp) {
    if (group == MPI_GROUP_NULL) return call.fail(MPI_ERR_GROUP, "argument group is MPI_GROUP_NULL");
    return call.fail(MPI_ERR_GROUP, "argument group=0x%x is not a valid group (freed, or not a group handle)",
                     static_cast<unsigned>(group));
  }
  std::string why = api::not_subset(**gp, *c->local, "the group of comm");
  if (!why.empty()) return call.fail(MPI_ERR_GROUP, "%s", why.c_str());
  if (tag < 0) return call.fail(MPI_ERR_TAG, "argument tag=%d is negative", tag);
  if ((*gp)->rank_of_world(c->peer_world[c->rank]) == MPI_UNDEFINED) {
    *newcomm = MPI_COMM_NULL;  // not a member: a local call (MPI-3.1 §6.4.2)
    return MPI_SUCCESS;
  }
  return deliver(call, with_segment(*c, [&](comm::SegmentOffer* seg) { return comm::create_group(*c, *gp, tag, seg); }),
                 newcomm);
}

int MPI_Comm_free(MPI_Comm* comm) {
  Call call("MPI_Comm_free");
  return api::free_comm(call, comm, false);
}

}  // extern "C"
