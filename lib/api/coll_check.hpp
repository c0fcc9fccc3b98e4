// mpiexec --check for collectives (issue 15, part 3): before a collective
// runs, its ranks exchange what each passed (the call, root, op, type
// signatures and, for the v and w forms and the neighbourhood collectives,
// the signature of every block each rank sends to or receives from each
// peer), and the first mismatch ends the job with one message naming the
// call and both ranks' arguments ("MPI_Bcast: rank 0 passed root 0, rank 1
// passed root 1"; "MPI_Scatterv: rank 0 sends sendcounts[2]=4 of MPI_INT to
// rank 2, rank 2 expects recvcount 5 of MPI_INT").
//
// Checked: every collective of chapter 5 (blocking and nonblocking, intra-
// and intercommunicator) and the neighbourhood collectives (blocking and
// nonblocking). Not checked: communicator constructors (MPI_Comm_idup too)
// and MPI_Ibarrier's timing.
//
// Signatures, not handles, are compared: a block's signature is (the one
// predefined type its data is made of, number of basic elements, bytes), so
// contiguous(4, MPI_INT) matches 4 x MPI_INT. Types mixing several basic
// types are compared by element and byte counts only (two different mixed
// signatures of equal counts are not told apart). Between a send and a
// receive block, MPI_BYTE or MPI_PACKED on either side matches any type of
// the same size (as point-to-point does).
//
// Blocking collectives exchange the records before they run, in the call
// (every collective becomes synchronizing under --check). Nonblocking ones
// send their record in the starting call and return at once; the request
// (an extension, coll_check.cpp) starts the collective's schedule only when
// every rank's record is there and agrees, inside whatever MPI call
// progresses the engine; so a correct program runs unchanged, and a wrong
// one never runs its schedule. Without --check nothing of this runs: one
// branch on core::Runtime::check_mode per collective.
#pragma once

#include <climits>
#include <memory>

#include "api/call.hpp"

namespace ringmpi::topo {
struct Neighbors;
}
namespace ringmpi::coll {
class Schedule;
}

namespace ringmpi::api {

// What one rank passed to a collective.
struct CollArgs {
  // How the data sides must relate across ranks.
  enum class Rule {
    same,     // every significant `send` side is the same (bcast, the reductions)
    gather,   // the root's recv block == every rank's send (gather; intercomm: as pairs)
    scatter,  // the root's send block == every rank's recv (scatter; intercomm: as pairs)
    all,      // every send block == every recv block (allgather, alltoall; intercomm: as pairs)
    pairs,    // every block rank i sends to rank j == the block j receives from i (v, w, neighbour forms)
    counts,   // reduce_scatter: every rank's recvcounts identical (within each group), then `same`
    none,     // no data (barrier)
  };
  // Who sends what to whom (rules gather, scatter, all, pairs).
  enum class Shape { none, to_root, from_root, allgather, alltoall, neighbor };
  struct Side {
    bool significant = false;  // this rank's argument matters (not MPI_IN_PLACE, root-only args)
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
  };
  static constexpr int kNoRoot = INT_MIN;
  Rule rule = Rule::none;
  int root = kNoRoot;  // kNoRoot: not a rooted collective
  MPI_Op op = MPI_OP_NULL;
  Side send{}, recv{};
  Shape shape = Shape::none;
  // Per-peer counts (the v and w forms, and reduce_scatter's recvcounts in
  // `recvcounts`), nullptr: `count` for every peer; per-peer types (w forms),
  // nullptr: `type`. Names in messages: "sendcounts[2]=4" when `*_v`, else "sendcount 4".
  const int* sendcounts = nullptr;
  const int* recvcounts = nullptr;
  const MPI_Datatype* sendtypes = nullptr;
  const MPI_Datatype* recvtypes = nullptr;
  bool send_v = false, recv_v = false;
  bool in_place = false;  // intracommunicator MPI_IN_PLACE: this rank's own block does not travel
  const topo::Neighbors* neighbors = nullptr;  // Shape::neighbor
};

// A nonblocking collective's check, between agree() and dispatch().
class PendingCheck;
struct PendingCheckDeleter {
  void operator()(PendingCheck* p) const;
};
using Pending = std::unique_ptr<PendingCheck, PendingCheckDeleter>;

// Blocking (req == nullptr): the exchange and the comparison; ends the job
// on a mismatch, returns nothing. Nonblocking: this rank's record, handed to
// dispatch(), which starts the exchange and the schedule behind it.
Pending agree_slow(const Call& call, comm::Comm& c, MPI_Comm comm, const CollArgs& a, MPI_Request* req);
[[gnu::always_inline]] inline Pending agree(const Call& call, comm::Comm& c, MPI_Comm comm, const CollArgs& a, MPI_Request* req) {
  if (__builtin_expect(core::rt().check_mode, 0)) return agree_slow(call, c, comm, a, req);
  return Pending{};
}

// dispatch() under --check for a nonblocking collective: sends this rank's
// record and starts a request that runs `s` once every record agrees.
int start_checked(Call& call, std::unique_ptr<coll::Schedule> s, MPI_Comm comm, MPI_Request* req, Pending chk);

}  // namespace ringmpi::api
