// Argument checks shared by the RMA entry points (lib/api/rma_*.cpp).
#pragma once

#include "api/call.hpp"
#include "rma/window.hpp"

namespace ringmpi::api {

// The failing case of win_arg (out of line).
[[gnu::cold]] int bad_win(Call& call, MPI_Win h, const char* arg);

// A valid window; errors from now on go to its error handler. Inline: every
// RMA call starts here, and an 8-byte put is a few nanoseconds of work.
inline int win_arg(Call& call, MPI_Win h, const char* arg, rma::Window** out) {
  *out = nullptr;
  if (int e = call.initialized()) return e;
  rma::Window* w = rma::lookup(h);
  if (__builtin_expect(w == nullptr, 0)) return bad_win(call, h, arg);
  call.raise_on(w->comm);
  *out = w;
  return MPI_SUCCESS;
}

// The failing cases of rank_arg and target_arg (out of line).
[[gnu::cold]] int bad_rank(Call& call, const rma::Window& w, int rank, const char* arg);
[[gnu::cold]] int no_epoch(Call& call, int rank, const char* arg);

// A rank of w's group (MPI_PROC_NULL not allowed), for lock/unlock/flush.
inline int rank_arg(Call& call, const rma::Window& w, int rank, const char* arg) {
  if (__builtin_expect(rank >= 0 && rank < w.size, 1)) return MPI_SUCCESS;
  return bad_rank(call, w, rank, arg);
}

// A target rank of w (MPI_PROC_NULL allowed) that an access epoch covers.
inline int target_arg(Call& call, const rma::Window& w, int rank, const char* arg) {
  if (rank == MPI_PROC_NULL) return MPI_SUCCESS;
  if (int e = rank_arg(call, w, rank, arg)) return e;
  if (__builtin_expect(!w.may_access(rank), 0)) return no_epoch(call, rank, arg);
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api
