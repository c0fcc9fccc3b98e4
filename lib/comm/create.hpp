// Communicator constructors (MPI-3.1 §6.4.2, §6.6.2), one collective round
// each on the parent (MPI_Intercomm_create: one on each local group plus the
// leaders' exchange). See context.hpp for how the new context id is agreed.
//
// Arguments only one rank can judge (a colour, a group) are checked before
// the round but the verdict travels in the round, so a bad argument on one
// rank fails the call on every rank instead of leaving the others waiting.
#pragma once

#include <string>
#include <vector>

#include "comm/comm.hpp"
#include "exchange/exchange.hpp"
#include "group/group.hpp"
#include "mpi.h"

namespace ringmpi::comm {

// The argument a LocalError is about, named in the other ranks' messages.
enum class BadArg : int {
  none,
  color,
  split_type,
  group,
  local_leader,
  peer_comm,
  remote_leader,
  tag,
  root,
  spawn,
  spawn_jobs  // a spawn from a communicator of jobs that cannot spawn together (comm/dynamic.cpp)
};

// An error found by the caller before the round (code MPI_SUCCESS: none):
// the class, the full sentence for this rank, and the argument and value the
// other ranks will name in theirs.
struct LocalError {
  int code = MPI_SUCCESS;
  std::string why;
  BadArg arg = BadArg::none;
  int value = 0;
};

// What a constructor returns: an error (code and a sentence naming the
// argument), or the new handle (MPI_COMM_NULL where the rank gets none).
struct Made {
  int code = MPI_SUCCESS;
  std::string why;
  MPI_Comm handle = MPI_COMM_NULL;
};

// The communicator m made on this rank, or null (the call failed, or this
// rank got MPI_COMM_NULL).
inline Comm* made_comm(const Made& m) {
  return m.code == MPI_SUCCESS && m.handle != MPI_COMM_NULL ? lookup(m.handle) : nullptr;
}

// The shared segment a new intracommunicator gets in its constructor's
// round (coll/segment.hpp): every rank passes the one it reserved of its
// own, or -1 (`offer`), and learns whose the new communicator takes: the
// one of its new rank 0. index -1: none (this rank gets no communicator of
// at least two members, the round failed, or that rank reserved none).
struct SegmentOffer {
  std::int32_t offer = -1;  // in: this rank's reservation
  std::int32_t index = -1;  // out: the new communicator's
  int owner = -1;           // out: its new rank 0's world rank
  int size = 0;             // out: the new communicator's size
};

// MPI_Comm_dup. `seg`: intracommunicators only (its new rank 0 is the
// parent's rank 0).
Made dup(MPI_Comm parent_handle, const Comm& parent, SegmentOffer* seg = nullptr);
// A duplicate for the library's own use (a window's, a file's): without the
// user's attributes, so making it runs none of the user's copy callbacks,
// and with the error handler of the object it serves.
Made private_dup(MPI_Comm parent_handle, std::shared_ptr<const Errhandler> errhandler);
// The duplicate on the lowest slot of `agreed` (the AND of every
// participant's offer); MPI_Comm_idup's last step.
Made dup_on(MPI_Comm parent_handle, const Comm& parent, const ContextPool::Mask& agreed);

// Intra- or intercommunicator (MPI-2.2 semantics for the latter). `kind`
// (MPI_Comm_split_type's split_type, 0 for MPI_Comm_split) must agree among
// the ranks that get a communicator. `seg`: intracommunicators only.
Made split(const Comm& parent, int color, int key, const LocalError& local, int kind = 0,
           SegmentOffer* seg = nullptr);
// The context slots this process offers a constructor's round (free, not
// reserved by a pending MPI_Comm_idup, not pinned by p2p).
ContextPool::Mask offer();
// For a constructor that runs its own round on intracommunicator `parent`
// and knows every rank's new rank from it (the topology constructors,
// topo/create.cpp, whose placement every rank computes alike): the new
// communicator of the parent ranks `order` (order[k] becomes rank k;
// MPI_COMM_NULL on a rank not in it), on the lowest slot of `agreed`, the
// AND of every rank's offer() gathered in that round. What comm::split
// does after its round, without a round of its own.
Made create_ordered(const Comm& parent, const std::vector<int>& order, const ContextPool::Mask& agreed);
// Intra: disjoint groups allowed (MPI-2.2). Inter: `g` is a subgroup of the
// local group. `g` may be null when `local` reports why.
Made create(const Comm& parent, const group::GroupPtr& g, const LocalError& local, SegmentOffer* seg = nullptr);
// Collective over g only; the caller is a member of g.
Made create_group(const Comm& parent, const group::GroupPtr& g, int tag, SegmentOffer* seg = nullptr);
// peer/remote_leader/tag are looked at only on the leader (peer may be
// null elsewhere); `local` carries this rank's argument errors (a bad
// local_leader anywhere, bad peer arguments on the leader).
// `local_peers`, `round_tag`, `bcast_tag`: how the local group's two steps
// address it, when local_comm is not a real communicator
// (intercomm_from_groups); by default local_comm's coll_context() and the
// library's tags.
Made intercomm_create(const Comm& local_comm, int local_leader, const Comm* peer, int remote_leader, int tag,
                      const LocalError& local, const exchange::Peers* local_peers = nullptr,
                      int round_tag = exchange::kTagAllgather, int bcast_tag = exchange::kTagBcast);
// MPI-4.0's constructors without a parent (§7.4.2, §7.6.2): collective over
// the members of `g` (of both groups) only. They run on the library's own
// context kFromGroupContext, every process addressed and stamped by its
// world rank, so creations over different groups never mix; the string tag,
// hashed into the tags of their messages, keeps concurrent creations over
// overlapping groups apart (the standard makes the tags distinct there).
// The new communicator gets `errhandler`. The caller is a member of g
// (of local).
inline constexpr std::uint32_t kFromGroupContext = 4;  // its coll_context() is 5 (context.hpp, invariant 4)
Made create_from_group(const group::GroupPtr& g, const std::string& stringtag,
                       std::shared_ptr<const Errhandler> errhandler, SegmentOffer* seg = nullptr);
Made intercomm_from_groups(const group::GroupPtr& local, int local_leader, const group::GroupPtr& remote,
                           int remote_leader, const std::string& stringtag, const LocalError& bad,
                           std::shared_ptr<const Errhandler> errhandler);
Made merge(const Comm& inter, bool high);

// MPI_IDENT / MPI_CONGRUENT / MPI_SIMILAR / MPI_UNEQUAL for two distinct
// communicator objects (the caller answers MPI_IDENT for one handle).
int compare(const Comm& a, const Comm& b);

}  // namespace ringmpi::comm
