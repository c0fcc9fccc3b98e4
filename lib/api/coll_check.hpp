// mpiexec --check for collectives (issue 15, part 3): before a blocking
// collective on an intracommunicator runs, its ranks exchange what each
// passed (the call, root, op and type signatures) and the first mismatch
// ends the job with one message naming the call and both ranks' arguments
// ("MPI_Bcast: rank 0 passed root 0, rank 1 passed root 1").
//
// Signatures, not handles, are compared: a side's signature is (the one
// predefined type its data is made of, number of basic elements, bytes), so
// contiguous(4, MPI_INT) matches 4 x MPI_INT. Types mixing several basic
// types are compared by element and byte counts only (two different mixed
// signatures of equal counts are not told apart).
//
// Not checked: nonblocking collectives (the exchange would make them
// synchronizing, and a correct program may rely on them not being),
// intercommunicator and neighborhood collectives, the per-rank counts of the v/w forms (only
// the call, root and basic types are compared there), and communicator
// constructors. The exchange runs on the communicator's collective context
// with its own tag (exchange::kTagCheck); without --check nothing of this
// runs (one branch on core::Runtime::check_mode).
#pragma once

#include "api/call.hpp"

namespace ringmpi::api {

// What one rank passed to a collective.
struct CollArgs {
  // How the data sides must relate across ranks.
  enum class Rule {
    same,     // every rank's `send` side is the same (bcast, the reductions)
    gather,   // the root's recv block == every rank's send (gather)
    scatter,  // the root's send block == every rank's recv (scatter)
    all,      // every send block == every recv block (allgather, alltoall)
    types,    // only the basic types of the sides (the v and w forms)
    none,     // no data (barrier)
  };
  struct Side {
    bool significant = false;  // this rank's argument matters (not MPI_IN_PLACE, root-only args)
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
  };
  Rule rule = Rule::none;
  int root = -1;  // -1: not rooted
  MPI_Op op = MPI_OP_NULL;
  Side send, recv;
};

// The exchange and the comparison; ends the job on a mismatch.
void agree_slow(const Call& call, const comm::Comm& c, MPI_Comm comm, const CollArgs& a);
inline void agree(const Call& call, const comm::Comm& c, MPI_Comm comm, const CollArgs& a) {
  if (__builtin_expect(core::rt().check_mode, 0)) agree_slow(call, c, comm, a);
}

}  // namespace ringmpi::api
