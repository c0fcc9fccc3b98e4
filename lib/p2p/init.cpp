// Setting the engine up: the per-process State, the rings of this rank, the
// tunables (lib/tunables), the single-copy probe; error details; finalize.
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/state.hpp"
#include "p2p/wait.hpp"
#include "shm/ring.hpp"
#include "smsc/single_copy.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::p2p {
namespace {

// An eager message's record: envelope, sync cookie, payload. The eager floor
// must fit the smallest ring mpiexec accepts, or a send of kMinEagerLimit
// bytes could wait for its receiver and the library's send-before-receive
// collective steps (exchange/exchange.hpp) could deadlock.
constexpr std::size_t kEagerOverhead = sizeof(wire::Envelope) + sizeof(wire::SyncCookie);
// The largest MPI_COMM_WORLD whose rings' first laps init maps (below).
constexpr int kMapFirstLapsUpTo = 4;

static_assert(shm::max_payload_of(tunables::kMinRingBytes) - kEagerOverhead >= tunables::kMinEagerLimit,
              "the smallest ring must hold an eager message of the eager floor");

char g_detail[512];

// A process in a reused slot continues its rings where mpiexec says
// (RINGMPI_RESUME: "peer:in_head:out_tail;..."; launcher/slot_reuse.hpp has
// the invariants); every ring it does not name starts at 0.
void resume_rings(State& s) {
  const char* text = std::getenv(shm::kEnvResume);
  if (!text) return;
  for (const char* p = text; *p;) {
    char* end;
    const unsigned long peer = std::strtoul(p, &end, 10);
    const bool ok1 = *end == ':';
    const unsigned long long head = ok1 ? std::strtoull(end + 1, &end, 10) : 0;
    const bool ok2 = ok1 && *end == ':';
    const unsigned long long tail = ok2 ? std::strtoull(end + 1, &end, 10) : 0;
    if (!ok2 || (*end != ';' && *end != '\0') || peer >= s.out.size())
      internal_error("malformed %s from mpiexec: '%s'", shm::kEnvResume, text);
    s.in[peer].ring.resume_at(head);
    s.out[peer].ring.resume_at(tail);
    p = *end ? end + 1 : end;
  }
}

}  // namespace

State::State() = default;
void StateDelete::operator()(State* s) const { delete s; }

shm::RankSlot* detail::g_slots = nullptr;

State& make_state() {
  auto& p = core::rt().p2p;
  if (!p) p.reset(new State);
  return *p;
}

bool settings(Settings* out) {
  const State* s = core::rt().p2p.get();  // not state(): that would make the state before MPI_Init
  if (s == nullptr || !s->attached) return false;
  *out = Settings{s->ring_capacity, s->tune.eager_limit, s->tune.chunk};
  return true;
}

const char* error_detail() { return g_detail; }

void set_error_detail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(g_detail, sizeof g_detail, fmt, ap);
  va_end(ap);
}

void internal_error(const char* fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char line[640];
  std::snprintf(line, sizeof line, "rank %d: internal error in the point-to-point engine: %s", core::rt().rank, msg);
  std::fprintf(stderr, "ringmpi: %s\n", line);
  core::abort_job(shm::ExitKind::fatal_error, 1, line);
}

void init() {
  State& s = state();
  core::Runtime& rt = core::rt();
  s.rank = rt.rank;
  s.size = rt.size;
  const std::uint64_t cap = rt.arena.header().ring_capacity;
  s.out.resize(static_cast<std::size_t>(s.size));
  s.in.resize(static_cast<std::size_t>(s.size));
  const auto me = static_cast<std::uint32_t>(s.rank);
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(s.size); ++i) {
    s.out[i].ring = shm::RingProducer(rt.arena.ring(me, i), cap);
    s.in[i].ring = shm::RingConsumer(rt.arena.ring(i, me), cap);
  }
  resume_rings(s);
  s.pending_words = (static_cast<std::size_t>(s.size) + 63) / 64;
  s.ring_capacity = cap;
  s.my_pending = rt.arena.pending(me);
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(s.size); ++i) {
    s.peer_pending.push_back(rt.arena.pending(i) + s.rank / 64);
    s.slots.push_back(&rt.arena.slot(i));
  }
  detail::g_slots = &rt.arena.slot(0);
  const std::size_t max_payload = s.out[0].ring.max_payload();
  // Eager up to 32 KiB when a ring holds 16 such messages. Above that the
  // two copies through the ring (each line moving between the cores twice)
  // lose to one process_vm_readv of the sender's buffer even for a lone
  // message. osu_latency at np = 2, three alternating runs (us), eager limit
  // 64 KiB / 32 KiB / 16 KiB: 32 KiB 4.8-7.4 / 4.6-5.2 / 4.2-4.6, 64 KiB
  // 8.9-11.4 / 4.3-5.0 / 4.4-4.9 (Open MPI 5.1-5.5 and 7.1-8.6); osu_bw
  // (a window of 64 in flight) keeps eager's lead at 32 KiB, 11-19 / 11-18 /
  // 7-8 GB/s (Open MPI 6.3-8.2), and is even at 64 KiB.
  s.tune.eager_limit = std::clamp<std::size_t>(cap / 16, s.tune.eager_limit, 32768);
  using tunables::Id;
  s.tune.eager_limit = tunables::value(Id::eager_limit, s.tune.eager_limit);
  s.tune.split_min = tunables::value(Id::split_min, s.tune.split_min);
  s.tune.chunk = tunables::value(Id::chunk, s.tune.chunk);
  s.tune.rndv_min = tunables::value(Id::rndv_min, s.tune.rndv_min);
  // What one ring record holds caps both (ranges: lib/tunables).
  const std::size_t eager_max = max_payload - kEagerOverhead;
  if (s.tune.eager_limit > eager_max) s.tune.eager_limit = eager_max;
  if (s.tune.chunk > max_payload - sizeof(wire::Data)) s.tune.chunk = max_payload - sizeof(wire::Data);
  smsc::init();  // does single copy work here (lib/smsc)
  // The job's size is known now: settle the waiting policy.
  if (!oversubscribed_slow() && rt.world_size <= kMapFirstLapsUpTo) {
    // A small job with a core per rank maps the first lap of its rings to
    // and from every other rank of MPI_COMM_WORLD here (shm/ring.hpp,
    // "Pages"), where the first messages of each pair and direction would:
    // on a virtual machine a page touched for the first time costs 10-30
    // us, 17 pages a lap, and a benchmark's first 1000 round trips (a
    // PingPong whose warm-up is a few calls) ran at twice the steady cost.
    // Bigger jobs map as they go: at np 8 this would be 56 rings, about
    // 950 pages, before the first call.
    for (int i = rt.world_base; i < rt.world_base + rt.world_size; ++i) {
      if (i == s.rank) continue;
      s.out[static_cast<std::size_t>(i)].ring.map_first_lap();
      s.in[static_cast<std::size_t>(i)].ring.map_first_lap();
    }
  }
  s.attached = true;
}

void finalize() {
  State& s = state();
  if (!s.attached) return;
  wait_until([&s] { return s.open_sends == 0 && s.busy.empty(); });
}

}  // namespace ringmpi::p2p
