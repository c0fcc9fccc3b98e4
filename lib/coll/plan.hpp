// A communicator's collective plan (coll/select.hpp has the tables and
// the choice): what the api layer asks once per call.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "coll/select.hpp"
#include "coll/segment.hpp"
#include "comm/comm.hpp"
#include "core/runtime.hpp"

namespace ringmpi::coll {

// A communicator's plan: the settings and thresholds as they were when it
// was resolved (its first collective; again after an MPI_T write), and
// what ran how often, for how long (when timing is on: mpiexec --coll-report).
struct Plan {
  std::array<Setting, kFamilies> settings{};
  // effective_mode() of each setting, resolved with it.
  std::array<int, kFamilies> modes{};
  Thresholds limits{};
  // Whether limits' rules name a way of the segment for each family
  // (rules_name_ways): only then does a call check the ways (Shape::way_rules).
  std::array<bool, kFamilies> way_rules{};
  // limits' rules for each family at this communicator's size, resolved
  // (select.hpp FamilyRules): what select() scans per call.
  std::array<FamilyRules, kFamilies> family_rules{};
  // Each family's last default choice (nothing forced, no way checked):
  // the Shape fields choose() reads, packed (memo_key), and what it
  // returned; select() returns it again for a call of the same key
  // without choosing (choose() is pure in the shape, the settings and the
  // thresholds, and a new generation clears these). algo none: empty.
  struct Memo {
    std::array<std::uint64_t, 5> key{};
    Algo algo = Algo::none;
  };
  std::array<Memo, kFamilies> memo{};
  // Each family's last entry of a blocking [0] and a nonblocking [1]
  // intracommunicator call (issue 36, the entry path): the caller's key
  // (QuickKey: its own facts that decide the Shape's call fields and the
  // *_fits results), the segment the call used, and the algorithm
  // select() returned. A call with the same key and segment takes the
  // algorithm again (quick_select) without prepare()'s shape, the fits or
  // the choice: choose() and the fits are pure in those, the segment's
  // facts (fixed at attach) and the plan's settings, which a new
  // generation, like a new communicator object (resolve_plan), clears.
  // Only default choices of families whose rules name no way are kept
  // (quick_store). algo none: empty.
  struct Quick {
    std::array<std::uint64_t, 3> key{};
    const Segment* seg = nullptr;
    Algo algo = Algo::none;
  };
  std::array<std::array<Quick, 2>, kFamilies> quick{};
  std::uint64_t generation = 0;
  std::string label;  // the communicator's name at its first collective, or its context id
  int size = 0;       // its ranks (both groups of an intercommunicator)
  bool inter = false;
  std::uint32_t context = 0;  // what ties the plan to its communicator object (coll/plan.cpp)
  int local_size = 0;
  // Its segment barriers' kind, from the first (Shape::barrier_kind), and
  // the segment that kind belongs to (a communicator made later at the same
  // address, continuing the plan, has a segment of its own).
  Algo barrier_kind = Algo::none;
  std::weak_ptr<Segment> barrier_segment;
  std::array<std::array<std::uint64_t, kAlgos>, kFamilies> calls{};
  std::array<std::array<std::uint64_t, kAlgos>, kFamilies> nanos{};
};
// c's plan, resolved on first use (and again after a setting changed):
// the object's cached plan while it is c's and current (inline: every
// collective asks), else resolve_plan().
Plan& resolve_plan(comm::Comm& c);
// Whether plan p is communicator c's (coll/plan.cpp: a plan is keyed by the
// object's address, and belongs to it while context, size and kind match).
inline bool belongs(const Plan& p, const comm::Comm& c) {
  return p.context == c.context && p.local_size == c.size() && p.inter == c.inter;
}
[[gnu::always_inline]] inline Plan& plan_of(comm::Comm& c) {
  // Kept on the communicator object (comm::CollState::plan): no lock and no
  // thread-local on the way to it; a copy of the object starts without one.
  Plan* p = c.coll.plan.get();
  if (__builtin_expect(p != nullptr && belongs(*p, c) && p->generation == settings_generation(), 1)) return *p;
  return resolve_plan(c);
}
// The Shape fields choose() reads (its first five words), for Plan::Memo.
inline std::array<std::uint64_t, 5> memo_key(const Shape& s) {
  std::array<std::uint64_t, 5> k;
  __builtin_memcpy(k.data(), &s, sizeof k);
  return k;
}
// Whether a nonblocking or persistent start of a family in `mode` may use
// c's segment: one attached before (a start is local and cannot run the
// attaching round), on an intracommunicator, outside --check, unless the
// family's setting keeps it off the segment.
inline bool attached_usable(const comm::Comm& c, int mode) {
  return !c.inter && c.coll.segment && !core::rt().check_mode && mode != 2;
}

// What a call's entry keys Plan::Quick on: the facts of its own arguments
// that decide the Shape's call fields (bytes, pair_bytes, count, uniform,
// exclusive) and its *_fits results (fits, numa_fits), the same on every
// rank where those are (api/coll.cpp builds one per family).
using QuickKey = std::array<std::uint64_t, 3>;
// The segment a call of family f on intracommunicator c would get from
// prepare() without attaching one (nullptr: none, or a blocking call that
// must attach first; then Plan::Quick has no entry for it).
[[gnu::always_inline]] inline Segment* quick_segment(const comm::Comm& c, const Plan& p, Family f, bool nonblocking) {
  const int mode = p.modes[static_cast<std::size_t>(f)];
  Segment* seg = c.coll.segment.get();
  if (nonblocking ? !attached_usable(c, mode) : mode == 2) return nullptr;
  return seg;
}
// The algorithm of the last call of family f with key k on this segment
// (Plan::Quick), counted as select() counts it; Algo::none when there is
// none (the call then goes through prepare(), its fits and select(), and
// quick_store()). Intracommunicators only.
[[gnu::always_inline]] inline Algo quick_select(Plan& p, Family f, bool nonblocking, const QuickKey& k,
                                                const Segment* seg) {
  const Plan::Quick& q = p.quick[static_cast<std::size_t>(f)][nonblocking];
  if (q.algo == Algo::none || ((q.key[0] ^ k[0]) | (q.key[1] ^ k[1]) | (q.key[2] ^ k[2])) != 0 || q.seg != seg ||
      (seg == nullptr && !nonblocking))
    return Algo::none;
  const Algo a = q.algo;
  const Algo counted = is_way(a) ? Algo::segment : a;
  ++p.calls[static_cast<std::size_t>(f)][static_cast<std::size_t>(counted)];
  count_total(f, counted);
  return a;
}
// After select() chose a for call s (prepare()'s segment seg): keeps it in
// p's Quick for key k when it is a default choice that quick_select may
// repeat (nothing forced, no way checked or named by the rules, an
// intracommunicator, and for a blocking call an attached segment).
void quick_store(Plan& p, Family f, const QuickKey& k, const Segment* seg, const Shape& s, Algo a);

// The same, shared (an MPI_T handle bound to c keeps it after c is freed).
std::shared_ptr<Plan> shared_plan(comm::Comm& c);
// Every plan this process made, freed communicators' too (the report).
std::vector<std::shared_ptr<const Plan>> all_plans();


// Attaches c's segment (segment.hpp segment()) for a blocking call on
// plan p, whose Quick entries then start over (the new segment's facts
// are the fits' and the choice's).
Segment* attach(comm::Comm& c, Plan& p);

// Fills what s says of c and its segment for a call of family f (`world`:
// the call's handle is MPI_COMM_WORLD) and returns the segment the call may
// use: a blocking call attaches it unless f's setting keeps it off the
// segment; a nonblocking one uses one attached before. The caller fills
// the call's own fields (bytes, fits, ...). `plan` (when given): c's plan,
// for select() and a WayScope (no second lookup). Inline: every
// collective's start.
[[gnu::always_inline]] inline Segment* prepare(comm::Comm& c, Family f, bool nonblocking, bool world, Shape* s,
                                               Plan** plan = nullptr) {
  s->np = c.size();
  s->inter = c.inter;
  s->nonblocking = nonblocking;
  s->world = world;
  Plan& p = plan_of(c);
  if (plan) *plan = &p;
  const Setting& set = p.settings[static_cast<std::size_t>(f)];
  const int mode = p.modes[static_cast<std::size_t>(f)];
  if (is_way(set.forced)) s->way = set.forced;  // coll/fits.cpp checks it
  // Rules naming a way for the family: fits.cpp checks the ways when the
  // rule matching the call names one (blocking intracommunicator calls of
  // mode 0, the calls rules decide).
  if (set.forced == Algo::none && set.mode == 0 && !nonblocking && !c.inter && p.way_rules[static_cast<std::size_t>(f)])
    s->way_rules = &p.limits;
  Segment* seg = nullptr;
  if (!c.inter && nonblocking) {
    if (attached_usable(c, mode)) seg = c.coll.segment.get();
  } else if (!c.inter && c.size() >= 2) {
    // A blocking call attaches the segment (a collective round of its own,
    // which every rank reaches with the same setting) unless its setting
    // keeps the family off it.
    if (mode != 2) seg = c.coll.segment ? c.coll.segment.get() : attach(c, p);
    if (!seg) core::count(core::Counter::coll_messages);
  }
  s->segment = seg != nullptr;
  if (seg) {
    s->oversubscribed = seg->oversubscribed();
    s->two_level = seg->groups().two_level();
    s->groups_contiguous = seg->groups().contiguous;
    s->inline_max = seg->inline_max();
  }
  return seg;
}

// The choice for one call on c: chosen with c's plan and counted
// (MPI_SUCCESS), or MPI_ERR_UNSUPPORTED_OPERATION with *why (a forced
// algorithm that cannot run it).
// `plan`: c's plan, for a WayScope (no second lookup).
int select(comm::Comm& c, Family f, const Shape& s, Algo* out, std::string* why, Plan** plan = nullptr);
// The same on c's plan p (from prepare()): the algorithm, counted, or
// Algo::none when a forced one cannot run the call (select_refusal() then
// says why). A default choice repeated with the same shape is the plan's
// memo (Plan::Memo), not chosen again.
Algo select(Plan& p, Family f, const Shape& s);
// Why p's forced algorithm of f cannot run call s (after select() returned none).
std::string select_refusal(const Plan& p, Family f, const Shape& s);

// What persistent collectives (api/coll_persist.cpp) and tools ask: the
// row c's plan chooses for a call of this shape (Algo::none with *why),
// counting nothing.
Algo peek(comm::Comm& c, Family f, const Shape& s, const char** why);
// The segment a persistent collective of family f may plan on once at
// _init (api/coll_persist.cpp, coll/persistent_plan.hpp): c's, attached
// before, on an intracommunicator, outside mpiexec --check, unless f's
// setting forces an algorithm off the segment. nullptr otherwise: each
// start then runs the nonblocking form, which selects as any call does.
std::shared_ptr<Segment> persistent_segment(comm::Comm& c, tunables::Id f);
// After a blocking call on the segment that select() chose as `chosen`
// (segment, or a forced way): counts the way it took (the segment's
// took(), else a forced way) on c's plan and in the process total.
void count_way(Plan& p, Family f, Algo chosen, Algo taken);
// Counts one call of f run by a, on c's plan and in the process total.
void count(comm::Comm& c, Family f, Algo a);
void add_time(comm::Comm& c, Family f, Algo a, std::uint64_t ns);

// Whether calls are timed (RINGMPI_COLL_REPORT set: mpiexec --coll-report),
// read at the first ask (g_timing: -1 until then; inline, every blocking
// collective asks).
extern signed char g_timing;
bool read_timing();
[[gnu::always_inline]] inline bool timing() {
  const signed char v = g_timing;
  return __builtin_expect(v >= 0, 1) ? v != 0 : read_timing();
}
// MPI_Finalize: this rank's plans into mpiexec's report directory
// (RINGMPI_COLL_REPORT; coll/report.cpp has the format), when it is set.
void write_report();

// One blocking call on c's segment, chosen as `a` (segment, numa_leaders or
// a forced way): the segment takes the way for the call's length, and the
// way it took is counted at the end (count_way), timed under timing().
class WayScope {
 public:
  WayScope(Plan& p, Family f, Segment& s, Algo a) : p_(p), f_(f), s_(s), a_(a), on_(timing()) {
    s.want(is_way(a) ? a : Algo::segment);
    if (on_) t0_ = std::chrono::steady_clock::now();
  }
  ~WayScope() {
    if (a_ != Algo::numa_leaders) {
      const Algo taken = s_.taken();
      if (is_way(taken != Algo::none ? taken : a_)) count_way(p_, f_, a_, taken);  // (the test inline)
      if (on_) time_way(s_.taken() != Algo::none ? s_.taken() : a_);
    }
    s_.want(Algo::segment);
  }
  WayScope(const WayScope&) = delete;
  WayScope& operator=(const WayScope&) = delete;

 private:
  Plan& p_;
  Family f_;
  Segment& s_;
  Algo a_;
  bool on_;
  std::chrono::steady_clock::time_point t0_{};
  void time_way(Algo way) {
    if (is_way(way))
      p_.nanos[static_cast<std::size_t>(f_)][static_cast<std::size_t>(way)] += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
  }
};

// Times a blocking call when timing() is on: its nanoseconds added to c's plan.
class Timed {
 public:
  // (A way of the segment is timed as `segment`, and by WayScope as itself.)
  [[gnu::always_inline]] Timed(comm::Comm& c, Family f, Algo a) : c_(c), f_(f), a_(is_way(a) ? Algo::segment : a), on_(timing()) {
    if (on_) t0_ = std::chrono::steady_clock::now();
  }
  [[gnu::always_inline]] ~Timed() {
    if (on_)
      add_time(c_, f_, a_,
               static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - t0_)
                                              .count()));
  }
  Timed(const Timed&) = delete;
  Timed& operator=(const Timed&) = delete;

 private:
  comm::Comm& c_;
  Family f_;
  Algo a_;
  bool on_;
  std::chrono::steady_clock::time_point t0_{};
};

}  // namespace ringmpi::coll
