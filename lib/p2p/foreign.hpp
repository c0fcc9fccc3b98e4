// Processes of another job (a separate mpiexec run) connected with
// MPI_Comm_accept/MPI_Comm_connect or MPI_Comm_join
// (docs/design/dynamic-processes.md, "Connecting two jobs").
//
// A process of the other job whose slot there is s has index
// foreign_base() + s here: an index into the engine's per-peer tables like
// a world rank, and its bit in our pending bitmaps (shm/bridge.hpp,
// kForeignRoom). Everything above p2p addresses it by that index, as a
// world rank. Its rings are in the connection's bridge, its doorbell,
// `sleeping` word, pid and pending bitmap in its own job's arena, which this
// process maps. So the send and receive paths are the same code and the
// same loads for every peer; only bind_foreign() (a connect) differs.
//
// Invariants
// - The numbering is the same in every process of a job (base + s), so
//   world ranks exchanged between the processes of a job stay meaningful.
// - Our bit in the other process's bitmap is at its foreign_base() + our
//   slot, which is our slot modulo 64 (both bases are multiples of 64):
//   notify() sets bit (rank % 64) of the word bind_foreign() was given.
// - A pair is bound while some live connection holds it (a count per
//   index, the same on both sides because accept/connect and disconnect
//   are collective over both groups). Binding the first time points the
//   tables at the connection's bridge and sets our own pending bit for the
//   index, so records the other side wrote before we bound are drained.
//   Unbinding keeps the pointers (the old bridge stays mapped): a stale bit
//   drains an empty ring. Binding an index that is bound already keeps its
//   rings when it is the same process (the slot's RankSlot::generation is
//   unchanged), and points them at the new bridge when its job reused the
//   slot for a new process (the old one ended while a communicator still
//   counted it: children that finalized without a disconnect).
// - One index, one job: while a process of job J is bound at an index, a
//   process of another job with the same slot cannot be bound
//   (bind_foreign() refuses; connecting to several other jobs at once works
//   while their processes' slots differ).
// - While any foreign process is bound, a sleeping wait never counts as
//   stuck for mpiexec's deadlock detector (its peer's job is not watched by
//   our mpiexec), and every 100 ms it checks that the bound processes live:
//   one that ended without MPI_Finalize ends this job with a line naming it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ringmpi::shm {
struct RankSlot;
}

namespace ringmpi::p2p {

struct ForeignPeer {
  std::byte* out_ring = nullptr;  // ring from this process to it
  std::byte* in_ring = nullptr;   // ring from it to this process
  std::uint64_t capacity = 0;
  std::atomic<std::uint64_t>* their_pending_word = nullptr;  // the word of its bitmap with our bit
  shm::RankSlot* slot = nullptr;                             // its RankSlot in its job's arena
  std::string label;                                         // for messages: "process s of job J"
  std::string job;                                           // its job's name
};

// First index of foreign processes, and how many slots of the other job fit.
int foreign_base();
int foreign_room();
// False (nothing bound) when the index is bound to a process of another
// job still: two other jobs at once whose processes share a slot number
// cannot both be reached.
bool bind_foreign(int index, const ForeignPeer& p);
void unbind_foreign(int index);
// For the sleeping waits (wait.cpp): true while a foreign process is bound;
// ends the job when a bound one has ended without finalizing.
bool foreign_watch();
// The job of the process bound at `index`, or "" when none is bound there
// (comm/dynamic.cpp: a spawn from a communicator of two jobs).
std::string foreign_job(int index);
// True while a foreign process is bound (comm/ports.cpp, LazyWaker).
bool foreign_bound();
// For the spinning waits (wait.cpp): whether they look for a peer queued
// on their core (peer_queued_here): while a foreign process is bound, and
// inside the handshake of an accept or connect (+1/-1 around it: the
// group's exchanges before and after the roots' handshake).
bool queued_watch();
void watch_queued(int delta);
// Whether a process this one waits for is runnable but queued on this
// process's own core (it cannot run while this process spins there): world
// rank `waits_for` when it is known (>= 0), else one process of this job or
// a bound one of the other job, the next one at each call. Reads
// /proc/<pid>/stat (about 10-15 us).
bool peer_queued_here(int waits_for);
// +1/-1 around a wait for another job (an accept on a port, a connect's
// answer): foreign_watch() is true meanwhile.
void hold_foreign(int delta);

}  // namespace ringmpi::p2p
