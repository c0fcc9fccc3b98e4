// The small collectives the library itself needs (communicator creation,
// barriers, topology construction), over the blocking internal point-to-point
// calls. They address participants by world rank and a context id, so they
// sit below the communicator objects (lib/comm builds its creation rounds on
// them; comm::peers_of turns a communicator into Peers).
//
// They run on a communicator's coll_context(), so user traffic never mixes
// with them, and they are deadlock-free whatever the p2p engine's eager
// threshold: dissemination steps (everybody sends, then receives) are used
// only while every message fits kEagerSafeBytes; larger ones go through
// binomial trees, whose edges never form a cycle of blocked senders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "exchange/tags.hpp"
#include "p2p/engine.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::exchange {

// Who takes part in an internal collective and how they address each other.
struct Peers {
  std::vector<int> world;   // world rank of each participant, in participant order
  int me = 0;               // the caller's index in `world`
  std::uint32_t context = 0;
  // What each participant stamps on its messages and is matched by; empty:
  // its index. MPI_Comm_create_group uses parent ranks: its participants are
  // a subgroup, and group-relative indices would let a late message of one
  // call match a receive of the next call between other members (the same
  // tag, another group).
  std::vector<int> ids;
  int size() const { return static_cast<int>(world.size()); }
  int id(int i) const { return ids.empty() ? i : ids[static_cast<std::size_t>(i)]; }
};

// Messages up to this size are sent without waiting for the receiver (the
// p2p engine's eager limit is larger). RINGMPI_INTERNAL_EAGER_SAFE (bytes)
// overrides it, so tests can drive the tree fallback with few ranks; every
// rank must see the same value.
inline constexpr std::size_t kEagerSafeBytes = 4096;
static_assert(kEagerSafeBytes <= tunables::kMinEagerLimit, "send-before-receive steps need eager messages");
std::size_t eager_safe_bytes();

// Every participant contributes `block` bytes and gets all blocks in
// participant order in `all` (size() * block bytes); `mask` (words 64-bit
// words) comes back ANDed over all participants. One collective round.
// Every message of one call carries `tag`: each participant receives exactly
// what is sent to it, in order, so one tag cannot mix the steps.
void allgather_and(const Peers& p, const void* mine, std::size_t block, void* all, std::uint64_t* mask,
                   int words, int tag = kTagAllgather);

// `root` sends *bytes bytes of buf; the others receive up to max_bytes into buf
// and get the size in *bytes.
void bcast(const Peers& p, int root, void* buf, std::size_t max_bytes, std::size_t* bytes, int tag = kTagBcast);

// No participant leaves before all have entered.
void barrier(const Peers& p);

}  // namespace ringmpi::exchange
