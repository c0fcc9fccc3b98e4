// A communicator's collective plan and the per-call choice on it
// (coll/select.hpp): the settings resolved once per communicator (again
// after an MPI_T write), and the counts of what ran.
#include "coll/plan.hpp"

#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "comm/comm.hpp"
#include "core/counters.hpp"
#include "core/runtime.hpp"

namespace ringmpi::coll {
namespace {

// Under mpiexec --coll-report, every plan made in this process, for the
// end-of-run report (coll/report.cpp): a communicator's plan outlives its
// communicator there. The live ones by communicator object: a plan is found by the object's
// address, and belongs to it while the context, size and kind match (a
// communicator made at a freed one's address, with its context, size and
// kind, continues its plan: its counts then continue too, which the report
// shows under the same context, and which per-handle counts do not see).
struct Registry {
  std::mutex lock;
  std::vector<std::shared_ptr<Plan>> plans;
  std::unordered_map<const comm::Comm*, std::shared_ptr<Plan>> live;
};
Registry& registry() {
  static Registry* r = new Registry;  // read at exit
  return *r;
}

}  // namespace

signed char g_timing = -1;

bool read_timing() {
  const char* v = std::getenv("RINGMPI_COLL_REPORT");
  g_timing = v != nullptr && *v != '\0' ? 1 : 0;
  return g_timing != 0;
}

std::shared_ptr<Plan> shared_plan(comm::Comm& c) {
  Registry& r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  std::shared_ptr<Plan>& slot = r.live[&c];
  if (!slot || !belongs(*slot, c)) {
    slot = std::make_shared<Plan>();
    slot->label = c.name.empty() ? "context " + std::to_string(c.context) : c.name;
    slot->size = c.inter ? c.size() + c.remote_size() : c.size();
    slot->inter = c.inter;
    slot->context = c.context;
    slot->local_size = c.size();
    if (timing()) r.plans.push_back(slot);
  }
  return slot;
}


std::shared_ptr<Segment> persistent_segment(comm::Comm& c, tunables::Id f) {
  const Setting& set = plan_of(c).settings[static_cast<std::size_t>(family_of(f))];
  // A forced way of the segment has no nonblocking form: the starts take
  // the nonblocking form, which refuses it.
  if (is_way(set.forced)) return nullptr;
  return attached_usable(c, effective_mode(set)) ? c.coll.segment : nullptr;
}

Plan& resolve_plan(comm::Comm& c) {
  std::shared_ptr<Plan>& cached = c.coll.plan;
  if (!cached || !belongs(*cached, c)) cached = shared_plan(c);
  Plan& p = *cached;
  const std::uint64_t now = settings_generation();
  if (p.generation != now) {
    for (int i = 0; i < kFamilies; ++i) {
      p.settings[static_cast<std::size_t>(i)] = setting(static_cast<Family>(i));
      p.modes[static_cast<std::size_t>(i)] = effective_mode(p.settings[static_cast<std::size_t>(i)]);
    }
    p.limits = thresholds();
    for (int i = 0; i < kFamilies; ++i) {
      const auto f = static_cast<Family>(i);
      p.way_rules[static_cast<std::size_t>(i)] = rules_name_ways(f, p.limits);
      p.family_rules[static_cast<std::size_t>(i)] = family_rules(f, p.limits, c.size());
    }
    p.memo = {};  // chosen under the old settings
    p.generation = now;
  }
  // (A new communicator object, or new settings: its segment may be
  // another at the same address, its settings others.)
  p.quick = {};
  return p;
}

Segment* attach(comm::Comm& c, Plan& p) {
  p.quick = {};
  return segment(c);
}

void quick_store(Plan& p, Family f, const QuickKey& k, const Segment* seg, const Shape& s, Algo a) {
  const auto i = static_cast<std::size_t>(f);
  if (a == Algo::none || s.inter || p.settings[i].forced != Algo::none || s.way != Algo::none ||
      s.way_rules != nullptr || s.ways_checked || (seg == nullptr && !s.nonblocking))
    return;
  Plan::Quick& q = p.quick[i][s.nonblocking];
  q.key = k;
  q.seg = seg;
  q.algo = a;
}

void count(comm::Comm& c, Family f, Algo a) {
  ++plan_of(c).calls[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)];
  count_total(f, a);
}

void add_time(comm::Comm& c, Family f, Algo a, std::uint64_t ns) {
  plan_of(c).nanos[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)] += ns;
}

Algo select(Plan& p, Family f, const Shape& s) {
  const auto i = static_cast<std::size_t>(f);
  const Setting& set = p.settings[i];
  Algo a;
  if (set.forced == Algo::none && !s.ways_checked) {
    // The default choice, pure in s (and the plan's settings): the last
    // call's again when its shape is this one's.
    Plan::Memo& m = p.memo[i];
    const std::array<std::uint64_t, 5> key = memo_key(s);
    if (m.algo != Algo::none && ((m.key[0] ^ key[0]) | (m.key[1] ^ key[1]) | (m.key[2] ^ key[2]) |
                                 (m.key[3] ^ key[3]) | (m.key[4] ^ key[4])) == 0) {
      a = m.algo;
    } else {
      const char* reason = nullptr;
      a = choose(f, set, p.limits, s, &reason, &p.family_rules[i]);
      m.key = key;
      m.algo = a;  // never none: the default choice always has an answer
    }
  } else {
    const char* reason = nullptr;
    a = choose(f, set, p.limits, s, &reason, &p.family_rules[i]);
    if (a == Algo::none) return a;
  }
  // A way of the segment counts as `segment` here, and as itself once it
  // ran (WayScope, coll/seg.hpp: count_way).
  const Algo counted = is_way(a) ? Algo::segment : a;
  ++p.calls[i][static_cast<std::size_t>(counted)];
  count_total(f, counted);
  return a;
}

std::string select_refusal(const Plan& p, Family f, const Shape& s) {
  const Setting& set = p.settings[static_cast<std::size_t>(f)];
  const char* reason = nullptr;
  choose(f, set, p.limits, s, &reason, &p.family_rules[static_cast<std::size_t>(f)]);
  return std::string(tunables::spec(family_tunable(f)).name) + "=" + algo_name(set.forced) +
         " cannot run this call: " + (reason ? reason : "");
}

int select(comm::Comm& c, Family f, const Shape& s, Algo* out, std::string* why, Plan** plan) {
  Plan& p = plan_of(c);
  if (plan) *plan = &p;
  const Algo a = select(p, f, s);
  if (a == Algo::none) {
    *why = select_refusal(p, f, s);
    return MPI_ERR_UNSUPPORTED_OPERATION;
  }
  *out = a;
  return MPI_SUCCESS;
}

void count_way(Plan& p, Family f, Algo chosen, Algo taken) {
  const Algo a = taken != Algo::none ? taken : chosen;
  if (!is_way(a)) return;
  ++p.calls[static_cast<std::size_t>(f)][static_cast<std::size_t>(a)];
  count_total(f, a);
}

Algo peek(comm::Comm& c, Family f, const Shape& s, const char** why) {
  Plan& p = plan_of(c);
  return choose(f, p.settings[static_cast<std::size_t>(f)], p.limits, s, why);
}

std::vector<std::shared_ptr<const Plan>> all_plans() {
  Registry& r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  return {r.plans.begin(), r.plans.end()};
}

}  // namespace ringmpi::coll
