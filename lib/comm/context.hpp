// Context ids: how communicators keep their traffic apart.
//
// Invariants (this file owns them)
// 1. A communicator owns two consecutive ids: `context` (even) for its
//    point-to-point traffic and `context + 1` (Comm::coll_context()) for the
//    library's internal traffic on it (collectives, communicator creation),
//    so a user message never matches a collective one.
// 2. Ids are unique per process, not per job: no process ever has two live
//    communicators with the same id. That is enough, because a message is
//    matched at its receiver by (context, source, tag) and a receiver only
//    looks at its own communicators. Disjoint communicators made by one call
//    (the colours of MPI_Comm_split) share an id.
// 3. An intercommunicator uses one id in both directions, so its id is free
//    in every process of both groups.
// 4. MPI_COMM_WORLD owns 0/1, MPI_COMM_SELF 2/3, kPortContext (4) carries
//    the roots' handshake of MPI_Comm_accept/MPI_Comm_connect between
//    processes that share no communicator (lib/comm/ports.cpp: messages
//    stamped with the sender's world rank, tagged by port), 5..15 are never
//    used; slot s of the pool owns kFirstDynamic + 2s and + 2s + 1.
// 5. Agreement takes no extra round: every creating call carries each
//    participant's free mask (a bitmap of free slots) in the one collective
//    round it needs anyway, reduced with bitwise AND; the new communicator
//    takes the lowest slot free in every participant (MPICH's scheme). Every
//    participant computes the same AND, so all agree, and all fail alike when
//    the AND is empty. A process is in at most one creating call at a time
//    (blocking calls; at MPI_THREAD_MULTIPLE the program must not create
//    communicators from two threads at once: docs/guide/threads.md, docs/design/threads.md),
//    so the mask it sent stays true until the call claims the slot.
// 6. A slot is taken while its communicator lives (claim/release); the p2p
//    engine keeps its own pins, per context id, while an operation is pending
//    on it (a posted receive: p2p::pinned_contexts()). A slot is offered for
//    a new communicator only when it is free here AND neither of its ids is
//    pinned by p2p (busy() in every mask), so an MPI_Comm_free before a
//    receive completes does not let a new communicator reuse the id while
//    the receive can still match. MPI_Comm_free is local and frees nothing
//    anywhere else; ids are reused, so dup/free cycles never run out.
// 7. Messages can reach a process for an id it has not claimed yet (a peer
//    finished the creating round first): the p2p engine queues them as
//    unexpected by id, and they match once the communicator exists. They
//    cannot belong to an older communicator with that id: that id was free
//    here, and a correct program frees a communicator only after all its
//    messages are matched.
// 8. A nonblocking creating call (MPI_Comm_idup) cannot keep invariant 5's
//    promise (other creating calls run while it is pending), so it reserves
//    the slots it offers (at most kIdupSlots) from its start until it claims;
//    every other creating call leaves reserved slots out of its mask
//    (mask()). The slot it picks from the AND was reserved in every
//    participant all along, so it is still free in each when they claim it.
//    Which slots it reserves: the first kIdupSlots offered ones in an order
//    drawn from a key that every participant of the call shares (the
//    parent's context id and collective sequence number) and that differs
//    between calls. Concurrent idups on different parents may start in
//    different orders on different processes (only each communicator's
//    collectives are ordered); had each reserved the lowest free slots, the
//    one that came second on a process would offer what the first left
//    over, and two processes that ran them in opposite orders would offer
//    disjoint sets (no common slot). With an order per call, two calls
//    compete for few slots (about kIdupSlots^2 / kSlots), so the offers
//    of one call keep almost all their slots in common.
//
// Why not a shared counter in the arena: ids taken from one are never reused
// without a job-wide agreement on which ids are dead, which costs a round of
// its own; the masks get reuse for free.
#pragma once

#include <array>
#include <cstdint>

namespace ringmpi::comm {

inline constexpr std::uint32_t kFirstDynamic = 16;
inline constexpr std::uint32_t kPortContext = 4;

class ContextPool {
 public:
  static constexpr int kSlots = 4096;
  static constexpr int kWords = kSlots / 64;
  using Mask = std::array<std::uint64_t, kWords>;

  ContextPool();

  // The free mask this process contributes to a creating round: free, not
  // reserved by a pending MPI_Comm_idup (invariant 8), not `busy` (slots
  // whose ids p2p pins, invariant 6: busy_slots()).
  Mask mask(const Mask& busy = Mask{}) const {
    Mask m;
    for (int w = 0; w < kWords; ++w) m[w] = free_[w] & ~reserved_[w] & ~busy[w];
    return m;
  }
  // Invariant 8: reserves up to kIdupSlots of the slots mask(busy) offers,
  // the first ones in the order `key` draws, and returns them; unreserve()
  // hands them back.
  static constexpr int kIdupSlots = 128;
  Mask reserve(std::uint64_t key, const Mask& busy = Mask{});
  void unreserve(const Mask& m);
  // Lowest slot set in `mask`, or -1 when none is.
  static int lowest(const Mask& mask);
  static std::uint32_t context_of(int slot) { return kFirstDynamic + 2u * std::uint32_t(slot); }
  // Slot owning id `context` (either of its pair), or -1 for a predefined one.
  static int slot_of(std::uint32_t context);

  // Claims a slot free here for a new communicator; release() (its
  // communicator is gone) makes it free again. Releasing a free or
  // predefined id changes nothing.
  void claim(int slot);
  void release(std::uint32_t context);

  bool is_free(int slot) const { return (free_[slot / 64] >> (slot % 64)) & 1u; }
  int used() const { return used_; }

 private:
  Mask free_;
  Mask reserved_{};
  int used_ = 0;
};

// The slots whose ids the p2p engine pins now (invariant 6).
ContextPool::Mask busy_slots();

}  // namespace ringmpi::comm
