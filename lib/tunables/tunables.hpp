// Every RINGMPI_* environment variable a user may set, in one table: its
// range, its default and what it changes. mpiexec checks them all before it
// starts a job (a bad value stops it with a message naming the variable and
// its range) and lists them in --help; the library reads them through
// value(), which clamps into range, so a program started without mpiexec
// cannot get an unsafe value either. The bounds that other layers' safety
// arguments rest on are constants here, tied together by static_assert where
// the argument lives (p2p/init.cpp: a ring of kMinRingBytes holds an
// eager record of kMinEagerLimit bytes).
//
// Variables that are not tunables (the launcher's RINGMPI_ARENA_FD,
// RINGMPI_RANK, RINGMPI_SIZE for its ranks, RINGMPI_VERSION from
// MPI_Get_library_version) are not in the table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ringmpi::tunables {

// Messages up to this size always go eagerly: a send of that size completes
// without its receiver, which the library's own collectives rely on
// (exchange/exchange.hpp: their send-before-receive steps stay below it).
inline constexpr std::uint64_t kMinEagerLimit = 4096;
// Accepted ring capacities (bytes per ordered rank pair, a power of two).
inline constexpr std::uint64_t kMinRingBytes = 16384;
inline constexpr std::uint64_t kMaxRingBytes = std::uint64_t{1} << 30;

enum class Id : int {
  ring_bytes,
  eager_limit,
  split_min,
  chunk,
  internal_eager_safe,
  yield_us,
  force_copy_fallback,
  launcher_poll,
  // One per collective family (lib/coll/select.hpp, in its Family order):
  // an algorithm's name forces it; the old numbers stay modes of the
  // default choice: 0 chooses, 1 prefers the flat shared-segment
  // algorithms, 2 the message-passing ones, 3 the segment with NUMA
  // leaders (barrier, bcast, small reduce/allreduce).
  coll_barrier,
  coll_bcast,
  coll_scatter,
  coll_gather,
  coll_allgather,
  coll_alltoall,
  coll_reduce,
  coll_allreduce,
  coll_reduce_scatter,
  coll_scan,
  coll_neighbor,
  // The default choice's thresholds (lib/coll/select.hpp Thresholds).
  coll_pair_bcast,
  coll_pair_scatter,
  coll_pair_max,
  coll_pair_reduce,
  coll_schedule_min,
  coll_scan_chain_max,
  // The segment and schedule algorithms' own sizes (lib/coll/select.hpp
  // Thresholds, read by a segment at attach and a schedule when made).
  coll_split_min,
  coll_fold_whole_max,
  coll_single_copy_min,
  coll_nonblocking_single_copy_min,
  coll_block_reduction_min,
  coll_alltoall_reduce_ranks,
  rndv_min,  // issue 36: mid-size blocking sends offered as rendezvous first (p2p/send.cpp)
};
inline constexpr int kCount = 32;

struct Spec {
  Id id;
  const char* name;     // the environment variable
  std::uint64_t min;    // accepted range, inclusive
  std::uint64_t max;
  bool power_of_two;    // values must also be powers of two
  const char* fallback; // the default, in words (some depend on the job)
  const char* meaning;  // one line for --help and ringmpi(7)
};

const Spec& spec(Id id);
inline const Spec& spec(int i) { return spec(static_cast<Id>(i)); }

// Parses a value for `id`; false with *why ("... is not a power of two
// between 16384 and 1073741824") when it is not acceptable.
bool parse(Id id, const char* text, std::uint64_t* out, std::string* why);

// The environment's value for `id`, clamped into range (rounded down to a
// power of two where one is needed); `fallback` when unset or not a number.
std::uint64_t value(Id id, std::uint64_t fallback);
// The words `id` accepts besides numbers ("auto segment ..."), "" for
// none: RINGMPI_COLL_<FAMILY> takes its family's algorithm names
// (lib/coll/select.cpp parses them; a unit test checks both agree).
const char* words(Id id);
// Whether the variable is set to a non-empty value.
bool is_set(Id id);

// Checks every tunable set in an environment (lookup returns nullptr for an
// unset variable): "" when all are acceptable, else one line per problem.
std::string check_all(const std::function<const char*(const char*)>& lookup);

// The "environment:" lines of mpiexec --help.
std::string help();

}  // namespace ringmpi::tunables
