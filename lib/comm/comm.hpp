// Communicators: the group(s), this rank's place in them, the context ids
// that keep their traffic apart, the error handler and the name.
//
// Context ids: a communicator owns two consecutive ids, `context` for
// point-to-point traffic and `context + 1` (coll_context()) for the traffic of
// its collectives, so user messages never match collective ones. WORLD owns
// 0/1, SELF 2/3; others come from the arena's shared counter (see lib/comm).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/errhandler.hpp"
#include "core/attributes.hpp"
#include "core/handle.hpp"
#include "group/group.hpp"
#include "mpi.h"

namespace ringmpi::comm {

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
  // World rank of each rank of the destination group (remote for intercomms),
  // cached so a send does not go through the group representation.
  std::vector<int> peer_world;

  int size() const { return local->size(); }
  int remote_size() const { return remote->size(); }
  std::uint32_t coll_context() const { return context + 1; }
};

struct State {
  State();
  core::HandleTable<Comm> comms{core::Kind::comm};
  core::HandleTable<std::shared_ptr<const Errhandler>> errhandlers{core::Kind::errhandler};
};
State& state();

// Creates MPI_COMM_WORLD and MPI_COMM_SELF for this rank (MPI_Init).
void init_world(int rank, int size);
// The communicator behind h, or nullptr for an invalid/freed handle.
Comm* lookup(MPI_Comm h);
// The error handler object of handle h, or nullptr.
std::shared_ptr<const Errhandler> lookup_errhandler(MPI_Errhandler h);
// First thing in MPI_Finalize: deletes the attributes of MPI_COMM_SELF
// (MPI-3.1 §8.7.1), the hook libraries use for clean-up.
void finalize_hooks();

}  // namespace ringmpi::comm
