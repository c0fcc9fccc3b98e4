// Blocking waits: spin, then yield, then sleep on this rank's futex word.
//
// Every blocking call of the library (MPI_Wait, MPI_Recv, a full ring, the
// barrier) waits here, progressing incoming traffic between checks, and every
// rank only ever sleeps on its own doorbell (RankSlot::doorbell).
//
// Sleep/wake protocol (Dekker-style; the two seq_cst operations order it):
//   waiter                                   waker (after publishing with release)
//   seen = doorbell.load(acquire)            atomic_thread_fence(seq_cst)
//   sleeping.store(1, seq_cst)               if (sleeping.load(relaxed))
//   atomic_thread_fence(seq_cst)
//   progress(); if (done()) -> stop            doorbell.fetch_add(1, release)
//   futex_wait(doorbell, seen, timeout)         futex_wake(doorbell)
//   sleeping.store(0, relaxed)
// If the waker reads sleeping == 0, the waiter's fence comes later in the
// seq_cst order than the waker's, so its progress() after it sees the
// published data.
// If it reads 1, the doorbell moves past `seen` and futex_wait returns at once.
//
// The timeouts, and which of them liveness rests on:
// - A waiter with data waiting for ring space (prepare_to_sleep() true)
//   sleeps at most 1 ms, and THIS timeout is part of the liveness argument:
//   a consumer that made room after a small drain checks the producer's
//   `producer_waiting` flag without a fence (engine_private.hpp, room_made(), to
//   keep small drains cheap), so it may miss the flag, and the producer then
//   finds the room when its sleep times out.
// - Every other sleep is woken exactly by the protocol above; its 50 ms
//   timeout is not needed for correctness. It bounds how stale the rank's
//   deadlock-detection counters can be (launcher/deadlock.cpp counts those
//   timed-out sleeps) and covers a waker that died (mpiexec then ends the
//   job anyway).
#pragma once

#include <cstdint>
#include <functional>

namespace ringmpi::shm {
struct RankSlot;
}

namespace ringmpi::p2p {

// Drains this rank's incoming traffic once (lib/p2p/progress.cpp); with
// `skip_hot`, leaves that world rank's ring alone if it is a hot one (its
// owner polls it itself, see direct_recv in lib/p2p/recv.cpp).
void progress(int skip_hot = -1);

// True when there are more ranks than cores: spin less, yield sooner.
extern bool g_oversubscribed_known, g_oversubscribed;
bool oversubscribed_slow();
inline bool oversubscribed() { return g_oversubscribed_known ? g_oversubscribed : oversubscribed_slow(); }
// How long a waiter yields before it sleeps (microseconds): RINGMPI_YIELD_US,
// else the default for oversubscribed() (read by MPI_T_cvar_read; call it
// only once MPI_Init has settled the job's size).
std::uint64_t yield_window_us();

// The rest of wait_until(): spins on, then yields, then sleeps.
void wait_slow(const std::function<bool()>& done);
// wait_slow() at MPI_THREAD_MULTIPLE: gives the call lock up between checks.
void wait_threaded(const std::function<bool()>& done);

// Polls before wait_until() leaves its inline loop: a peer on another core
// usually answers within them, and the loop costs no indirect calls.
inline constexpr int kInlineSpins = 256;
inline constexpr int kInlineSpinsOversubscribed = 8;

// Returns when done() is true; progresses between checks.
template <class Done>
void wait_until(Done&& done) {
  const int spins = oversubscribed() ? kInlineSpinsOversubscribed : kInlineSpins;
  for (int i = 0; i < spins; ++i) {
    progress();
    if (done()) return;
  }
  wait_slow(std::function<bool()>(std::ref(done)));
}

// For callers that poll (MPI_Test*, MPI_Iprobe, MPI_Improbe) and found
// nothing: when progress() did no work since `activity_before` (activity()
// read before it) and there are more ranks than cores, hands the core to
// another process with sched_yield. A polling rank that spins on, with a
// rank it waits for descheduled on the same core, delays exactly what it
// polls for; this is what lets a nonblocking collective complete during an
// application's compute phase oversubscribed. With a core per rank it does
// nothing (a yield would only give the core to unrelated work).
void yield_if_idle(std::uint64_t activity_before);

// Wakes world rank r if it sleeps. Call after publishing what it waits for.
void wake(int world_rank);

// Bumps world rank r's doorbell and futex-wakes it, unconditionally; for
// callers that already checked `sleeping` under their own fence
// (lib/p2p/progress.cpp, notify()).
void ring_doorbell(int world_rank);
// The same for a RankSlot reached otherwise (another job's arena, before its
// processes are bound: comm/ports.cpp).
void ring_doorbell(shm::RankSlot& slot);

// Called by a waiter right before it sleeps (lib/p2p/progress.cpp): asks the
// consumers of rings this rank could not finish writing to for a wake-up
// when they make room; true when there are such rings.
bool prepare_to_sleep();
// Whether a progress() call would find records already in this rank's
// rings: a ring it polls on every call (hot) has one, or a pending bit is
// set. progress() stops draining a ring after a record that completed a
// request (so that a waiter looks at its condition soon) and sets the bit
// again for the rest; those records are already there, so no doorbell will
// ring for them, and a waiter must not sleep before it drained them (with
// many nonblocking collectives over messages, waited for in reverse order,
// each such sleep lasted its whole 50 ms timeout).
bool work_left();
// Records consumed plus requests completed so far: changes whenever progress() did work
// (the deadlock-detection hook in wait_slow counts sleeps in which it did not).
std::uint64_t activity();

}  // namespace ringmpi::p2p
