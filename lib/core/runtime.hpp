// The one per-process runtime object. Every piece of mutable library state
// hangs off it: the arena mapping, this rank's identity, the init phase and
// each layer's state (created on first use by that layer's state() accessor,
// so unit tests can use a layer without MPI_Init).
#pragma once

#include <memory>

#include "core/call_lock.hpp"
#include "mpi.h"
#include "shm/arena.hpp"

namespace ringmpi::group { struct State; }
namespace ringmpi::comm { struct State; }
namespace ringmpi::dtype { struct State; }
namespace ringmpi::p2p { struct State; }
namespace ringmpi::rma { struct State; }
namespace ringmpi::core { struct ErrorRegistry; struct AttrState; struct InfoState; }

namespace ringmpi::core {

enum class Phase { before_init, running, finalized };

struct Runtime {
  Runtime();
  ~Runtime();
  Phase phase = Phase::before_init;
  int rank = 0;
  int size = 1;
  // The MPI call this process is in (api::Call sets it), for the deadlock report.
  const char* current_call = nullptr;
  int thread_level = MPI_THREAD_SINGLE;
  unsigned long main_thread = 0;  // pthread_self() of the MPI_Init caller
  // MPI_THREAD_MULTIPLE: every MPI call holds call_lock (core/call_lock.hpp).
  // Set once in MPI_Init_thread, before the program can start other threads.
  bool serialize_calls = false;
  CallLock call_lock;
  shm::Arena arena;
  std::unique_ptr<ErrorRegistry> errors;
  std::unique_ptr<AttrState> attrs;  // keyvals (core/attributes.cpp)
  std::unique_ptr<InfoState> infos;  // info objects (core/info.cpp)
  std::unique_ptr<group::State> groups;
  std::unique_ptr<comm::State> comms;
  std::unique_ptr<dtype::State> dtypes;
  std::unique_ptr<p2p::State> p2p;
  std::unique_ptr<rma::State> rma;  // windows (lib/rma)
};

// The runtime: made on first use and never destroyed (MPI calls may come
// from other static destructors). Inline, since every MPI call starts here.
extern Runtime* g_runtime;
Runtime& make_runtime();
inline Runtime& rt() {
  Runtime* r = g_runtime;
  return __builtin_expect(r != nullptr, 1) ? *r : make_runtime();
}

// Ends this process as part of a job-wide abort: writes the exit note that
// mpiexec reports, prints nothing itself, and exits with `code` (1 if code
// is 0 or out of 1..255). mpiexec then takes the other ranks down.
[[noreturn]] void abort_job(shm::ExitKind kind, int code, const char* text);

}  // namespace ringmpi::core
