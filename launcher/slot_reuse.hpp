// Reusing the process slots of spawned worlds that have ended, so that a
// program that spawns and disconnects in a loop (master/worker programs,
// mpi4py.futures) runs for as long as it likes instead of stopping at
// --universe-size + 32 processes (docs/design/dynamic-processes.md).
//
// Invariants
//   1. Who frees. Only mpiexec frees slots, and only a whole world at a
//      time: the slots [base, base + n) of a spawn become free when every
//      process of that spawn has been reaped. A process that finalized and
//      exited has no more MPI calls to make, and its world's barrier (in
//      the RankSlot of its first slot) is no longer used by anybody.
//      mpiexec's own ranks (spawn 0) are never freed, nor is anything
//      under --trace (each slot keeps its one trace file).
//   2. Peers. Communicating with a process after it called MPI_Finalize is
//      erroneous (MPI-4.1 §11.10.4): a live process may still hold a
//      communicator naming a freed slot (the parent intercommunicator of a
//      world whose children finalized without disconnecting, a merged
//      communicator), but it may only free it. Freeing is local and touches
//      no ring; a collective segment it is attached to stays attached
//      (Header::attached counts it), so a new owner in that slot never
//      hands out a segment a stale communicator still points to.
//   3. When a slot is taken again. A spawn takes the first run of free
//      slots long enough for it (fresh slots past `started` count as free).
//      Before the first fork, for every slot s taken again and every slot
//      j that has had a process (j < started), mpiexec, which alone
//      writes there while no process has the slot:
//        - ring j->s: moves its `head` past whatever records are left in it
//          (sent to the old process, never read: erroneous or abandoned,
//          they must not reach the new one), and clears `polled` and
//          `producer_waiting`, which belonged to the old consumer;
//        - ring s->j: leaves the old process's records that j has not read
//          yet where they are (j reads them as it would have); the new
//          producer starts right after them;
//        - clears s's pending bitmap and resets its RankSlot (pid,
//          finalized, open ports, deadlock words, exit note, world barrier)
//          and adds 1 to its generation.
//      The new process gets, in RINGMPI_RESUME, for each peer j whose rings
//      with s are not at index 0: its consumer head on j->s (the head just
//      published) and its producer tail on s->j (the end of the records
//      there). A live peer keeps its private ring state for s unchanged:
//      its producer tail on j->s is the head published for the new
//      consumer (nothing new was written: invariant 2), and its consumer
//      head on s->j reaches the new producer's first record by reading
//      the old ones. So neither side resets anything, and the no-spawn and
//      fast paths are unchanged.
//   4. Reading without allocating. mpiexec reads ring headers and the first
//      record word with pread on the arena's memfd, which returns zeros for
//      a hole instead of allocating a page as a fault on the mapping would;
//      rings found nonzero are then read through the mapping.
//   5. Stale port names: a port name carries the generation of its owner's
//      slot, so one of an earlier process fails as "its process has ended"
//      instead of reaching the slot's new process (comm/ports.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shm/arena.hpp"

namespace ringmpi::launcher {

struct SlotReuse {
  std::vector<std::string> resume;  // per slot of the range: RINGMPI_RESUME's value ("" : none)
  std::uint64_t discarded = 0;      // records dropped from rings to the range (invariant 3)
  std::uint64_t unread = 0;         // records of the old processes their peers still have to read
};

// Prepares the slots [base, base + n) for new processes (invariant 3): the
// ones below `started` have had a process, every one of which has exited.
// `fd` is the arena's memfd.
SlotReuse prepare_slots(const shm::Arena& arena, int fd, std::uint32_t base, std::uint32_t n, std::uint32_t started);

}  // namespace ringmpi::launcher
