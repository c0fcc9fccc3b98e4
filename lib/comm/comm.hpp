// Communicators: the group(s), this rank's place in them, the context ids
// that keep their traffic apart, the error handler and the name.
//
// Context ids: a communicator owns two consecutive ids, `context` for
// point-to-point traffic and `context + 1` (coll_context()) for the traffic of
// its collectives, so user messages never match collective ones. WORLD owns
// 0/1, SELF 2/3; the invariants and the allocation are in comm/context.hpp.
//
// Intercommunicators: `local` is this rank's group, `remote` the other one,
// `peer_world` the remote group's world ranks (p2p addresses remote ranks and
// stamps messages with `rank`, the sender's rank in its own group). The
// library's own traffic on an intercommunicator (creation, barrier) runs
// over the union of both groups on coll_context(), ranks numbered in the
// union order: the group with `local_first` set comes first on both sides.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/context.hpp"
#include "comm/errhandler.hpp"
#include "core/attributes.hpp"
#include "core/handle.hpp"
#include "core/runtime.hpp"
#include "group/group.hpp"
#include "mpi.h"
#include "p2p/route.hpp"

namespace ringmpi::topo {
// Opaque here: a communicator carries its virtual topology but never looks
// inside (lib/topo sits above lib/comm; the shared_ptr's deleter is bound
// where lib/topo creates it).
struct Topology;
}  // namespace ringmpi::topo

namespace ringmpi::coll {
// Opaque here as well: the communicator's shared segment (coll/segment.hpp)
// and its collective plan (coll/plan.hpp).
class Segment;
struct Plan;
}  // namespace ringmpi::coll

namespace ringmpi::comm {

// The collective engine's state of one communicator object: its shared
// segment once attached (lib/coll/segment.hpp). A copy starts empty: a
// duplicate is another communicator with a segment of its own.
struct CollState {
  std::shared_ptr<coll::Segment> segment;  // deleter bound in lib/coll (detaches)
  bool attach_tried = false;
  // Its plan, once looked up (coll::plan_of; the registry in coll/plan.cpp owns it too).
  std::shared_ptr<coll::Plan> plan;
  CollState() = default;
  CollState(const CollState&) {}
  CollState& operator=(const CollState&) {
    segment.reset();
    plan.reset();
    attach_tried = false;
    return *this;
  }
};

// The info hints a communicator keeps (MPI-4.0 §7.4.4): the four assertions
// the library checks on every wildcard receive and probe (lib/api/p2p_args.hpp),
// and, for a communicator from a hardware split, the resource type it
// stands for. MPI_Comm_get_info reports them; MPI_Comm_dup copies them with
// the object, MPI_Comm_dup_with_info / MPI_Comm_idup_with_info /
// MPI_Comm_set_info replace them (lib/api/comm_hints.cpp).
struct Hints {
  bool no_any_source = false;
  bool no_any_tag = false;
  bool exact_length = false;
  bool allow_overtaking = false;
  std::string hw_resource_type;  // "" unless from MPI_COMM_TYPE_HW_GUIDED/_UNGUIDED
};

inline constexpr std::uint32_t kWorldContext = 0;
inline constexpr std::uint32_t kSelfContext = 2;

struct Comm {
  group::GroupPtr local;   // the group this rank belongs to
  group::GroupPtr remote;  // the remote group of an intercommunicator; == local otherwise
  int rank = 0;            // this rank in `local`
  std::uint32_t context = 0;
  bool inter = false;
  std::shared_ptr<const Errhandler> errhandler;
  std::string name;
  core::AttributeSet attrs;
  std::shared_ptr<const topo::Topology> topo;  // virtual topology (lib/topo), shared by dups
  // World rank of each rank of the destination group (remote for intercomms),
  // cached so a send does not go through the group representation.
  std::vector<int> peer_world;
  bool local_first = true;  // intercommunicators: the local group leads the union order
  // lib/rma, lib/io: the MPI_Win or MPI_File this private communicator
  // serves (a user handler made for windows or files gets that handle).
  int owner = 0;
  // Collectives run as schedules so far (lib/coll/schedule.hpp): their tag.
  std::uint32_t schedule_seq = 0;
  CollState coll;  // the blocking collectives' shared segment
  Hints hints;      // info hints (MPI-4.0 §7.4.4)

  int size() const { return local->size(); }
  int remote_size() const { return remote->size(); }
  std::uint32_t coll_context() const { return context + 1; }
  // How the p2p engine addresses this communicator's user traffic.
  p2p::Route route() const { return {context, rank, peer_world.data()}; }
};

struct NumaCache;

struct State {
  State();
  ~State();
  ContextPool contexts;
  std::unique_ptr<NumaCache> numa;  // hwloc topology, loaded on the first NUMA split
  core::HandleTable<Comm> comms{core::Kind::comm};
  core::HandleTable<std::shared_ptr<const Errhandler>> errhandlers{core::Kind::errhandler};
  MPI_Comm parent = MPI_COMM_NULL;  // a spawned process's parent intercommunicator (comm/dynamic.hpp)
};
State& make_state();
inline State& state() {
  auto& p = core::rt().comms;
  return __builtin_expect(p != nullptr, 1) ? *p : make_state();
}

// Creates MPI_COMM_WORLD (ranks 0..size-1 on the world ranks base..base+size-1)
// and MPI_COMM_SELF for this rank (MPI_Init).
void init_world(int rank, int size, int base = 0);
// The communicator behind h, or nullptr for an invalid/freed handle.
inline Comm* lookup(MPI_Comm h) { return state().comms.get(h); }
// Puts a new communicator into the handle table (its context slot already
// claimed); on a full table releases the slot and returns MPI_COMM_NULL.
MPI_Comm install(std::unique_ptr<Comm> c);
// Drops a run-time communicator from the table and releases its context.
void destroy(MPI_Comm h);
// The error handler object of handle h, or nullptr.
std::shared_ptr<const Errhandler> lookup_errhandler(MPI_Errhandler h);
// First thing in MPI_Finalize: deletes the attributes of MPI_COMM_SELF
// (MPI-3.1 §8.7.1), the hook libraries use for clean-up.
void finalize_hooks();

}  // namespace ringmpi::comm
