// The variables the tool information interface shows (MPI-3.1 §14.3.6-14.3.8),
// made from the two tables that already exist, so that a new tunable or
// counter appears in MPI_T without a second list to keep:
// - control variable i is tunable i (tunables::Id order), named by its
//   environment variable, described by its line in the table;
// - performance variable i is counter i (core::Counter order), named as
//   MPIX_Query_counter names it.
// Where a variable belongs (category), how detailed it is (verbosity) and the
// scope of a control variable are switches over the enums below without a
// default, so a new tunable or counter that is not placed is a -Wswitch warning
// (an error in CI).
#include <climits>
#include <cstring>

#include <deque>

#include "api/tool.hpp"
#include "coll/select.hpp"
#include "core/counters.hpp"
#include "core/handle.hpp"
#include "core/runtime.hpp"
#include "exchange/exchange.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::api::tool {
namespace {

using tunables::Id;
using core::Counter;

// The enumerations: index 1.. of handle kind t_enum (0 is MPI_T_ENUM_NULL).
// The values of RINGMPI_COLL_* (tunables.hpp): 0 chooses, 1 the shared
// segment, 2 messages, 3 the segment with a leader per NUMA node where the
// family has that form (else as 1).
// Values from 4 force an algorithm by name (coll/select.hpp Algo: value
// 3 + its index), as RINGMPI_COLL_<FAMILY>=<name> does; a family takes
// only the names of its own table.
enum EnumIndex : std::uint32_t { kCollAlgorithm = 1, kNeighborAlgorithm = 2, kEnumEnd = 3 };
constexpr int kForcedBase = 3;
const Enum kEnums[kEnumEnd] = {
    {},
    {"ringmpi_coll_algorithm",
     {"auto", "segment", "messages", "segment_numa_leaders", "force_local", "force_segment", "force_numa_leaders",
      "force_world_counter", "force_messages", "force_schedule", "force_segment_slot", "force_segment_address",
      "force_segment_split", "force_segment_whole", "force_segment_blocks", "force_segment_chunks",
      "force_segment_chain"}},
    {"ringmpi_coll_neighbor_algorithm",
     {"auto", "segment", "messages", "segment_same_as_1", "force_local", "force_segment", "force_numa_leaders",
      "force_world_counter", "force_messages", "force_schedule", "force_segment_slot", "force_segment_address",
      "force_segment_split", "force_segment_whole", "force_segment_blocks", "force_segment_chunks",
      "force_segment_chain"}},
};
MPI_T_enum enum_handle(std::uint32_t i) { return core::make_handle(core::Kind::t_enum, i, 0); }

// MPI-3.1 Table 14.4. Every value but the collective algorithm settings is
// fixed for the run (mpiexec checked them before the job started; nothing
// changes them later), so none of those is writable.
// CONSTANT: the value is the environment's (or the default), the same before
// MPI_Init, during and after. READONLY ("cannot be written, but can change"):
// the value in use is settled by MPI_Init from the job's size and the ring's
// record size; before MPI_Init these read what the environment asks for, 0
// when it asks nothing and MPI_Init will choose.
int scope_of(Id id) {
  switch (id) {
    case Id::ring_bytes:
    case Id::eager_limit:
    case Id::chunk:
    case Id::yield_us: return MPI_T_SCOPE_READONLY;
    case Id::split_min:
    case Id::rndv_min:
    case Id::internal_eager_safe:
    case Id::force_copy_fallback:
    case Id::launcher_poll: return MPI_T_SCOPE_CONSTANT;
    // The collective algorithm settings: writable, the same on every rank
    // (lib/coll/select.hpp; they take effect at each communicator's next
    // collective, which must come after every rank's write).
    case Id::coll_barrier:
    case Id::coll_bcast:
    case Id::coll_scatter:
    case Id::coll_gather:
    case Id::coll_allgather:
    case Id::coll_alltoall:
    case Id::coll_reduce:
    case Id::coll_allreduce:
    case Id::coll_reduce_scatter:
    case Id::coll_scan:
    case Id::coll_neighbor:
    case Id::coll_pair_bcast:
    case Id::coll_pair_scatter:
    case Id::coll_pair_max:
    case Id::coll_pair_reduce:
    case Id::coll_schedule_min:
    case Id::coll_scan_chain_max:
    case Id::coll_split_min:
    case Id::coll_fold_whole_max:
    case Id::coll_single_copy_min:
    case Id::coll_nonblocking_single_copy_min:
    case Id::coll_block_reduction_min:
    case Id::coll_alltoall_reduce_ranks: return MPI_T_SCOPE_ALL_EQ;
  }
  return MPI_T_SCOPE_CONSTANT;
}

int cvar_verbosity(Id id) {
  switch (id) {
    case Id::ring_bytes:
    case Id::eager_limit: return MPI_T_VERBOSITY_TUNER_BASIC;
    case Id::split_min:
    case Id::rndv_min:
    case Id::chunk:
    case Id::yield_us: return MPI_T_VERBOSITY_TUNER_DETAIL;
    case Id::internal_eager_safe:  // test knobs: drive a path the library would not take
    case Id::force_copy_fallback: return MPI_T_VERBOSITY_MPIDEV_DETAIL;
    case Id::launcher_poll: return MPI_T_VERBOSITY_MPIDEV_BASIC;
    case Id::coll_barrier:
    case Id::coll_bcast:
    case Id::coll_scatter:
    case Id::coll_gather:
    case Id::coll_allgather:
    case Id::coll_alltoall:
    case Id::coll_reduce:
    case Id::coll_allreduce:
    case Id::coll_reduce_scatter:
    case Id::coll_scan:
    case Id::coll_neighbor: return MPI_T_VERBOSITY_TUNER_BASIC;
    case Id::coll_pair_bcast:
    case Id::coll_pair_scatter:
    case Id::coll_pair_max:
    case Id::coll_pair_reduce:
    case Id::coll_schedule_min:
    case Id::coll_scan_chain_max:
    case Id::coll_split_min:
    case Id::coll_fold_whole_max:
    case Id::coll_single_copy_min:
    case Id::coll_nonblocking_single_copy_min:
    case Id::coll_block_reduction_min:
    case Id::coll_alltoall_reduce_ranks: return MPI_T_VERBOSITY_TUNER_DETAIL;
  }
  return MPI_T_VERBOSITY_TUNER_DETAIL;
}

CategoryId cvar_category(Id id) {
  switch (id) {
    case Id::ring_bytes:
    case Id::eager_limit:
    case Id::split_min:
    case Id::rndv_min:
    case Id::chunk:
    case Id::force_copy_fallback: return CategoryId::p2p;
    case Id::internal_eager_safe:
    case Id::coll_barrier:
    case Id::coll_bcast:
    case Id::coll_scatter:
    case Id::coll_gather:
    case Id::coll_allgather:
    case Id::coll_alltoall:
    case Id::coll_reduce:
    case Id::coll_allreduce:
    case Id::coll_reduce_scatter:
    case Id::coll_scan:
    case Id::coll_neighbor:
    case Id::coll_pair_bcast:
    case Id::coll_pair_scatter:
    case Id::coll_pair_max:
    case Id::coll_pair_reduce:
    case Id::coll_schedule_min:
    case Id::coll_scan_chain_max:
    case Id::coll_split_min:
    case Id::coll_fold_whole_max:
    case Id::coll_single_copy_min:
    case Id::coll_nonblocking_single_copy_min:
    case Id::coll_block_reduction_min:
    case Id::coll_alltoall_reduce_ranks: return CategoryId::collectives;
    case Id::yield_us:
    case Id::launcher_poll: return CategoryId::runtime;
  }
  return CategoryId::runtime;
}

MPI_T_enum cvar_enum(Id id) {
  if (id == Id::coll_neighbor) return enum_handle(kNeighborAlgorithm);
  if (id >= Id::coll_barrier && id <= Id::coll_scan) return enum_handle(kCollAlgorithm);
  return MPI_T_ENUM_NULL;
}

CategoryId pvar_category(Counter c) {
  switch (c) {
    case Counter::rndv_read:
    case Counter::rndv_split:
    case Counter::rndv_push:
    case Counter::rndv_staged:
    case Counter::rndv_taken_back: return CategoryId::p2p;
    case Counter::exchange_dissemination:
    case Counter::exchange_tree:
    case Counter::seg_barrier:
    case Counter::seg_bcast:
    case Counter::seg_scatter:
    case Counter::seg_gather:
    case Counter::seg_allgather:
    case Counter::seg_alltoall:
    case Counter::seg_reduce:
    case Counter::seg_allreduce:
    case Counter::seg_reduce_scatter:
    case Counter::seg_scan:
    case Counter::seg_neighbor:
    case Counter::seg_single_copy:
    case Counter::seg_pushed:
    case Counter::seg_by_blocks:
    case Counter::seg_two_level:
    case Counter::coll_messages:
    case Counter::coll_zero_byte:
    case Counter::acc_direct: return CategoryId::collectives;
    case Counter::smsc_calls:
    case Counter::smsc_bytes:
    case Counter::smsc_fallback: return CategoryId::p2p;
  }
  return CategoryId::collectives;
}

std::string range_text(const tunables::Spec& s) {
  std::string r = std::to_string(s.min) + "..";
  r += s.max == ~std::uint64_t{0} ? std::string("2^64-1") : std::to_string(s.max);
  return s.power_of_two ? "a power of two in " + r : r;
}

std::vector<Cvar> make_cvars() {
  std::vector<Cvar> v;
  for (int i = 0; i < tunables::kCount; ++i) {
    const tunables::Spec& s = tunables::spec(i);
    const int scope = scope_of(s.id);
    std::string desc = std::string(s.meaning) + ". Range " + range_text(s) + ", default " + s.fallback + ".";
    if (scope == MPI_T_SCOPE_READONLY)
      desc += " Read: the value in use from MPI_Init on; before, the environment's (0: unset, MPI_Init chooses).";
    else
      desc += " Read: the environment's value, else the default.";
    if (scope == MPI_T_SCOPE_ALL_EQ)
      desc += " Writable, with the same value on every rank (MPI_T_SCOPE_ALL_EQ); takes effect at each "
              "communicator's next collective.";
    else
      desc += " Fixed for the run (set it in the environment of mpiexec).";
    v.push_back({s.id, s.name, std::move(desc), cvar_verbosity(s.id),
                 s.max <= static_cast<std::uint64_t>(INT_MAX) ? MPI_INT : MPI_UNSIGNED_LONG_LONG, cvar_enum(s.id),
                 scope, cvar_category(s.id)});
  }
  return v;
}

const std::vector<Cvar>& cvars() {
  static const std::vector<Cvar> v = make_cvars();
  return v;
}

std::vector<Pvar> make_pvars() {
  std::vector<Pvar> v;
  for (int i = 0; i < core::kCounters; ++i)
    v.push_back({core::kCounterNames[static_cast<std::size_t>(i)], core::kCounterMeanings[static_cast<std::size_t>(i)],
                 MPI_T_VERBOSITY_TUNER_DETAIL, pvar_category(static_cast<Counter>(i)), MPI_T_BIND_NO_OBJECT, -1, -1});
  // One per row of the collective algorithm tables, bound to a
  // communicator: "coll_<family>_<algorithm>" (MPIX_Query_counter gives the
  // process's total under the same name).
  static std::deque<std::string> text;  // the views above point into it
  for (const coll::Row* r = coll::rows_begin(); r != coll::rows_end(); ++r) {
    text.push_back(std::string("coll_") + coll::family_name(r->family) + "_" + coll::algo_name(r->algo));
    const std::string_view name = text.back();
    text.push_back(std::string("calls of the ") + coll::family_name(r->family) +
                   " family on this communicator that its algorithm " + coll::algo_name(r->algo) + " ran (" +
                   r->where + ")");
    v.push_back({name, text.back(), MPI_T_VERBOSITY_TUNER_BASIC, CategoryId::collectives, MPI_T_BIND_MPI_COMM,
                 static_cast<int>(r->family), static_cast<int>(r->algo)});
  }
  return v;
}

const std::vector<Pvar>& pvars() {
  static const std::vector<Pvar> v = make_pvars();
  return v;
}

std::vector<Category> make_categories() {
  std::vector<Category> c = {
      {"ringmpi", "everything ringmpi shows: the categories below", {}, {}, {}},
      {"ringmpi_p2p", "point-to-point: rings, eager and rendezvous protocols, single copy", {}, {}, {}},
      {"ringmpi_collectives",
       "collectives: the algorithm of each family, the shared segment, the library's own collectives",
       {}, {}, {}},
      {"ringmpi_runtime", "the runtime and the launcher: waiting, mpiexec's event loop", {}, {}, {}},
  };
  for (int i = 0; i < cvar_count(); ++i) c[static_cast<std::size_t>(cvar(i).category)].cvars.push_back(i);
  for (int i = 0; i < pvar_count(); ++i) c[static_cast<std::size_t>(pvar(i).category)].pvars.push_back(i);
  c[0].categories = {static_cast<int>(CategoryId::p2p), static_cast<int>(CategoryId::collectives),
                     static_cast<int>(CategoryId::runtime)};
  return c;
}

const std::vector<Category>& categories() {
  static const std::vector<Category> c = make_categories();
  return c;
}

}  // namespace

int cvar_count() { return static_cast<int>(cvars().size()); }
const Cvar& cvar(int index) { return cvars()[static_cast<std::size_t>(index)]; }

std::uint64_t cvar_value(int index) {
  const Id id = cvar(index).id;
  if (cvar(index).scope == MPI_T_SCOPE_READONLY) {
    // Settled by p2p::init (MPI_Init) and kept after MPI_Finalize.
    p2p::Settings s{};
    if (!p2p::settings(&s)) return tunables::is_set(id) ? tunables::value(id, 0) : 0;
    switch (id) {
      case Id::ring_bytes: return s.ring_bytes;
      case Id::eager_limit: return s.eager_limit;
      case Id::chunk: return s.chunk;
      case Id::yield_us: return p2p::yield_window_us();
      default: break;
    }
  }
  // The collective settings as they are now (coll/select.hpp): an MPI_T
  // write changes them.
  if (id >= Id::coll_barrier && id <= Id::coll_neighbor) {
    const coll::Setting set =
        coll::setting(static_cast<coll::Family>(static_cast<int>(id) - static_cast<int>(Id::coll_barrier)));
    return set.forced == coll::Algo::none ? static_cast<std::uint64_t>(set.mode)
                                          : static_cast<std::uint64_t>(kForcedBase + static_cast<int>(set.forced));
  }
  for (int i = 0; i < coll::kThresholds; ++i)
    if (coll::kThresholdIds[static_cast<std::size_t>(i)] == id) return coll::threshold(i);
  // The defaults the library's readers pass to tunables::value.
  switch (id) {
    case Id::split_min: return tunables::value(id, p2p::Tunables{}.split_min);
    case Id::rndv_min: return tunables::value(id, p2p::Tunables{}.rndv_min);
    case Id::internal_eager_safe: return tunables::value(id, exchange::kEagerSafeBytes);
    default: return tunables::value(id, 0);
  }
}

int pvar_count() { return static_cast<int>(pvars().size()); }
const Pvar& pvar(int index) { return pvars()[static_cast<std::size_t>(index)]; }
std::uint64_t pvar_value(int index) {
  const Pvar& v = pvar(index);
  if (v.bind == MPI_T_BIND_MPI_COMM)
    return coll::total_calls(static_cast<coll::Family>(v.family), static_cast<coll::Algo>(v.algo));
  return core::counter_value(index);
}

int cvar_write(int index, const void* buf) {
  const Cvar& v = cvar(index);
  if (v.scope != MPI_T_SCOPE_ALL_EQ) return MPI_T_ERR_CVAR_SET_NEVER;
  if (v.id >= Id::coll_barrier && v.id <= Id::coll_neighbor) {
    int value;
    std::memcpy(&value, buf, sizeof value);
    const auto f =
        static_cast<coll::Family>(static_cast<int>(v.id) - static_cast<int>(Id::coll_barrier));
    coll::Setting set;
    if (value >= 0 && value <= kForcedBase) {
      set.mode = value;
    } else {
      const int a = value - kForcedBase;
      if (a <= 0 || a >= coll::kAlgos || !coll::has(f, static_cast<coll::Algo>(a))) return MPI_T_ERR_INVALID;
      set.forced = static_cast<coll::Algo>(a);
    }
    coll::set_setting(f, set);
    return MPI_SUCCESS;
  }
  for (int i = 0; i < coll::kThresholds; ++i)
    if (coll::kThresholdIds[static_cast<std::size_t>(i)] == v.id) {
      unsigned long long value;
      if (v.datatype == MPI_INT) {
        int small;
        std::memcpy(&small, buf, sizeof small);
        if (small < 0) return MPI_T_ERR_INVALID;
        value = static_cast<unsigned long long>(small);
      } else {
        std::memcpy(&value, buf, sizeof value);
      }
      coll::set_threshold(i, static_cast<std::size_t>(value));
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_CVAR_SET_NEVER;
}

const Enum* enum_of(MPI_T_enum h) {
  if (!core::handle_is(h, core::Kind::t_enum) || core::handle_gen(h) != 0) return nullptr;
  const std::uint32_t i = core::handle_index(h);
  return i >= kCollAlgorithm && i < kEnumEnd ? &kEnums[i] : nullptr;
}

int category_count() { return static_cast<int>(categories().size()); }
const Category& category(int index) { return categories()[static_cast<std::size_t>(index)]; }

}  // namespace ringmpi::api::tool
