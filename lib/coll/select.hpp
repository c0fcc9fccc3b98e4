// How a collective call chooses its algorithm, in one place
// (docs/design/collectives.md, "Selection"; users: docs/guide/collective-algorithms.md).
//
// Each family has a table of the algorithms it really has (kRows): a name a
// user can force (RINGMPI_COLL_<FAMILY>=<name>), whether it runs blocking or
// nonblocking calls, and what it needs of a call. A call describes itself
// as a Shape (facts every rank agrees on: np, bytes, contiguity, in place,
// commutativity, whether the shared segment can hold it, its NUMA layout,
// ranks per core), and choose() returns the row that runs it: the forced
// one when a user forced one (or why it cannot run this call), else the
// first one the default policy (auto_choice) prefers. choose() is pure, so
// the unit test walks it over a grid of shapes; the api layer asks it once
// per call and counts what it returned (Plan, per communicator).
//
// The old numeric values of RINGMPI_COLL_<FAMILY> stay accepted as modes of
// the default policy: 0 auto, 1 the flat segment where it applies (no NUMA
// leaders, no two-rank rule), 2 no segment, 3 the segment with NUMA leaders
// where the family has them; each falls back as it always did, where a
// name is strict.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tunables/coll_rules.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::coll {

enum class Family : std::uint8_t {
  barrier,
  bcast,
  scatter,
  gather,
  allgather,
  alltoall,
  reduce,
  allreduce,
  reduce_scatter,
  scan,
  neighbor,  // MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,w), blocking and nonblocking
};
inline constexpr int kFamilies = 11;

// Every algorithm of every family (a family's table says which are its own).
enum class Algo : std::uint8_t {
  none,           // no choice (a forced name that cannot run the call)
  local,          // one rank: nothing to meet (MPI_Barrier, or a neighbourhood exchange by copies, on one rank)
  segment,        // the flat shared-segment algorithm (coll/seg_*.cpp): slot regions or single copy by size
  numa_leaders,   // the segment with one leader per NUMA node (coll/seg_numa.cpp)
  world_counter,  // MPI_Barrier on MPI_COMM_WORLD: a counter in the arena (coll/barrier.cpp)
  messages,       // point-to-point messages in the call (coll/movement.cpp, reduction.cpp, exchange)
  schedule,       // a message schedule (coll/scheduled.cpp, inter.cpp): run to its end, or started
  // The ways of the flat segment (`segment` chooses one by the segment
  // sizes, SegmentLimits; each can be forced for blocking calls, or named
  // by a rules file (prefer(), Shape::ways_ok); a family
  // has the ones it really has, docs/design/collectives.md "The segment's ways"):
  segment_slot,     // data through the writers' slot regions (scan: each rank folds the posts below it)
  segment_address,  // data read from the writer's buffer by single copy (reductions: by blocks; np 2 reduce: the root reads)
  segment_split,    // by address, two ranks splitting each copy (bcast; scan: every hop of the chain)
  segment_whole,    // reductions: whole vectors through the slots, every reader folding all
  segment_blocks,   // reductions: by blocks through the slots, rank i folding block i
  segment_chunks,   // reductions: by blocks, one slot region's chunk after the other (any size, no single copy)
  segment_chain,    // scan: a chain through the slots, rank i reading rank i - 1's partial result
};
inline constexpr int kAlgos = 14;
// Whether a is one of the segment's ways (counted besides `segment`).
constexpr bool is_way(Algo a) { return a >= Algo::segment_slot; }

const char* family_name(Family f);     // "bcast"
const char* algo_name(Algo a);         // "numa_leaders"
tunables::Id family_tunable(Family f);  // Id::coll_bcast
// The family a RINGMPI_COLL_<FAMILY> tunable sets (family_tunable's inverse).
inline Family family_of(tunables::Id id) {
  return static_cast<Family>(static_cast<int>(id) - static_cast<int>(tunables::Id::coll_barrier));
}
// The algorithm named `name` (as in RINGMPI_COLL_*), or Algo::none.
Algo algo_by_name(const char* name);

// One row of a family's table.
struct Row {
  Family family;
  Algo algo;
  bool blocking;     // runs blocking calls
  bool nonblocking;  // runs nonblocking calls
  const char* where; // one line: what it applies to (docs, --help)
};
// Rows of every family, in the default policy's order of preference.
const Row* rows_begin();
const Row* rows_end();
bool has(Family f, Algo a);

// The rules compiled into the library: lib/coll/default.rules, measured on
// the reference machine with ringmpi-tune and embedded at build time
// (scripts/embed_text.py), parsed once by the parser that reads a user's
// file (tunables/coll_rules.hpp). Empty when that text does not parse
// (compiled_rules_problem() then says why; MPI_Init fails with it).
std::shared_ptr<const std::vector<tunables::CollRule>> compiled_rules();
const std::string& compiled_rules_problem();
// The text itself (the generated default_rules.cpp).
extern const char kDefaultRules[];

// The thresholds of the default policy, each a RINGMPI_* tunable (read
// once per process by thresholds(), the tunables table names and ranges).
struct Thresholds {
  // Two ranks with a core each take messages below these sizes (bytes):
  // one ring entry the receiver polls beats the segment's three lines.
  // These five (pair_*, scan_chain) decide only where they are `given`
  // (set in the environment or through MPI_T); unset, the compiled rules
  // (lib/coll/default.rules, whose bands they were) decide, and the values
  // here are those rules' boundaries, as MPI_T reads them (select_test checks).
  // Measured at np 2 on the 2-core machine (docs/design/collectives.md,
  // "Two ranks"): bcast by messages 3-5x faster than the segment from 4 KiB
  // to 128 KiB, even at 256 KiB; gather and scan 2-3x faster from 4 KiB;
  // alltoall and allgather's segment better from 16 KiB (per block).
  std::size_t pair_bcast = 262144;   // RINGMPI_COLL_PAIR_BCAST
  std::size_t pair_scatter = 2048;   // RINGMPI_COLL_PAIR_SCATTER
  std::size_t pair_other = 8192;     // RINGMPI_COLL_PAIR_MAX (gather, allgather, alltoall, allreduce, scan)
  // MPI_Reduce (issue 36, select.cpp pair_rule): messages faster at 4 and
  // 32 bytes in interleaved runs, undecided from 64.
  std::size_t pair_reduce = 512;     // RINGMPI_COLL_PAIR_REDUCE
  // Blocking message reductions and allgathers from this many bytes run as
  // a schedule by blocks (block_reduction below).
  std::size_t schedule_min = 32768;  // RINGMPI_COLL_SCHEDULE_MIN
  // Oversubscribed scans up to this size take the message chain.
  std::size_t scan_chain = 256;      // RINGMPI_COLL_SCAN_CHAIN_MAX
  // Gather/scatter/alltoall blocks above this go as a schedule (the eager-safe size).
  std::size_t fan_out = 4096;        // RINGMPI_INTERNAL_EAGER_SAFE
  // The segment algorithms' own sizes: a Segment takes them at attach
  // (coll/segment.hpp SegmentLimits), so every member of a communicator
  // runs a segment collective the same way.
  // Two ranks with a core each split a copy from this size (a two-rank
  // bcast, a large scan's hop; as point-to-point's RINGMPI_SPLIT_MIN).
  std::size_t split_min = 65536;             // RINGMPI_COLL_SPLIT_MIN
  // Reductions up to this size fold whole vectors (one round), larger by blocks.
  std::size_t fold_whole = 2048;             // RINGMPI_COLL_FOLD_WHOLE_MAX
  // Blocks from these sizes by address (single copy), with a core per rank.
  std::size_t single_copy_min = 32768;       // RINGMPI_COLL_SINGLE_COPY_MIN
  std::size_t nb_single_copy_min = 16384;    // RINGMPI_COLL_NONBLOCKING_SINGLE_COPY_MIN
  // The message schedules' (coll/scheduled.hpp, read when a schedule is made):
  // reductions from this size by blocks, and small allreduces on 3 to
  // alltoall_reduce_ranks ranks as one all-to-all round.
  std::size_t block_reduction = 32768;       // RINGMPI_COLL_BLOCK_REDUCTION_MIN
  std::size_t alltoall_reduce_ranks = 16;    // RINGMPI_COLL_ALLTOALL_REDUCE_RANKS
  // Which of the thresholds above were set (environment or MPI_T): bit i
  // for kThresholdIds[i]. A given pair_* or scan_chain decides the calls it
  // covers ahead of every rules file (given_decides()).
  std::uint32_t given = 0;
  // The user's rules file's lines (RINGMPI_COLL_RULES, tunables/coll_rules.hpp),
  // none when there is no file, then the compiled rules: in mode 0 the
  // first line of each that matches a call names the algorithm preferred
  // for it, taken when it can run the call (prefer()).
  std::shared_ptr<const std::vector<tunables::CollRule>> rules;
  std::shared_ptr<const std::vector<tunables::CollRule>> compiled = compiled_rules();
};

// One call, as choose() needs it. Every field is the same on every rank of
// the call (the standard's matching rules, the agreed segment), except
// where noted: so every rank makes the same choice, and a forced name that
// cannot run is refused on every rank alike.
struct Shape {
  // The fields up to `count` are what choose() reads (select.cpp: cannot,
  // auto_choice, the rules' matching, given_decides), packed without
  // padding so that a plan's memo of its last choice (coll/plan.hpp
  // Plan::Memo) compares them as five words (memo_key).
  int np = 1;
  bool inter = false;
  bool nonblocking = false;
  bool world = false;       // MPI_COMM_WORLD
  bool segment = false;     // a shared segment is there (blocking: attached now; nonblocking: attached before)
  bool oversubscribed = false;
  bool two_level = false;   // the segment's NUMA groups are worth two levels
  bool groups_contiguous = true;
  bool uniform = true;      // every block's size known to every rank (not a v form)
  bool exclusive = false;   // MPI_Exscan
  // Whether the segment algorithm can hold this call (coll/fits.hpp: the
  // datatype's contiguity, tables that fit a slot region, blocks by
  // address that need single copy, ...). For a nonblocking reduction it
  // depends on in place, which is each rank's own business
  // (docs/design/collectives.md).
  bool fits = false;
  bool numa_fits = false;   // ... and its NUMA-leaders form (small vectors, commutativity)
  // Blocking barrier: the kind (segment or numa_leaders) the communicator's
  // first segment barrier had, none before. A segment keeps one barrier
  // kind for its whole life (coll/segment.hpp: the two count arrivals in
  // the same words).
  Algo barrier_kind = Algo::none;
  // The data: bcast message, reduction vector, the uniform block of
  // scatter/gather/alltoall, allgather's total.
  std::size_t bytes = 0;
  std::size_t pair_bytes = 0;  // np 2: the bytes that move between the two ranks
  long long count = 0;      // reductions: elements
  // (Not read by choose(): coll/fits.cpp's.)
  std::size_t inline_max = 0;  // the segment's largest slot region
  // A forced way of the segment (Algo::segment_*): set by prepare() when the
  // family's setting forces one, so that coll/fits.cpp checks it (only
  // then: the default choice's calls pay nothing for it), which leaves in
  // way_refused why it cannot run this call (nullptr: it can).
  Algo way = Algo::none;
  const char* way_refused = nullptr;
  // A rules file naming a way (mode 0, nothing forced): prepare() sets
  // way_rules to the plan's thresholds when the rules name a way for the
  // family at all; the family's *_fits then asks rule_names_way() and, only
  // when the rule that matches this call names a way, checks every way of
  // the family (ways_checked, ways_ok: bit i for the Algo of value i) from
  // the same shared facts as a forced way, so every rank decides alike.
  const Thresholds* way_rules = nullptr;
  bool ways_checked = false;
  std::uint32_t ways_ok = 0;
};
// The fields choose() reads, as five words without padding (memo_key).
static_assert(sizeof(int) + 12 == offsetof(Shape, bytes) && offsetof(Shape, count) == 32,
              "Shape's first five words are the fields choose() reads");

// RINGMPI_COLL_<FAMILY> as read: a mode of the default policy (0..3) or a
// forced algorithm.
struct Setting {
  int mode = 0;
  Algo forced = Algo::none;
};
// Parses a value of RINGMPI_COLL_<FAMILY>: a number 0..3 or one of the
// family's names ("auto" too); false with *why otherwise.
bool parse_setting(Family f, const char* text, Setting* out, std::string* why);

// The two-rank rule of mode 0: whether the default choice sends a blocking
// call of shape s (np 2, a core each) that the segment could hold to
// messages (or a schedule): by a given RINGMPI_COLL_PAIR_* threshold, else
// by the rules (the user's file, then the compiled ones). Persistent plans
// (coll/persistent_plan.cpp) ask it; s.bytes and s.pair_bytes as the
// blocking call has them.
bool pair_rule(Family f, const Thresholds& t, const Shape& s);
// What mode 0 chooses for the blocking intracommunicator call of shape s
// if the segment could hold it (no NUMA levels): the persistent message
// plans of three or more ranks (coll/persistent_messages.cpp) ask it.
Algo blocking_choice(Family f, const Thresholds& t, const Shape& s);

// The rules of t for one family and one np, in their order, each with the
// algorithm it names resolved (Algo::none for `auto`): what a plan keeps
// per family (coll/plan.hpp), so that a call's choice scans only the lines
// that can match it and compares no names (before: every line of both
// lists and a strcmp per match, a third of a 4-byte call's entry).
struct FamilyRules {
  struct Entry {
    const tunables::CollRule* rule;  // in t.rules or t.compiled, which the plan keeps alive
    Algo algo;
  };
  int np = -1;
  std::vector<Entry> user, compiled;
};
FamilyRules family_rules(Family f, const Thresholds& t, int np);

// The choice for one call: the algorithm, or Algo::none with *why (a
// forced one that cannot run this call). `fr`: t's rules for f at some np,
// used when it is s.np's (the same choice, sooner); else t's are scanned.
Algo choose(Family f, const Setting& set, const Thresholds& t, const Shape& s, const char** why,
            const FamilyRules* fr = nullptr);

// The algorithm the rules in t prefer for call s of family f: the user's
// file's first rule that matches the call, when it names an algorithm that
// can run the call, else the compiled rules' first match, alike; Algo::none
// otherwise (the built-in choice then decides). `auto`, or an algorithm
// that cannot run the call, passes the call to the next level. A rule
// matches by family (exscan: MPI_Exscan only), np, bytes and cores: the
// Shape's bytes where every rank knows them (the plain forms,
// MPI_Allgatherv's total, and at np 2 the v forms of scatter and gather by
// the one moving block), else only a rule for any bytes ("*"); bound or
// oversubscribed as Shape::oversubscribed says. Rules are for blocking
// intracommunicator calls, the calls ringmpi-tune times: nonblocking and
// intercommunicator calls take none.
Algo prefer(Family f, const Thresholds& t, const Shape& s);
// The same from t's rules for f at s.np (family_rules).
Algo prefer(Family f, const FamilyRules& fr, const Shape& s);

// Whether the rules in t (the user's file or the compiled ones) name a way
// of the segment for family f at all (coll/plan.cpp asks once per plan).
bool rules_name_ways(Family f, const Thresholds& t);
// Whether the rule of t that matches call s first (the user's file's, else
// the compiled ones') names a way, so that the way must be checked
// (Shape::ways_ok) before prefer() can take it. Bytes, np and cores as
// prefer() matches them.
bool rule_names_way(Family f, const Thresholds& t, const Shape& s);

// Whether a given threshold (Thresholds::given) decides call s, so that no
// rules are read for it (the environment and MPI_T come first): a
// RINGMPI_COLL_PAIR_* for the blocking calls of its families at np 2 with a
// core each, RINGMPI_COLL_SCAN_CHAIN_MAX for oversubscribed blocking scans.
bool given_decides(Family f, const Thresholds& t, const Shape& s);

// The rules file this process read (its path, "" for none) and, when it
// (or the compiled rules) could not be read or parsed, why in one line
// (MPI_Init fails with it).
const std::string& rules_path();
const std::string& rules_problem();

// What the segment algorithms read of the setting (coll/seg_*.cpp: NUMA
// leaders, the two-rank rule): the mode a forced name stands for.
int effective_mode(const Setting& set);

// The process's settings: read from the environment at first use, changed
// through MPI_T control variables (api/tool_catalogue.cpp), which take
// effect for the plans resolved afterwards.
Setting setting(Family f);
// effective_mode(setting(f)) without a lock (the seg_* hot paths ask it).
int mode_now(Family f);
void set_setting(Family f, const Setting& s);
const Thresholds& thresholds();
void set_threshold(int index, std::size_t value);  // index into kThresholdIds
std::size_t threshold(int index);
inline constexpr int kThresholds = 12;
extern const std::array<tunables::Id, kThresholds> kThresholdIds;
// A counter that moves whenever a setting or threshold changes (inline:
// every collective compares its plan's with it, coll/plan.hpp plan_of).
extern std::atomic<std::uint64_t> g_settings_generation;
inline std::uint64_t settings_generation() { return g_settings_generation.load(std::memory_order_acquire); }

// Process-wide count of calls per family and algorithm (MPIX_Query_counter
// "coll_<family>_<algo>"); count_total adds one (coll/plan.cpp).
std::uint64_t total_calls(Family f, Algo a);
extern std::array<std::atomic<std::uint64_t>, kFamilies * kAlgos> g_call_totals;
inline void count_total(Family f, Algo a) {
  g_call_totals[static_cast<std::size_t>(f) * kAlgos + static_cast<std::size_t>(a)].fetch_add(
      1, std::memory_order_relaxed);
}

}  // namespace ringmpi::coll
