// The one collective round of a communicator constructor: every participant
// contributes an Entry and its free context mask; all get every Entry and the
// ANDed mask. Internal to lib/comm.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "comm/comm.hpp"
#include "comm/create.hpp"
#include "exchange/exchange.hpp"

namespace ringmpi::comm {

struct Entry {
  std::int32_t err = MPI_SUCCESS;  // a local argument error of that rank (its class)
  std::int32_t color = 0;          // split colour / membership
  std::int32_t key = 0;            // split key / rank in the group
  std::int32_t gsize = 0;          // size of the group the rank passed
  std::uint32_t ghash = 0;         // hash of the group the rank passed
  std::int32_t arg = 0;            // one more argument to compare (leader, high, ...)
  std::int32_t bad_arg = 0;        // with err: which argument (BadArg) ...
  std::int32_t bad_value = 0;      // ... and its value
  std::int32_t segment = -1;       // a shared segment this rank reserved for the new communicator (SegmentOffer)
};

// Entry for a rank with this local error (err and the bad argument filled).
Entry entry_for(const LocalError& local);
// "color=-5" / "a group" for the other ranks' messages.
std::string describe_bad(const Entry& e);

struct Round {
  std::vector<Entry> all;  // in participant order
  ContextPool::Mask mask;  // ANDed over all participants
};

Round run_round(const exchange::Peers& p, const Entry& mine, int tag = exchange::kTagAllgather);

// Hash of an ordered list of world ranks (consistency checks only).
std::uint32_t hash_ranks(const std::vector<int>& world);

// If some participant flagged an error: the Made every rank returns. `who`
// names participant i ("rank 3 of comm", "rank 1 of the remote group").
template <class Who>
bool failed_somewhere(const Round& r, const LocalError& mine, Who who, Made* out) {
  if (mine.code != MPI_SUCCESS) {
    *out = Made{mine.code, mine.why, MPI_COMM_NULL};
    return true;
  }
  for (std::size_t i = 0; i < r.all.size(); ++i)
    if (r.all[i].err != MPI_SUCCESS) {
      *out = Made{r.all[i].err,
                  who(int(i)) + " passed " + describe_bad(r.all[i]) +
                      ", which is invalid there (that rank's message says why), so the call fails on every rank",
                  MPI_COMM_NULL};
      return true;
    }
  return false;
}

// The opening round of a rooted constructor (spawn, accept, connect): each
// rank of comm brings its local error and root. False with *r filled when
// no rank failed and all name the same root; else true, *out the Made every
// rank returns (a root mismatch's message ends with `hint`).
bool root_round(const exchange::Peers& p, int root, const LocalError& local, const char* hint,
                Round* r, Made* out);

// The lowest slot free everywhere, or a Made explaining there is none.
bool pick_slot(const ContextPool::Mask& mask, int* slot, Made* out);

// Fills *seg (when given) for a new intracommunicator of `size` members
// whose rank 0 is participant `leader` of the round: its reservation.
void take_offer(SegmentOffer* seg, const Round& r, const exchange::Peers& p, int leader, int size);

// A new intracommunicator on slot, inheriting the error handler of `parent`.
std::unique_ptr<Comm> make_intra(const Comm& parent, std::vector<int> world, int rank, int slot);
std::unique_ptr<Comm> make_inter(const Comm& parent, std::vector<int> local_world, std::vector<int> remote_world,
                                 int rank, bool local_first, int slot);
// Claims c's slot and gives it a handle.
Made finish(std::unique_ptr<Comm> c);

}  // namespace ringmpi::comm
