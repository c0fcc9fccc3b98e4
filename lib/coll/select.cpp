// The algorithm tables and the default policy (coll/select.hpp).
#include "coll/select.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ringmpi::coll {
namespace {

constexpr const char* kFamilyNames[kFamilies] = {"barrier",   "bcast",  "scatter",   "gather",         "allgather",
                                                 "alltoall",  "reduce", "allreduce", "reduce_scatter", "scan",
                                                 "neighbor"};
constexpr const char* kAlgoNames[kAlgos] = {
    "none",          "local",          "segment",        "numa_leaders",    "world_counter",
    "messages",      "schedule",       "segment_slot",   "segment_address", "segment_split",
    "segment_whole", "segment_blocks", "segment_chunks", "segment_chain"};

// The tables, family by family, each in the default policy's order.
constexpr Row kRows[] = {
    {Family::barrier, Algo::local, true, false, "a communicator of one rank"},
    {Family::barrier, Algo::numa_leaders, true, false, "the segment, NUMA groups worth two levels"},
    {Family::barrier, Algo::segment, true, true, "an intracommunicator with a shared segment"},
    {Family::barrier, Algo::world_counter, true, false, "MPI_COMM_WORLD"},
    {Family::barrier, Algo::messages, true, false, "any communicator (dissemination over messages)"},
    {Family::barrier, Algo::schedule, false, true, "nonblocking, any communicator"},

    {Family::bcast, Algo::numa_leaders, true, false, "the segment, NUMA groups worth two levels"},
    {Family::bcast, Algo::segment, true, true,
     "up to a slot region, or larger with single copy; nonblocking up to a slot region"},
    {Family::bcast, Algo::segment_slot, true, false, "the message fits a slot region: the root's copy in, each reader's copy out"},
    {Family::bcast, Algo::segment_address, true, false, "single copy: every reader reads the root's buffer"},
    {Family::bcast, Algo::segment_split, true, false,
     "two ranks, single copy: the reader reads the first half while the root writes the second"},
    {Family::bcast, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::bcast, Algo::schedule, true, true, "any call (intercommunicators, nonblocking)"},

    {Family::scatter, Algo::segment, true, true, "its table fits a slot region; blocks by single copy or fitting"},
    {Family::scatter, Algo::segment_slot, true, false,
     "MPI_Scatter whose table and blocks fit the root's slot region"},
    {Family::scatter, Algo::segment_address, true, false, "single copy: each rank reads its block from the root's buffer"},
    {Family::scatter, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::scatter, Algo::schedule, true, true, "any call; by default blocks above the eager-safe size"},

    {Family::gather, Algo::segment, true, true, "single copy, or blocks that fit a slot region"},
    {Family::gather, Algo::segment_slot, true, false, "MPI_Gather whose block fits a slot region"},
    {Family::gather, Algo::segment_address, true, false,
     "single copy: the root reads each block (or the member writes it into the root's buffer)"},
    {Family::gather, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::gather, Algo::schedule, true, true, "any call; by default blocks above the eager-safe size"},

    {Family::allgather, Algo::segment, true, true, "blocks by single copy or fitting a slot region"},
    {Family::allgather, Algo::segment_slot, true, false, "every block fits a slot region"},
    {Family::allgather, Algo::segment_address, true, false, "single copy: each rank reads every block from its owner"},
    {Family::allgather, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::allgather, Algo::schedule, true, true, "any call; by default from RINGMPI_COLL_SCHEDULE_MIN bytes"},

    {Family::alltoall, Algo::segment, true, true, "its table fits a slot region; blocks by single copy or fitting"},
    {Family::alltoall, Algo::segment_slot, true, false,
     "MPI_Alltoall whose table and blocks fit each rank's slot region"},
    {Family::alltoall, Algo::segment_address, true, false, "single copy: each rank reads its blocks from their owners"},
    {Family::alltoall, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::alltoall, Algo::schedule, true, true, "any call; by default blocks above the eager-safe size"},

    {Family::reduce, Algo::numa_leaders, true, false,
     "the segment, NUMA groups worth two levels, small vectors, commutative op or contiguous groups"},
    {Family::reduce, Algo::segment, true, true, "contiguous datatypes; nonblocking: small vectors"},
    {Family::reduce, Algo::segment_whole, true, false, "contiguous vectors that fit a slot region: one round"},
    {Family::reduce, Algo::segment_blocks, true, false, "contiguous vectors that fit a slot region: rank i folds block i"},
    {Family::reduce, Algo::segment_address, true, false,
     "contiguous vectors, single copy: by blocks read from their owners (two ranks: the root reads the other vector)"},
    {Family::reduce, Algo::segment_chunks, true, false, "contiguous vectors of any size: by blocks, a slot region at a time"},
    {Family::reduce, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::reduce, Algo::schedule, true, true, "any call; by default from RINGMPI_COLL_SCHEDULE_MIN bytes"},

    {Family::allreduce, Algo::numa_leaders, true, false,
     "the segment, NUMA groups worth two levels, small vectors, commutative op or contiguous groups"},
    {Family::allreduce, Algo::segment, true, true, "contiguous datatypes; nonblocking: small vectors"},
    {Family::allreduce, Algo::segment_whole, true, false, "contiguous vectors that fit a slot region: one round"},
    {Family::allreduce, Algo::segment_blocks, true, false,
     "contiguous vectors that fit a slot region: rank i folds block i"},
    {Family::allreduce, Algo::segment_address, true, false,
     "contiguous vectors, single copy: by blocks read from their owners"},
    {Family::allreduce, Algo::segment_chunks, true, false,
     "contiguous vectors of any size: by blocks, a slot region at a time"},
    {Family::allreduce, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::allreduce, Algo::schedule, true, true, "any call; by default from RINGMPI_COLL_SCHEDULE_MIN bytes"},

    {Family::reduce_scatter, Algo::segment, true, true, "contiguous datatypes; nonblocking: small vectors"},
    {Family::reduce_scatter, Algo::segment_blocks, true, false,
     "contiguous vectors that fit a slot region: rank i folds its block"},
    {Family::reduce_scatter, Algo::segment_address, true, false,
     "contiguous vectors, single copy: each rank reads its block of every vector"},
    {Family::reduce_scatter, Algo::messages, true, false, "blocking intracommunicator calls"},
    {Family::reduce_scatter, Algo::schedule, true, true,
     "any call; by default from RINGMPI_COLL_SCHEDULE_MIN bytes"},

    {Family::scan, Algo::segment, true, true, "contiguous datatypes that fit (or single copy)"},
    {Family::scan, Algo::segment_slot, true, false,
     "contiguous vectors that fit a slot region: rank i folds the posts of ranks 0..i"},
    {Family::scan, Algo::segment_chain, true, false,
     "contiguous vectors that fit a slot region: rank i reads rank i - 1's partial result"},
    {Family::scan, Algo::segment_address, true, false,
     "contiguous vectors, single copy: a chain, rank i reading rank i - 1's partial result"},
    {Family::scan, Algo::segment_split, true, false,
     "contiguous vectors, single copy: the chain, each hop's copy split between its two ranks"},
    {Family::scan, Algo::messages, true, false, "blocking calls"},
    {Family::scan, Algo::schedule, false, true, "nonblocking calls"},

    {Family::neighbor, Algo::local, true, false, "a communicator of one rank: each block copied"},
    {Family::neighbor, Algo::segment, true, true, "single copy, the topology's widest table fits a slot region"},
    {Family::neighbor, Algo::schedule, true, true, "any call (messages to and from the neighbours)"},
};

constexpr int kRowCount = static_cast<int>(sizeof kRows / sizeof kRows[0]);

// Row index by family and algorithm (-1: none), built at compile time: the
// choice looks rows up on every call.
struct RowIndex {
  int at[kFamilies][kAlgos];
  constexpr RowIndex() : at{} {
    for (auto& f : at)
      for (int& a : f) a = -1;
    for (int i = 0; i < kRowCount; ++i)
      at[static_cast<int>(kRows[i].family)][static_cast<int>(kRows[i].algo)] = i;
  }
};
constexpr RowIndex kIndex;

const Row* find(Family f, Algo a) {
  const int i = kIndex.at[static_cast<int>(f)][static_cast<int>(a)];
  return i < 0 ? nullptr : &kRows[i];
}

// Why a call does not fit the segment (coll/fits.hpp), by family.
const char* misfit(Family f, bool nonblocking) {
  switch (f) {
    case Family::bcast:
      return nonblocking ? "the call does not fit the segment: the nonblocking form takes messages up to a slot region"
                         : "the call does not fit the segment: larger than a slot region, and single copy is refused";
    case Family::scatter:
    case Family::gather:
    case Family::alltoall:
      return "the call does not fit the segment: its table of blocks, or its blocks without single copy, exceed a "
             "slot region";
    case Family::allgather:
      return "the call does not fit the segment: a block larger than a slot region needs single copy, which is refused";
    case Family::reduce:
    case Family::allreduce:
    case Family::reduce_scatter:
    case Family::scan:
      return nonblocking ? "the call does not fit the segment: nonblocking reductions take contiguous vectors up to a "
                           "slot region (reduce, allreduce, reduce_scatter beyond two ranks: up to 2 KiB)"
                         : "the call does not fit the segment: the datatype is not contiguous, or the vector exceeds a "
                           "slot region and single copy is refused";
    case Family::neighbor:
      return "the call does not fit the segment: it needs single copy and the topology's widest table to fit a slot "
             "region";
    case Family::barrier: break;
  }
  return "the call does not fit the segment";
}

// Why algorithm a cannot run call s of family f, or nullptr when it can.
// Only what it needs to run correctly: the default policy's preferences
// (thresholds, modes) are in auto_choice.
const char* cannot(Family f, Algo a, const Shape& s) {
  const Row* row = find(f, a);
  if (!row) return "the family has no algorithm of that name";
  if (s.nonblocking && !row->nonblocking) return "it has no nonblocking form";
  if (!s.nonblocking && !row->blocking) return "it has no blocking form";
  switch (a) {
    case Algo::none: return "no algorithm";
    case Algo::local:
      return s.inter || s.np != 1 ? "the communicator has more than one rank" : nullptr;
    case Algo::world_counter: return s.world ? nullptr : "the communicator is not MPI_COMM_WORLD";
    case Algo::messages:
      if (s.inter && f != Family::barrier) return "intercommunicator calls run as schedules";
      return nullptr;
    case Algo::schedule: return nullptr;
    case Algo::segment:
    case Algo::numa_leaders:
    case Algo::segment_slot:
    case Algo::segment_address:
    case Algo::segment_split:
    case Algo::segment_whole:
    case Algo::segment_blocks:
    case Algo::segment_chunks:
    case Algo::segment_chain:
      if (s.inter) return "an intercommunicator has no shared segment";
      if (s.np < 2) return "a communicator of one rank has no shared segment";
      if (!s.segment)
        return s.nonblocking ? "the communicator's segment is not attached (no blocking collective ran on it yet, "
                               "or no segment was free, or mpiexec --check)"
                             : "the communicator has no shared segment (none was free)";
      // A way of the segment: what coll/fits.cpp found when it was forced,
      // or when a rule named it (every way of the family then checked).
      if (is_way(a)) {
        if (s.way == a) return s.way_refused;
        if (!s.ways_checked) return "the way was not checked for this call";
        return (s.ways_ok >> static_cast<unsigned>(a)) & 1u ? nullptr : "the way cannot run this call";
      }
      if (!s.fits) return misfit(f, s.nonblocking);
      if (a == Algo::numa_leaders) {
        if (!s.two_level) return "the members' NUMA nodes are not worth two levels (one node, or one rank a node)";
        if (!s.numa_fits) return "the call is too large for the NUMA-leaders form, or its op does not commute";
      }
      if (f == Family::barrier && !s.nonblocking && s.barrier_kind != Algo::none && a != s.barrier_kind)
        return a == Algo::segment ? "the communicator's segment barriers are numa_leaders for its whole life "
                                    "(its first barrier's kind)"
                                  : "the communicator's segment barriers are flat (segment) for its whole life "
                                    "(its first barrier's kind)";
      return nullptr;
  }
  return "no algorithm";
}

}  // namespace

// Whether the blocking form of `family` (bcast, scatter, gather, allgather,
// alltoall, allreduce, scan) with `bytes` per block leaves the segment for
// messages although it could run there: two ranks, each with a core, and
// little data (below the RINGMPI_COLL_PAIR_* thresholds), in mode 0. There a
// message is one ring entry that the receiver polls directly, one
// cache-line transfer for header and data, where the segment moves the
// posted word, the data and the done word. Measured with bench/coll at
// np = 2 (us, segment / messages): bcast 4 B 0.23 / 0.11, 4 KiB 0.70 /
// 0.64, 16 KiB 2.5 / 2.1, 64 KiB 8.9 / 8.9; scatter 4 B 0.19 / 0.14,
// 1 KiB 0.37 / 0.29, 4 KiB 0.72 / 0.71; allgather 64 B 0.22 / 0.19, 1 KiB
// 0.33 / 0.36; alltoall 64 B 0.29 / 0.23; allreduce 64 B 0.23 / 0.18;
// scan 64 B 0.17 / 0.13, 1 KiB 0.22 / 0.30. Scatter takes messages below
// 2 KiB blocks (1 KiB ones included, as those figures say), and the v forms of scatter
// and gather decide as the plain ones: with two ranks both know the one
// block that moves. Measured again for that (best of 4-6 alternating runs
// on a loaded machine, so slower than above): scatter 1 KiB 1.18 / 0.95,
// scatterv 256 B 0.73 / 0.44, 1 KiB 1.16 / 0.93; at 2 KiB the runs
// disagreed (scatter 1.50 / 1.23 and 1.52 / 1.49, scatterv 1.60 / 1.04
// and 1.20 / 1.42). Exscan and reduce_scatter were as fast or faster on
// the segment at every size, and so stay there; so did reduce then, but
// measured again in both modes of bench/coll (issue 36; rotating root back
// to back and fixed root, alternating runs): forced messages against the
// segment, 4 B 0.26-0.50 us against 0.38-0.84 in 8 of 8 pairs; then the
// default with this rule against main's build, 4 B better in 11 of 14
// pairs, 32 B in 7 of 8, 64 B in 7 of 14 (undecided), 128 B and 512 B
// undecided: reduce takes messages below RINGMPI_COLL_PAIR_REDUCE (64)
// bytes. Those bands became lines of lib/coll/default.rules (compiled in,
// since retuned where two ringmpi-tune runs agreed); the thresholds decide
// only where they are given (given_decides).
namespace {

bool pair_threshold(Family f, const Thresholds& t, const Shape& s) {
  if (s.np != 2 || s.oversubscribed) return false;
  switch (f) {
    case Family::bcast: return s.pair_bytes < t.pair_bcast;
    case Family::scatter: return s.pair_bytes < t.pair_scatter;
    case Family::gather:
    case Family::allgather:
    case Family::allreduce: return s.pair_bytes < t.pair_other;
    case Family::alltoall: return s.pair_bytes < t.pair_other;
    case Family::scan: return !s.exclusive && s.pair_bytes < t.pair_other;
    case Family::reduce: return s.pair_bytes < t.pair_reduce;
    default: return false;
  }
}

bool given(const Thresholds& t, int index) { return (t.given >> index & 1u) != 0; }

// The index (kThresholdIds) of the two-rank threshold of a family, or -1.
int pair_index(Family f) {
  switch (f) {
    case Family::bcast: return 0;
    case Family::scatter: return 1;
    case Family::gather:
    case Family::allgather:
    case Family::alltoall:
    case Family::allreduce:
    case Family::scan: return 2;
    case Family::reduce: return 5;
    default: return -1;
  }
}
constexpr int kScanChainIndex = 4;

bool pair_given(Family f, const Thresholds& t) { return pair_index(f) >= 0 && given(t, pair_index(f)); }

// The message algorithm of a blocking intracommunicator call, or the
// schedule where the size every rank knows says so.
Algo messages_or_schedule(Family f, const Thresholds& t, const Shape& s) {
  switch (f) {
    case Family::scatter:
    case Family::gather:
    case Family::alltoall: return s.uniform && s.bytes > t.fan_out ? Algo::schedule : Algo::messages;
    case Family::allgather: return s.np > 1 && s.bytes >= t.schedule_min ? Algo::schedule : Algo::messages;
    case Family::reduce:
    case Family::allreduce:
    case Family::reduce_scatter:
      // reduce_by_blocks: at least a block per rank, and large.
      return s.np > 1 && s.count >= s.np && s.bytes >= t.schedule_min
                 ? Algo::schedule
                 : Algo::messages;
    default: return Algo::messages;
  }
}

Algo auto_choice(Family f, int mode, const Thresholds& t, const Shape& s) {
  if ((f == Family::barrier || f == Family::neighbor) && !s.nonblocking && !s.inter && s.np == 1) return Algo::local;
  if (f == Family::neighbor) return mode != 2 && !cannot(f, Algo::segment, s) ? Algo::segment : Algo::schedule;
  if (s.inter) return f == Family::barrier && !s.nonblocking ? Algo::messages : Algo::schedule;
  if (s.nonblocking) return mode != 2 && !cannot(f, Algo::segment, s) ? Algo::segment : Algo::schedule;
  bool segment = mode != 2 && !cannot(f, Algo::segment, s);
  // The two-rank rule and the scan chain by their thresholds where those
  // are given; otherwise the rules (prefer(), before this) hold them.
  if (segment && mode == 0 && pair_given(f, t) && pair_threshold(f, t, s)) segment = false;
  if (segment && f == Family::scan && mode == 0 && given(t, kScanChainIndex) && s.oversubscribed &&
      s.bytes <= t.scan_chain)
    segment = false;
  if (segment && f == Family::barrier && s.barrier_kind != Algo::none) return s.barrier_kind;
  if (segment) {
    // NUMA leaders where the family has them and the call takes them (the
    // segment algorithms ask for them themselves, seg_numa.cpp two_level).
    const bool leaders = mode != 1 && has(f, Algo::numa_leaders) && s.two_level && s.numa_fits &&
                         (f == Family::barrier || s.bytes != 0);
    return leaders ? Algo::numa_leaders : Algo::segment;
  }
  if (f == Family::barrier) return s.world ? Algo::world_counter : Algo::messages;
  return messages_or_schedule(f, t, s);
}

bool in_band(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) { return v >= lo && v <= hi; }

// The process's settings (RINGMPI_COLL_*, then MPI_T writes).
struct Settings {
  std::string rules_path;
  std::string rules_problem;
  std::mutex lock;
  bool read = false;
  std::array<Setting, kFamilies> families{};
  std::array<std::atomic<int>, kFamilies> modes{};  // effective_mode of each, for mode_now
  Thresholds limits{};
};
Settings& settings() {
  static Settings* s = new Settings;  // never destroyed: read by exit-time reports
  return *s;
}

std::size_t* limit_field(Thresholds& t, int index) {
  switch (index) {
    case 0: return &t.pair_bcast;
    case 1: return &t.pair_scatter;
    case 2: return &t.pair_other;
    case 3: return &t.schedule_min;
    case 4: return &t.scan_chain;
    case 5: return &t.pair_reduce;
    case 6: return &t.split_min;
    case 7: return &t.fold_whole;
    case 8: return &t.single_copy_min;
    case 9: return &t.nb_single_copy_min;
    case 10: return &t.block_reduction;
    default: return &t.alltoall_reduce_ranks;
  }
}

void read_environment(Settings& s) {
  if (s.read) return;
  s.read = true;
  for (int i = 0; i < kFamilies; ++i) {
    const auto f = static_cast<Family>(i);
    const char* text = std::getenv(tunables::spec(family_tunable(f)).name);
    Setting set;
    std::string why;
    // mpiexec refuses a bad value before the job starts; a program run
    // without it gets the default for one (as for every tunable).
    if (text && *text && parse_setting(f, text, &set, &why)) s.families[static_cast<std::size_t>(i)] = set;
    s.modes[static_cast<std::size_t>(i)].store(effective_mode(s.families[static_cast<std::size_t>(i)]));
  }
  for (int i = 0; i < kThresholds; ++i) {
    std::size_t* field = limit_field(s.limits, i);
    const tunables::Id id = kThresholdIds[static_cast<std::size_t>(i)];
    *field = static_cast<std::size_t>(tunables::value(id, *field));
    if (tunables::is_set(id)) s.limits.given |= 1u << i;
  }
  s.limits.fan_out = static_cast<std::size_t>(tunables::value(tunables::Id::internal_eager_safe, 4096));
  // Every rank reads the same file (mpiexec checked it before the job
  // started), so the rules, like the tunables, are the same everywhere.
  s.rules_path = tunables::coll_rules_path([](const char* n) { return std::getenv(n); });
  if (!s.rules_path.empty()) {
    auto rules = std::make_shared<std::vector<tunables::CollRule>>();
    if (tunables::load_coll_rules(s.rules_path, rules.get(), &s.rules_problem))
      s.limits.rules = std::move(rules);
  }
  if (s.rules_problem.empty()) s.rules_problem = compiled_rules_problem();
}

struct Compiled {
  std::shared_ptr<const std::vector<tunables::CollRule>> rules;
  std::string problem;
};
const Compiled& compiled() {
  static const Compiled* c = [] {
    auto* out = new Compiled;  // never destroyed: plans copy the rules until exit
    auto rules = std::make_shared<std::vector<tunables::CollRule>>();
    if (tunables::parse_coll_rules(kDefaultRules, rules.get(), &out->problem))
      out->rules = std::move(rules);
    else
      out->problem = "the compiled-in collective rules (lib/coll/default.rules), " + out->problem;
    return out;
  }();
  return *c;
}


}  // namespace

const std::array<tunables::Id, kThresholds> kThresholdIds{tunables::Id::coll_pair_bcast,
                                                          tunables::Id::coll_pair_scatter, tunables::Id::coll_pair_max,
                                                          tunables::Id::coll_schedule_min,
                                                          tunables::Id::coll_scan_chain_max,
                                                          tunables::Id::coll_pair_reduce,
                                                          tunables::Id::coll_split_min,
                                                          tunables::Id::coll_fold_whole_max,
                                                          tunables::Id::coll_single_copy_min,
                                                          tunables::Id::coll_nonblocking_single_copy_min,
                                                          tunables::Id::coll_block_reduction_min,
                                                          tunables::Id::coll_alltoall_reduce_ranks};

const char* family_name(Family f) { return kFamilyNames[static_cast<std::size_t>(f)]; }
const char* algo_name(Algo a) { return kAlgoNames[static_cast<std::size_t>(a)]; }
tunables::Id family_tunable(Family f) {
  return static_cast<tunables::Id>(static_cast<int>(tunables::Id::coll_barrier) + static_cast<int>(f));
}
static_assert(static_cast<int>(tunables::Id::coll_neighbor) - static_cast<int>(tunables::Id::coll_barrier) + 1 ==
                  kFamilies,
              "the RINGMPI_COLL_<FAMILY> tunables follow Family's order");

Algo algo_by_name(const char* name) {
  for (int i = 1; i < kAlgos; ++i)
    if (std::strcmp(name, kAlgoNames[i]) == 0) return static_cast<Algo>(i);
  return Algo::none;
}

const Row* rows_begin() { return kRows; }
const Row* rows_end() { return kRows + kRowCount; }
bool has(Family f, Algo a) { return find(f, a) != nullptr; }

bool parse_setting(Family f, const char* text, Setting* out, std::string* why) {
  const char* var = tunables::spec(family_tunable(f)).name;
  if (text && text[0] >= '0' && text[0] <= '3' && text[1] == '\0') {
    *out = Setting{text[0] - '0', Algo::none};
    return true;
  }
  if (text && std::strcmp(text, "auto") == 0) {
    *out = Setting{};
    return true;
  }
  const Algo a = text ? algo_by_name(text) : Algo::none;
  if (a != Algo::none && has(f, a)) {
    *out = Setting{0, a};
    return true;
  }
  *why = std::string(var) + "='" + (text ? text : "") + "' is not 0..3, auto";
  for (const Row* r = rows_begin(); r != rows_end(); ++r)
    if (r->family == f) *why += std::string(", ") + algo_name(r->algo);
  return false;
}

int effective_mode(const Setting& set) {
  switch (set.forced) {
    case Algo::none: return set.mode;
    case Algo::segment:
    case Algo::segment_slot:
    case Algo::segment_address:
    case Algo::segment_split:
    case Algo::segment_whole:
    case Algo::segment_blocks:
    case Algo::segment_chunks:
    case Algo::segment_chain: return 1;  // the flat segment: no NUMA leaders, no two-rank rule
    case Algo::numa_leaders: return 3;
    case Algo::messages:
    case Algo::schedule:
    case Algo::world_counter: return 2;
    case Algo::local: return 0;
  }
  return set.mode;
}

namespace {

// The bytes every rank of the call knows alike (Shape's comments), if any.
struct KnownBytes {
  bool known;
  std::uint64_t bytes;
};
KnownBytes known_bytes(Family f, const Shape& s) {
  if (s.uniform || f == Family::allgather) return {true, s.bytes};
  // Two ranks both know the one block a scatterv or gatherv moves, and the
  // larger of the two an alltoallv exchanges (each rank's send is the
  // other's receive).
  if (s.np == 2 && (f == Family::scatter || f == Family::gather || f == Family::alltoall)) return {true, s.pair_bytes};
  return {false, s.bytes};
}

// Whether rule r, of family f and s.np's band, matches call s otherwise.
bool matches_call(const tunables::CollRule& r, const Shape& s, KnownBytes k) {
  if (r.exscan && !s.exclusive) return false;
  if (r.cores == tunables::CollCores::bound && s.oversubscribed) return false;
  if (r.cores == tunables::CollCores::oversubscribed && !s.oversubscribed) return false;
  return r.any_bytes || (k.known && in_band(k.bytes, r.bytes_lo, r.bytes_hi));
}

// The first rule of `rules` that matches call s, or nullptr.
const tunables::CollRule* matching(const std::vector<tunables::CollRule>& rules, Family f, const Shape& s) {
  const KnownBytes k = known_bytes(f, s);
  for (const tunables::CollRule& r : rules) {
    if (r.family != static_cast<int>(f) || !in_band(static_cast<std::uint64_t>(s.np), r.np_lo, r.np_hi)) continue;
    if (matches_call(r, s, k)) return &r;
  }
  return nullptr;
}

// The same over a family's rules of one np (FamilyRules): the first that
// matches decides, as in first_match().
Algo first_match(const std::vector<FamilyRules::Entry>& rules, Family f, const Shape& s) {
  const KnownBytes k = known_bytes(f, s);
  for (const FamilyRules::Entry& e : rules)
    if (matches_call(*e.rule, s, k)) return e.algo != Algo::none && !cannot(f, e.algo, s) ? e.algo : Algo::none;
  return Algo::none;
}

// The first rule of `rules` that matches call s decides: its algorithm when
// that can run the call; Algo::none when no rule matches, or the first says
// `auto`, or names an algorithm that cannot run the call (a rule is a
// preference: the next level decides).
Algo first_match(const std::vector<tunables::CollRule>& rules, Family f, const Shape& s) {
  const tunables::CollRule* r = matching(rules, f, s);
  if (!r) return Algo::none;
  const Algo a = algo_by_name(r->algorithm.c_str());
  return a != Algo::none && !cannot(f, a, s) ? a : Algo::none;
}

bool names_way(const tunables::CollRule* r) { return r && is_way(algo_by_name(r->algorithm.c_str())); }

bool any_way(const std::vector<tunables::CollRule>* rules, Family f) {
  if (rules)
    for (const tunables::CollRule& r : *rules)
      if (r.family == static_cast<int>(f) && names_way(&r)) return true;
  return false;
}

}  // namespace

bool rules_name_ways(Family f, const Thresholds& t) {
  return any_way(t.rules.get(), f) || any_way(t.compiled.get(), f);
}

bool rule_names_way(Family f, const Thresholds& t, const Shape& s) {
  if (s.inter || s.nonblocking) return false;
  return (t.rules && names_way(matching(*t.rules, f, s))) || (t.compiled && names_way(matching(*t.compiled, f, s)));
}

Algo prefer(Family f, const Thresholds& t, const Shape& s) {
  // Rules are for blocking intracommunicator calls (what ringmpi-tune times).
  if (s.inter || s.nonblocking) return Algo::none;
  if (t.rules)
    if (const Algo a = first_match(*t.rules, f, s); a != Algo::none) return a;
  if (t.compiled)
    if (const Algo a = first_match(*t.compiled, f, s); a != Algo::none) return a;
  return Algo::none;
}

FamilyRules family_rules(Family f, const Thresholds& t, int np) {
  FamilyRules out;
  out.np = np;
  const auto pick = [&](const std::vector<tunables::CollRule>* rules, std::vector<FamilyRules::Entry>* to) {
    if (!rules) return;
    for (const tunables::CollRule& r : *rules)
      if (r.family == static_cast<int>(f) && in_band(static_cast<std::uint64_t>(np), r.np_lo, r.np_hi))
        to->push_back({&r, algo_by_name(r.algorithm.c_str())});
  };
  pick(t.rules.get(), &out.user);
  pick(t.compiled.get(), &out.compiled);
  return out;
}

Algo prefer(Family f, const FamilyRules& fr, const Shape& s) {
  if (s.inter || s.nonblocking) return Algo::none;
  if (const Algo a = first_match(fr.user, f, s); a != Algo::none) return a;
  return first_match(fr.compiled, f, s);
}

bool given_decides(Family f, const Thresholds& t, const Shape& s) {
  if (s.inter || s.nonblocking) return false;
  if (f == Family::scan && s.oversubscribed && given(t, kScanChainIndex)) return true;
  if (s.np != 2 || s.oversubscribed || !pair_given(f, t)) return false;
  if (f == Family::scan) return !s.exclusive;
  return true;
}

Algo blocking_choice(Family f, const Thresholds& t, const Shape& s) {
  // The blocking call as the segment could run it: does mode 0 leave it?
  Shape b = s;
  b.inter = b.nonblocking = false;
  b.segment = b.fits = true;
  b.two_level = b.numa_fits = false;
  const char* why = nullptr;
  return choose(f, Setting{}, t, b, &why);
}

bool pair_rule(Family f, const Thresholds& t, const Shape& s) {
  if (s.np != 2 || s.oversubscribed) return false;
  const Algo a = blocking_choice(f, t, s);
  return a == Algo::messages || a == Algo::schedule;
}

Algo choose(Family f, const Setting& set, const Thresholds& t, const Shape& s, const char** why,
            const FamilyRules* fr) {
  if (set.forced != Algo::none) {
    *why = cannot(f, set.forced, s);
    return *why ? Algo::none : set.forced;
  }
  *why = nullptr;
  // Mode 0: a given threshold, else the rules (the user's, the compiled
  // ones), else the built-in choice.
  if (set.mode == 0 && !given_decides(f, t, s)) {
    const Algo a = fr && fr->np == s.np ? prefer(f, *fr, s) : prefer(f, t, s);
    if (a != Algo::none) return a;
  }
  return auto_choice(f, set.mode, t, s);
}

std::shared_ptr<const std::vector<tunables::CollRule>> compiled_rules() { return compiled().rules; }
const std::string& compiled_rules_problem() { return compiled().problem; }

const std::string& rules_path() {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  return s.rules_path;
}

const std::string& rules_problem() {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  return s.rules_problem;
}

Setting setting(Family f) {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  return s.families[static_cast<std::size_t>(f)];
}

void set_setting(Family f, const Setting& set) {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  s.families[static_cast<std::size_t>(f)] = set;
  s.modes[static_cast<std::size_t>(f)].store(effective_mode(set));
  g_settings_generation.fetch_add(1, std::memory_order_release);
}

int mode_now(Family f) {
  static const bool ready = (static_cast<void>(setting(f)), true);  // the environment read once
  static_cast<void>(ready);
  return settings().modes[static_cast<std::size_t>(f)].load(std::memory_order_relaxed);
}

const Thresholds& thresholds() {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  return s.limits;
}

std::size_t threshold(int index) {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  return *limit_field(s.limits, index);
}

void set_threshold(int index, std::size_t value) {
  Settings& s = settings();
  std::lock_guard<std::mutex> g(s.lock);
  read_environment(s);
  *limit_field(s.limits, index) = value;
  s.limits.given |= 1u << index;
  g_settings_generation.fetch_add(1, std::memory_order_release);
}

std::atomic<std::uint64_t> g_settings_generation{1};

std::array<std::atomic<std::uint64_t>, kFamilies * kAlgos> g_call_totals{};

std::uint64_t total_calls(Family f, Algo a) {
  return g_call_totals[static_cast<std::size_t>(f) * kAlgos + static_cast<std::size_t>(a)].load(
      std::memory_order_relaxed);
}

}  // namespace ringmpi::coll
