// Argument checks shared by the RMA entry points (lib/api/rma_*.cpp).
#pragma once

#include "api/call.hpp"
#include "rma/window.hpp"

namespace ringmpi::api {

// A valid window; errors from now on go to its error handler.
int win_arg(Call& call, MPI_Win h, const char* arg, rma::Window** out);
// A target rank of w (MPI_PROC_NULL allowed) that an access epoch covers.
int target_arg(Call& call, const rma::Window& w, int rank, const char* arg);
// A rank of w's group (MPI_PROC_NULL not allowed), for lock/unlock/flush.
int rank_arg(Call& call, const rma::Window& w, int rank, const char* arg);

}  // namespace ringmpi::api
