// RMA synchronisation (MPI-3.1 §11.5): fence, post/start/complete/wait,
// lock/unlock, flush, sync. The epoch checks (MPI_ERR_RMA_SYNC) are in
// lib/api; these functions assume a legal call.
#pragma once

#include <atomic>
#include <vector>

#include "rma/window.hpp"

namespace ringmpi::rma {

void fence(Window& w, int assert_bits);
// `group` as window ranks.
void post(Window& w, std::vector<int> group);
void start(Window& w, std::vector<int> group);
void complete(Window& w);
void wait(Window& w);
bool test(Window& w);  // true (and the exposure epoch closed) once every origin completed
void lock(Window& w, int target, bool exclusive);
void unlock(Window& w, int target);
void lock_all(Window& w);
void unlock_all(Window& w);
// Flush and Win_sync: every operation is already complete (transfer.hpp); a
// full fence makes this rank's earlier stores visible before what follows.
// Inline: one instruction, and a flush is little more.
inline void memory_barrier() { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace ringmpi::rma
