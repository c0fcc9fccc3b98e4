// The one per-process runtime object. Every piece of mutable library state
// hangs off it: the arena mapping, this rank's identity, the init phase and
// each layer's state (created on first use by that layer's state() accessor,
// so unit tests can use a layer without MPI_Init).
#pragma once

#include <atomic>
#include <memory>

#include "core/call_lock.hpp"
#include "core/counters.hpp"
#include "core/scratch_pool.hpp"
#include "mpi.h"
#include "shm/arena.hpp"

namespace ringmpi::group { struct State; }
namespace ringmpi::comm { struct State; }
namespace ringmpi::dtype { struct State; }
namespace ringmpi::p2p {
struct State;
// Defined by lib/p2p, so that no layer above it needs its State's type.
struct StateDelete { void operator()(State* s) const; };
}  // namespace ringmpi::p2p
namespace ringmpi::rma { struct State; }
namespace ringmpi::io { struct State; }
namespace ringmpi::core { struct ErrorRegistry; struct AttrState; struct InfoState; class Tracer; }
namespace ringmpi::api { struct SessionState; }

namespace ringmpi::core {

enum class Phase { before_init, running, finalized };

struct Runtime {
  Runtime();
  ~Runtime();
  // `running` from the first MPI_Init or MPI_Session_init on, while the
  // World Model or a session is open (`users` counts them: the World Model
  // once, each session once); `finalized` when the last one closed. A later
  // MPI_Session_init (or a first MPI_Init) opens it again (lib/api/init.cpp).
  Phase phase = Phase::before_init;
  int users = 0;
  bool world_initialized = false;  // MPI_Init(_thread) was called (MPI_Initialized)
  bool world_finalized = false;    // MPI_Finalize was called (MPI_Finalized)
  // rank: this process's slot in the arena, what p2p and the collective
  // segments call its world rank; size: the arena's slot count, the bound
  // of every array indexed by world rank. Without spawns they are the
  // MPI_COMM_WORLD rank and np. MPI_COMM_WORLD itself is the slots
  // [world_base, world_base + world_size) (docs/design/dynamic-processes.md).
  int rank = 0;
  int size = 1;
  int world_base = 0;
  int world_size = 1;
  int appnum = 0;  // MPI_APPNUM
  // Processes started in the job so far (the arena's `started`), for the
  // waiting policy.
  int processes() const {
    return arena.mapped() ? static_cast<int>(arena.header().started.load(std::memory_order_relaxed)) : world_size;
  }
  // The MPI call this process is in (api::Call sets it), for the deadlock report.
  const char* current_call = nullptr;
  // Its arguments, for the same report: api::Call resets `kind` (one store),
  // the argument checks of the calls that can block fill the rest. Read only
  // when a wait is about to sleep (lib/p2p/wait.cpp), through describe_call.
  struct CallArgs {
    // (int, not char: a char store may alias anything, so the compiler would
    // reload every pointer after the one in each MPI call's frame.)
    enum class Kind : int { none, send, recv, probe, coll, request, all_of, any_of };
    Kind kind = Kind::none;
    int peer = 0;  // dest, source or root (ranks of comm); -1: none
    int tag = 0;
    int count = 0;  // elements; -1: per-rank counts (the v forms)
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    const void* const* requests = nullptr;  // request/all_of/any_of: p2p::Request* [count]
  } call_args;
  // Installed by the api layer at MPI_Init (it knows names of communicators and
  // types; the waiting code below it does not): writes "MPI_Recv(source 1, tag
  // 7, MPI_COMM_WORLD, 1 x MPI_INT)" into text (NUL-terminated) and the world
  // rank the call waits for into *waits_for (-1: none, or any of several).
  void (*describe_call)(char* text, unsigned size, int* waits_for) = nullptr;
  // mpiexec --check (shm::kFlagCheck): collectives verify that all ranks agree
  // on their arguments, sends stamp their type signature (lib/api/coll_check.cpp,
  // lib/p2p/signature.hpp). Set once at MPI_Init.
  bool check_mode = false;
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
  std::unique_ptr<p2p::State, p2p::StateDelete> p2p;
  std::unique_ptr<rma::State> rma;  // windows (lib/rma)
  std::unique_ptr<io::State> io;    // files (lib/io)
  std::unique_ptr<api::SessionState> sessions;  // MPI_Session handles (lib/api/session.hpp)
  Counters counters{};               // paths taken (core/counters.hpp)
  // Temporaries of the collectives (lib/coll), reused across calls; reached
  // through p2p::scratch() (p2p/engine.hpp).
  ScratchPool scratch;
  // MPI_T events (core/events.hpp): bit e set while a tool wants event e;
  // the sink (lib/api/tool_events.cpp) hands it to the callbacks.
  std::atomic<std::uint32_t> event_mask{0};
  void (*event_sink)(int event, std::int64_t a, std::int64_t b, std::int64_t c) = nullptr;
  // mpiexec --trace: this rank's trace buffer (core/trace.hpp); null when off.
  std::unique_ptr<Tracer> tracer;
};

// The runtime: one object in static storage, constructed when the library
// is loaded (before any other static constructor of the library, and before
// the program's, which run after those of the libraries they link) and never
// destroyed (MPI calls may come from other static destructors). rt() is
// therefore the object's address, a link-time constant: no load and no test
// in the frame of every MPI call (each call reaches rt() several times, and
// the compiler could not keep a loaded pointer across the calls' stores).
union RuntimeStorage {
  RuntimeStorage();
  ~RuntimeStorage() {}  // never destroys `runtime`
  Runtime runtime;
};
extern RuntimeStorage g_runtime;
inline Runtime& rt() { return g_runtime.runtime; }

// A counter has one writer at a time (the thread in the MPI call: the call
// lock or the thread level serializes them), but the tool interface may read
// it from any thread (MPI_T_pvar_read). Relaxed atomic load and store: the
// same plain mov/add/mov as ++, and no data race for the reader.
inline void count(Counter c) {
  std::atomic_ref<std::uint64_t> v(rt().counters[static_cast<std::size_t>(c)]);
  v.store(v.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}
inline void count(Counter c, std::uint64_t n) {
  std::atomic_ref<std::uint64_t> v(rt().counters[static_cast<std::size_t>(c)]);
  v.store(v.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}
inline std::uint64_t counter_value(int i) {
  return std::atomic_ref<std::uint64_t>(rt().counters[static_cast<std::size_t>(i)]).load(std::memory_order_relaxed);
}

// Ends this process as part of a job-wide abort: writes the exit note that
// mpiexec reports, prints nothing itself, and exits with `code` (1 if code
// is 0 or out of 1..255). mpiexec then takes the other ranks down.
[[noreturn]] void abort_job(shm::ExitKind kind, int code, const char* text);

}  // namespace ringmpi::core
