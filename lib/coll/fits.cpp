// The segment's conditions (coll/fits.hpp), in terms of the seg_* helpers.
#include "coll/fits.hpp"

#include "coll/seg_common.hpp"
#include "coll/seg_fits.hpp"

namespace ringmpi::coll {
namespace {

// Why a forced way of the segment (Shape::way) cannot run a call.
constexpr const char* kNoSingleCopy =
    "it needs single copy, which a member refuses (RINGMPI_FORCE_COPY_FALLBACK=1, or a ptrace policy that forbids "
    "process_vm_readv)";
constexpr const char* kNotContiguous = "the segment reduces contiguous datatypes only";
constexpr const char* kLargerThanSlot = "the data is larger than a slot region";

// The ways every data-moving family has: through the slots when `fits_slot`
// says the data fits, by address with single copy.
const char* slot_or_address(const Segment& seg, Algo way, bool fits_slot, const char* misfit) {
  switch (way) {
    case Algo::segment_slot: return fits_slot ? nullptr : misfit;
    case Algo::segment_address: return seg.single_copy() ? nullptr : kNoSingleCopy;
    default: return "the family has no such way";
  }
}

// Leaves in s why a forced way cannot run the call (`why(way)`, nullptr: it
// can); or, when no way is forced and the rule matching the call names a
// way (Shape::way_rules), which ways of family f can run it (ways_ok), so
// that prefer() takes the rule's way only where it can run. Calls of a
// family whose rules name no way, and calls their rule does not send to a
// way, skip it.
template <class Why>
void check_ways(Family f, Shape* s, Why why) {
  if (s->way != Algo::none) {
    s->way_refused = why(s->way);
    return;
  }
  if (!s->way_rules || !rule_names_way(f, *s->way_rules, *s)) return;
  s->ways_checked = true;
  for (int i = static_cast<int>(Algo::segment_slot); i < kAlgos; ++i) {
    const auto w = static_cast<Algo>(i);
    if (has(f, w) && !why(w)) s->ways_ok |= 1u << static_cast<unsigned>(i);
  }
}

}  // namespace

void barrier_fits(const Segment* seg, Shape* s) {
  s->fits = s->numa_fits = seg != nullptr;
}

void bcast_fits(const Segment* seg, std::size_t m, Shape* s) {
  if (!seg) return;
  // Nonblocking: up to a slot region (larger ones take the schedule, whose
  // split single copy is faster, seg_nonblocking.cpp iseg_bcast).
  s->fits = m <= seg->inline_max() || (!s->nonblocking && seg->single_copy());
  s->numa_fits = s->fits && !s->nonblocking;
  check_ways(Family::bcast, s, [&](Algo way) -> const char* {
    if (way == Algo::segment_split)
      return seg->size() != 2 ? "it splits a copy between two ranks: the communicator has more"
             : seg->single_copy() ? nullptr
                                  : kNoSingleCopy;
    return slot_or_address(*seg, way, m <= seg->inline_max(), kLargerThanSlot);
  });
}

void table_fits(const Segment* seg, Family f, long long block, Shape* s) {
  if (!seg) return;
  if (f == Family::gather && !s->nonblocking)  // the root reads (or is pushed) large blocks: no table of blocks
    s->fits = seg->single_copy() || (block >= 0 && static_cast<std::size_t>(block) <= seg->inline_max());
  else
    s->fits = seg::tables_apply(*seg, block);
  check_ways(f, s, [&](Algo way) -> const char* {
    if (block < 0 && way == Algo::segment_slot)
      return "a v form's blocks through the slots: not every rank knows every block's size (the uniform form can)";
    if (way == Algo::segment_address)
      return !seg->single_copy()                                      ? kNoSingleCopy
             : f != Family::gather && !seg::tables_apply(*seg, -1) ? "the table of blocks exceeds a slot region"
                                                                    : nullptr;
    const auto b = static_cast<std::size_t>(block);
    const bool in_slot = f == Family::gather ? b <= seg->inline_max() : seg::blocks_in_slot(*seg, b);
    return slot_or_address(*seg, way, in_slot,
                           f == Family::gather ? "the block is larger than a slot region"
                                               : "the table and the blocks exceed a slot region");
  });
}

void allgather_fits(const Segment* seg, const int* counts, const dtype::Datatype& rtype, Shape* s) {
  if (!seg) return;
  bool any_large = false;
  s->fits = seg::allgather_applies(*seg, counts, rtype, &any_large, s->nonblocking);
  check_ways(Family::allgather, s, [&](Algo way) -> const char* {
    bool fit = true;
    for (int j = 0; j < seg->size(); ++j) fit = fit && std::size_t(counts[j]) * rtype.size <= seg->inline_max();
    return slot_or_address(*seg, way, fit, "a block is larger than a slot region");
  });
}

void neighbor_fits(const Segment* seg, int max_outdegree, bool gather, Shape* s) {
  if (!seg) return;
  s->fits = seg::neighbor_fits(*seg, max_outdegree, gather);
}

namespace {
// Whether a forced way of a blocking reduction or scan can run it (every
// family takes only the ways of its table: coll/select.cpp kRows).
const char* reduction_way(const Segment& seg, Algo way, const Reduction& r) {
  if (!r.type->contiguous()) return kNotContiguous;
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  switch (way) {
    case Algo::segment_whole:
    case Algo::segment_blocks:
    case Algo::segment_slot:
    case Algo::segment_chain: return m <= seg.inline_max() ? nullptr : "the vector is larger than a slot region";
    case Algo::segment_chunks:
      return r.type->size <= seg.inline_max() ? nullptr : "an element is larger than a slot region";
    case Algo::segment_address:
    case Algo::segment_split: return seg.single_copy() ? nullptr : kNoSingleCopy;
    default: return "the family has no such way";
  }
}
}  // namespace

void reduction_fits(const Segment* seg, Family f, const Reduction& r, const void* mine, const void* result, Shape* s) {
  if (!seg) return;
  const bool rooted_or_all = f == Family::reduce || f == Family::allreduce;
  if (s->nonblocking) {
    s->fits = seg::ivector_fits(*seg, r, mine, result, f != Family::scan);
    return;
  }
  s->fits = seg::reducible(*seg, r, rooted_or_all);  // reduce and allreduce may fold in chunks
  check_ways(f, s, [&](Algo way) { return reduction_way(*seg, way, r); });
  // The NUMA-leaders fold (seg_numa.cpp fold_two_level_applies): whole
  // vectors, two of them in a slot region, and either contiguous groups or
  // an op that commutes (the leaders fold their groups out of rank order).
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  s->numa_fits = s->fits && rooted_or_all && m <= seg->fold_whole() && seg::align64(m) + m <= seg->inline_max() &&
                 (seg->groups().contiguous || r.op.commute);
}

}  // namespace ringmpi::coll
