#include "tunables/tunables.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "tunables/range.hpp"

namespace ringmpi::tunables {
namespace {

constexpr std::uint64_t kNoMax = ~std::uint64_t{0};

// The order of Id.
constexpr std::array<Spec, kCount> kTable{{
    {Id::ring_bytes, "RINGMPI_RING_BYTES", kMinRingBytes, kMaxRingBytes, true,
     "1 MiB up to 16 ranks, less beyond, 64 KiB from 64 ranks",
     "ring capacity per ordered rank pair (bytes); read by mpiexec"},
    {Id::eager_limit, "RINGMPI_EAGER_LIMIT", kMinEagerLimit, std::uint64_t{16} << 20, false,
     "a sixteenth of the ring, within 16..32 KiB",
     "largest message sent whole through a ring (bytes; at most what a ring record holds)"},
    {Id::split_min, "RINGMPI_SPLIT_MIN", 2, kNoMax, false, "32768",
     "from this message size (bytes) sender and receiver each copy half of a single-copy transfer"},
    {Id::chunk, "RINGMPI_CHUNK", 64, std::uint64_t{16} << 20, false, "16384",
     "data record size (bytes) when large messages go through the ring (copy fallback)"},
    {Id::internal_eager_safe, "RINGMPI_INTERNAL_EAGER_SAFE", 0, kMinEagerLimit, false, "4096",
     "largest message the library's own collectives send before receiving (bytes; tests lower it "
     "to drive the tree fallback; every rank must see the same value)"},
    {Id::yield_us, "RINGMPI_YIELD_US", 0, 10'000'000, false, "100; with more ranks than cores 200 per two ranks a core has",
     "how long a waiting rank calls sched_yield before it sleeps on its futex (microseconds)"},
    {Id::force_copy_fallback, "RINGMPI_FORCE_COPY_FALLBACK", 0, 1, false, "0",
     "1: large messages through the rings, not process_vm_readv"},
    {Id::launcher_poll, "RINGMPI_LAUNCHER_POLL", 0, 1, false, "0",
     "1: mpiexec uses poll(2) instead of io_uring"},
    {Id::coll_barrier, "RINGMPI_COLL_BARRIER", 0, 3, false, "auto",
     "MPI_Barrier, blocking and nonblocking: an algorithm name (docs/guide/collective-algorithms.md) forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_bcast, "RINGMPI_COLL_BCAST", 0, 3, false, "auto",
     "MPI_Bcast, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_scatter, "RINGMPI_COLL_SCATTER", 0, 3, false, "auto",
     "MPI_Scatter and MPI_Scatterv, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_gather, "RINGMPI_COLL_GATHER", 0, 3, false, "auto",
     "MPI_Gather and MPI_Gatherv, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_allgather, "RINGMPI_COLL_ALLGATHER", 0, 3, false, "auto",
     "MPI_Allgather and MPI_Allgatherv, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_alltoall, "RINGMPI_COLL_ALLTOALL", 0, 3, false, "auto",
     "MPI_Alltoall and MPI_Alltoallv, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_reduce, "RINGMPI_COLL_REDUCE", 0, 3, false, "auto",
     "MPI_Reduce, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_allreduce, "RINGMPI_COLL_ALLREDUCE", 0, 3, false, "auto",
     "MPI_Allreduce, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_reduce_scatter, "RINGMPI_COLL_REDUCE_SCATTER", 0, 3, false, "auto",
     "MPI_Reduce_scatter(_block), blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_scan, "RINGMPI_COLL_SCAN", 0, 3, false, "auto",
     "MPI_Scan and MPI_Exscan, blocking and nonblocking: an algorithm name, or for blocking calls one of the segment's ways (segment_slot, segment_address, ...: docs/guide/collective-algorithms.md), forces it, 0 or auto chooses by size, 1 prefers the flat segment, 2 messages, 3 the segment with NUMA leaders where the family has them (every rank must see the same value)"},
    {Id::coll_neighbor, "RINGMPI_COLL_NEIGHBOR", 0, 3, false, "auto",
     "MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w), blocking and nonblocking: an algorithm name (local, segment, schedule) forces it, 0 or auto chooses, 1 prefers the shared segment, 2 messages, 3 as 1 (every rank must see the same value)"},
    {Id::coll_pair_bcast, "RINGMPI_COLL_PAIR_BCAST", 0, kNoMax, false, "262144",
     "set: two ranks with a core each broadcast messages below this size (bytes) over messages, not the segment, ahead of any rules file; unset, the compiled-in rules decide (262144 is their boundary) (every rank must see the same value)"},
    {Id::coll_pair_scatter, "RINGMPI_COLL_PAIR_SCATTER", 0, kNoMax, false, "2048",
     "set: two ranks with a core each scatter blocks below this size (bytes) over messages, ahead of any rules file; unset, the compiled-in rules decide (2048 is their boundary) (every rank must see the same value)"},
    {Id::coll_pair_max, "RINGMPI_COLL_PAIR_MAX", 0, kNoMax, false, "8192",
     "set: two ranks with a core each gather, allgather (half the total), alltoall, allreduce and scan below this size (bytes) over messages, ahead of any rules file; unset, the compiled-in rules decide (8192 is their boundary) (every rank must see the same value)"},
    {Id::coll_pair_reduce, "RINGMPI_COLL_PAIR_REDUCE", 0, kNoMax, false, "512",
     "set: two ranks with a core each reduce (MPI_Reduce) vectors below this size (bytes) over messages, ahead of any rules file; unset, the compiled-in rules decide (512 is their boundary) (every rank must see the same value)"},
    {Id::coll_schedule_min, "RINGMPI_COLL_SCHEDULE_MIN", 0, kNoMax, false, "32768",
     "blocking reductions and allgathers without the segment run as a schedule by blocks from this size (bytes; every rank must see the same value)"},
    {Id::coll_scan_chain_max, "RINGMPI_COLL_SCAN_CHAIN_MAX", 0, kNoMax, false, "256",
     "set: with more ranks than cores, scans up to this size (bytes) take the message chain, not the segment, ahead of any rules file; unset, the compiled-in rules decide (256 is their boundary) (every rank must see the same value)"},
    {Id::coll_split_min, "RINGMPI_COLL_SPLIT_MIN", 0, kNoMax, false, "65536",
     "on the shared segment, two ranks with a core each split a copy from this size (bytes): a two-rank bcast above a slot region, a large scan's hop, a two-rank MPI_Exscan (every rank must see the same value)"},
    {Id::coll_fold_whole_max, "RINGMPI_COLL_FOLD_WHOLE_MAX", 0, kNoMax, false, "2048",
     "on the shared segment, reductions up to this size (bytes, at most a slot region) fold whole vectors in one round, larger ones go by blocks (every rank must see the same value)"},
    {Id::coll_single_copy_min, "RINGMPI_COLL_SINGLE_COPY_MIN", 0, kNoMax, false, "32768",
     "on the shared segment, with a core per rank, blocking collectives move blocks from this size (bytes) by address (single copy), not through the slots (every rank must see the same value)"},
    {Id::coll_nonblocking_single_copy_min, "RINGMPI_COLL_NONBLOCKING_SINGLE_COPY_MIN", 0, kNoMax, false, "16384",
     "as RINGMPI_COLL_SINGLE_COPY_MIN, for nonblocking collectives (every rank must see the same value)"},
    {Id::coll_block_reduction_min, "RINGMPI_COLL_BLOCK_REDUCTION_MIN", 0, kNoMax, false, "32768",
     "message schedules reduce vectors of at least this size (bytes, and an element per rank) by blocks: a reduce-scatter, then a gather or allgather of the blocks (every rank must see the same value)"},
    {Id::coll_alltoall_reduce_ranks, "RINGMPI_COLL_ALLTOALL_REDUCE_RANKS", 0, kNoMax, false, "16",
     "schedules of small allreduces (up to the eager-safe size) on 3 to this many ranks exchange every contribution with every rank in one round, not a reduce and a bcast (every rank must see the same value)"},
    // Above kMinEagerLimit only: sends up to it never wait for the receiver's library.
    {Id::rndv_min, "RINGMPI_RNDV_MIN", kMinEagerLimit + 1, kNoMax, false, "65536",
     "from this size (bytes) up to the eager limit, a blocking send first offers the receiver a single copy "
     "(rendezvous) and sends eagerly if it does not match at once; above the eager limit the rendezvous is the rule"},
}};

// The algorithm names of each RINGMPI_COLL_<FAMILY> (lib/coll/select.cpp kRows), the
// segment's ways (forced for blocking calls, or named by a rules file) last.
const char* family_words(Id id) {
  switch (id) {
    case Id::coll_barrier: return "auto local numa_leaders segment world_counter messages schedule";
    case Id::coll_bcast: return "auto numa_leaders segment messages schedule segment_slot segment_address segment_split";
    case Id::coll_reduce:
    case Id::coll_allreduce:
      return "auto numa_leaders segment messages schedule segment_whole segment_blocks segment_address "
             "segment_chunks";
    case Id::coll_scatter:
    case Id::coll_gather:
    case Id::coll_allgather:
    case Id::coll_alltoall: return "auto segment messages schedule segment_slot segment_address";
    case Id::coll_reduce_scatter: return "auto segment messages schedule segment_blocks segment_address";
    case Id::coll_scan: return "auto segment messages schedule segment_slot segment_chain segment_address segment_split";
    case Id::coll_neighbor: return "auto local segment schedule";
    default: return "";
  }
}

bool is_word(Id id, const char* text) {
  const char* w = family_words(id);
  const std::size_t n = std::strlen(text);
  if (n == 0) return false;
  for (const char* at = std::strstr(w, text); at; at = std::strstr(at + 1, text))
    if ((at == w || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0')) return true;
  return false;
}

constexpr bool table_in_order() {
  for (int i = 0; i < kCount; ++i)
    if (static_cast<int>(kTable[static_cast<std::size_t>(i)].id) != i) return false;
  return true;
}
static_assert(table_in_order(), "kTable must list the tunables in the order of Id");

bool power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

bool number(const char* text, std::uint64_t* out) {
  if (!text || !*text || *text == '-' || *text == '+') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

std::string range_text(const Spec& s) {
  std::string r = s.power_of_two ? "a power of two between " : "a number between ";
  r += std::to_string(s.min) + " and ";
  r += s.max == kNoMax ? std::string("2^64-1") : std::to_string(s.max);
  return r;
}

const Spec& spec(Id id) { return kTable[static_cast<std::size_t>(id)]; }

const char* words(Id id) { return family_words(id); }

bool parse(Id id, const char* text, std::uint64_t* out, std::string* why) {
  const Spec& s = spec(id);
  std::uint64_t v = 0;
  if (text && is_word(id, text)) {  // a name: value() reads it as the default
    *out = 0;
    return true;
  }
  if (!number(text, &v) || v < s.min || v > s.max || (s.power_of_two && !power_of_two(v))) {
    *why = std::string(s.name) + "='" + (text ? text : "") + "' is not " + range_text(s) +
           (*words(id) ? std::string(" nor one of: ") + words(id) : std::string()) + " (" + s.meaning + ")";
    return false;
  }
  *out = v;
  return true;
}

bool is_set(Id id) {
  const char* v = std::getenv(spec(id).name);
  return v && *v;
}

std::uint64_t value(Id id, std::uint64_t fallback) {
  const Spec& s = spec(id);
  std::uint64_t v = 0;
  if (!number(std::getenv(s.name), &v)) return fallback;
  if (v < s.min) v = s.min;
  if (v > s.max) v = s.max;
  if (s.power_of_two)
    while (!power_of_two(v)) v &= v - 1;  // down to the highest set bit (min is a power of two)
  return v;
}

std::string check_all(const std::function<const char*(const char*)>& lookup) {
  std::string problems;
  for (const Spec& s : kTable) {
    const char* text = lookup(s.name);
    if (!text || !*text) continue;
    std::uint64_t v = 0;
    std::string why;
    if (!parse(s.id, text, &v, &why)) problems += why + "\n";
  }
  return problems;
}

std::string help() {
  std::string out;
  for (const Spec& s : kTable) {
    out += "  ";
    out += s.name;
    out += "\n      ";
    out += s.meaning;
    out += "\n      " + range_text(s) + (*words(s.id) ? std::string(", or one of: ") + words(s.id) : std::string()) +
           "; default: " + s.fallback + "\n";
  }
  // Not a number, so not in the table: the collective rules file (tunables/coll_rules.hpp).
  out += "  RINGMPI_COLL_RULES\n      the collective rules file (ringmpi-tune writes one): which algorithm each family "
         "prefers by np and bytes, ahead of the compiled-in rules\n      a path; set and empty: no file (the compiled rules "
         "still hold); default: $XDG_CONFIG_HOME/ringmpi/coll-rules "
         "or ~/.config/ringmpi/coll-rules, then <prefix>/share/ringmpi/coll-rules, where one exists\n";
  return out;
}

}  // namespace ringmpi::tunables
