// MPI_Init / MPI_Finalize and the rest of the environment calls.
//
// Thread support: every level is provided as asked. At MPI_THREAD_MULTIPLE
// each call holds the process's call lock (lib/core/call_lock.hpp says why
// that is correct); below it no lock is taken.
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "api/call_report.hpp"
#include "api/call.hpp"
#include "coll/barrier.hpp"
#include "coll/plan.hpp"
#include "coll/segment.hpp"
#include "comm/comm.hpp"
#include "comm/dynamic.hpp"
#include "core/runtime.hpp"
#include "shm/bridge.hpp"
#include "p2p/engine.hpp"
#include "io/file.hpp"
#include "rma/window.hpp"

using namespace ringmpi;

extern "C" {
int rmpi_status_ignore_storage;
int rmpi_statuses_ignore_storage;
int rmpi_in_place_storage;
int rmpi_bottom_storage;
int rmpi_unweighted_storage;
int rmpi_weights_empty_storage;
}

namespace ringmpi::api {
namespace {

bool parse_env_int(const char* name, long* out) {
  const char* v = std::getenv(name);
  if (!v || !*v) return false;
  char* end = nullptr;
  errno = 0;
  *out = std::strtol(v, &end, 10);
  return errno == 0 && *end == '\0';
}

[[noreturn]] void init_failure(const std::string& why) {
  std::fprintf(stderr, "ringmpi: MPI_Init failed: %s\n", why.c_str());
  std::exit(1);
}

// The runtime itself: the arena, this rank's identity, MPI_COMM_WORLD and
// MPI_COMM_SELF (the library's own communication addresses world ranks even
// in the Sessions Model), the p2p engine. Done once per process.
void start_runtime(int required) {
  core::Runtime& r = core::rt();
  long fd = -1, rank = 0, size = 1, base = 0, appnum = 0;
  std::string error;
  // The collective rules file (RINGMPI_COLL_RULES, coll/select.hpp): a
  // malformed one stops every rank here, before any of them waits on
  // another (mpiexec refuses it before the job starts; this is for a
  // program started without mpiexec).
  if (const std::string& bad = coll::rules_problem(); !bad.empty()) init_failure(bad);
  if (parse_env_int(shm::kEnvArenaFd, &fd)) {
    if (!parse_env_int(shm::kEnvRank, &rank) || !parse_env_int(shm::kEnvSize, &size) || rank < 0 ||
        size < 1 || rank >= size)
      init_failure(std::string("inconsistent ") + shm::kEnvRank + "/" + shm::kEnvSize +
                   " in the environment; start the program with ringmpi's mpiexec");
    if (std::getenv(shm::kEnvWorldBase) && (!parse_env_int(shm::kEnvWorldBase, &base) || base < 0))
      init_failure(std::string("malformed ") + shm::kEnvWorldBase + " in the environment");
    if (std::getenv(shm::kEnvAppnum) && !parse_env_int(shm::kEnvAppnum, &appnum)) appnum = 0;
    r.arena = shm::Arena::map(static_cast<int>(fd), &error);
    if (!r.arena.mapped()) init_failure(error);
    shm::keep_own_arena_fd(static_cast<int>(fd));  // a connect to another job hands it over (comm/ports.cpp)
    // The arena has a slot for every process of the job, spawned ones too
    // (docs/design/dynamic-processes.md); this world is slots base..base+size-1.
    if (static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(size) > r.arena.nranks())
      init_failure("the arena has " + std::to_string(r.arena.nranks()) + " process slots but " + shm::kEnvSize +
                   " and " + shm::kEnvWorldBase + " ask for slots " + std::to_string(base) + ".." +
                   std::to_string(base + size - 1));
  } else {
    // Singleton: started without mpiexec (it cannot spawn: no launcher).
    const int own = shm::Arena::create(1, shm::default_ring_capacity(1), 0, &error);
    if (own < 0) init_failure(error);
    r.arena = shm::Arena::map(own, &error);
    shm::keep_own_arena_fd(own);
    if (!r.arena.mapped()) init_failure(error);
  }
  r.rank = static_cast<int>(base + rank);
  r.size = static_cast<int>(r.arena.nranks());
  r.world_base = static_cast<int>(base);
  r.world_size = static_cast<int>(size);
  r.appnum = static_cast<int>(appnum);
  r.check_mode = (r.arena.header().flags & shm::kFlagCheck) != 0;  // mpiexec --check
  r.arena.slot(r.rank).pid.store(static_cast<std::int32_t>(getpid()), std::memory_order_relaxed);
  r.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE : required;
  r.main_thread = static_cast<unsigned long>(pthread_self());
  comm::init_world(static_cast<int>(rank), r.world_size, r.world_base);
  install_call_report();
  r.phase = core::Phase::running;
  p2p::init();
  // MPI_COMM_WORLD's shared segment now, in the first round every rank makes
  // (coll/segment.hpp, "Attach"). Other communicators attach in their first
  // blocking collective; a nonblocking one cannot run that round (its start
  // is local), so a program that runs only nonblocking collectives on
  // MPI_COMM_WORLD would otherwise run every one of them as a message schedule.
  // Only in MPI_Init: the round involves every rank, and MPI_Session_init
  // is local (a session's communicators attach in their first collective).
  if (r.world_size > 1 && r.world_initialized) coll::segment(*comm::lookup(MPI_COMM_WORLD));
  // A spawned process: the intercommunicator to its parents, and the hello
  // that lets their MPI_Comm_spawn return (comm/dynamic.cpp).
  if (!comm::attach_parent(&error)) init_failure(error);
  if (const char* dir = std::getenv(core::kEnvTraceDir); dir && *dir) r.tracer = core::Tracer::open(dir, r.rank);
}

}  // namespace

int acquire_runtime(int required, int* provided) {
  core::Runtime& r = core::rt();
  if (r.phase == core::Phase::before_init) {
    start_runtime(required);
  } else {
    // Running already (or stopped by the last session's finalize, with
    // every object still in place): open it again, at the higher of the
    // thread levels asked for. Raising it is safe here: no other thread
    // of this process can be in an MPI call that needs the lock yet,
    // since the level it asked for before did not allow that.
    if (r.phase == core::Phase::finalized) {
      r.phase = core::Phase::running;
      r.arena.slot(r.rank).finalized.store(0, std::memory_order_release);
    }
    if (required > r.thread_level) r.thread_level = required;
  }
  ++r.users;
  if (provided) *provided = r.thread_level;
  // From the next call on, every call takes the call lock (this one never held it).
  r.serialize_calls = r.thread_level == MPI_THREAD_MULTIPLE;
  return MPI_SUCCESS;
}

void release_runtime() {
  core::Runtime& r = core::rt();
  if (--r.users > 0) return;
  // The last of the World Model and the sessions: this process's sends
  // leave, and mpiexec learns it finished (MPI_Finalize's world barrier
  // and the release of windows and files are the World Model's: its
  // MPI_Finalize does them before it comes here).
  p2p::finalize();
  // Detached from the collective segments of the communicators the program
  // never freed (its MPI_COMM_WORLD at least): it makes no collective call
  // any more, and a process that gets its slot after it (a spawned world's
  // slots are reused, launcher/slot_reuse.hpp) then finds its segments free.
  comm::State& cs = comm::state();
  cs.comms.for_each([&cs](int h, const comm::Comm&) {
    if (comm::Comm* c = cs.comms.get(h)) c->coll.segment.reset();
  });
  r.arena.slot(r.rank).finalized.store(1, std::memory_order_release);
  r.phase = core::Phase::finalized;
}

namespace {

int do_init(Call& call, int required, int* provided) {
  core::Runtime& r = core::rt();
  if (r.world_initialized && !r.world_finalized) return call.fail(MPI_ERR_OTHER, "MPI is already initialized");
  if (r.world_finalized)
    return call.fail(MPI_ERR_OTHER, "MPI cannot be initialized again after MPI_Finalize");
  r.world_initialized = true;
  const bool first = r.phase == core::Phase::before_init;
  acquire_runtime(required, provided);
  call.traced_from_start();  // the tracer opened just now
  // A runtime started by a session: MPI_COMM_WORLD's segment now, as above.
  if (!first && r.world_size > 1) coll::segment(*comm::lookup(MPI_COMM_WORLD));
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace ringmpi::api

using ringmpi::api::Call;

extern "C" {

int MPI_Init(int*, char***) {
  Call call("MPI_Init");
  return ringmpi::api::do_init(call, MPI_THREAD_SINGLE, nullptr);
}

int MPI_Init_thread(int*, char***, int required, int* provided) {
  Call call("MPI_Init_thread");
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
    return call.fail(MPI_ERR_ARG, "argument required=%d is not one of MPI_THREAD_SINGLE..MPI_THREAD_MULTIPLE",
                     required);
  if (int e = call.not_null(provided, "provided")) return e;
  return ringmpi::api::do_init(call, required, provided);
}

// Both about the World Model (MPI-4.0 §11.2.1): sessions do not count.
int MPI_Initialized(int* flag) {
  Call call("MPI_Initialized");
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = core::rt().world_initialized;
  return MPI_SUCCESS;
}

int MPI_Finalized(int* flag) {
  Call call("MPI_Finalized");
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = core::rt().world_finalized;
  return MPI_SUCCESS;
}

int MPI_Query_thread(int* provided) {
  Call call("MPI_Query_thread");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(provided, "provided")) return e;
  *provided = core::rt().thread_level;
  return MPI_SUCCESS;
}

int MPI_Is_thread_main(int* flag) {
  Call call("MPI_Is_thread_main");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = static_cast<unsigned long>(pthread_self()) == core::rt().main_thread;
  return MPI_SUCCESS;
}

int MPI_Finalize(void) {
  Call call("MPI_Finalize");
  if (int e = call.initialized()) return e;
  core::Runtime& r = core::rt();
  if (!r.world_initialized || r.world_finalized)
    return call.fail(MPI_ERR_OTHER, r.world_finalized ? "MPI_Finalize was called already"
                                                      : "called without MPI_Init (only sessions are open: "
                                                        "close them with MPI_Session_finalize)");
  comm::finalize_hooks();  // MPI_COMM_SELF attributes, first thing (MPI-3.1 §8.7.1)
  rma::delete_window_attributes();
  ringmpi::coll::write_report();  // mpiexec --coll-report
  p2p::finalize();
  ringmpi::coll::barrier_world();
  r.world_finalized = true;
  if (r.users == 1) {
    // Past the barrier no rank makes RMA calls: windows go without a round
    // each. Not while sessions are open: their windows and files are theirs.
    rma::release_all_windows();
    io::release_all_files();  // files the program left open (erroneous, §13.2.2, but nothing is left behind)
  }
  ringmpi::api::release_runtime();
  return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  Call call("MPI_Abort");
  char text[200];
  std::snprintf(text, sizeof text, "rank %d called MPI_Abort(%s, %d)", core::rt().rank,
                ringmpi::api::describe_comm(comm).c_str(), errorcode);
  std::fprintf(stderr, "ringmpi: %s\n", text);
  core::abort_job(shm::ExitKind::abort, errorcode, text);
}

double MPI_Wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double MPI_Wtick(void) {
  timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int MPI_Get_processor_name(char* name, int* resultlen) {
  Call call("MPI_Get_processor_name");
  if (int e = call.not_null(name, "name")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  char host[MPI_MAX_PROCESSOR_NAME];
  if (gethostname(host, sizeof host) != 0) std::snprintf(host, sizeof host, "localhost");
  host[sizeof host - 1] = '\0';
  std::snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", host);
  *resultlen = static_cast<int>(std::strlen(name));
  return MPI_SUCCESS;
}

int MPI_Get_version(int* version, int* subversion) {
  Call call("MPI_Get_version");
  if (int e = call.not_null(version, "version")) return e;
  if (int e = call.not_null(subversion, "subversion")) return e;
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int MPI_Get_library_version(char* version, int* resultlen) {
  Call call("MPI_Get_library_version");
  if (int e = call.not_null(version, "version")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                "ringmpi %s (shared-memory MPI-%d.%d subset for one node)", RINGMPI_VERSION, MPI_VERSION,
                MPI_SUBVERSION);
  *resultlen = static_cast<int>(std::strlen(version));
  return MPI_SUCCESS;
}

}  // extern "C"
