// The segment's conditions (coll/fits.hpp), in terms of the seg_* helpers.
#include "coll/fits.hpp"

#include "coll/seg_common.hpp"
#include "coll/seg_fits.hpp"

namespace ringmpi::coll {

void barrier_fits(const Segment* seg, Shape* s) {
  s->fits = s->numa_fits = seg != nullptr;
}

void bcast_fits(const Segment* seg, std::size_t m, Shape* s) {
  if (!seg) return;
  // Nonblocking: up to a slot region (larger ones take the schedule, whose
  // split single copy is faster, seg_nonblocking.cpp iseg_bcast).
  s->fits = m <= seg->inline_max() || (!s->nonblocking && seg->single_copy());
  s->numa_fits = s->fits && !s->nonblocking;
}

void table_fits(const Segment* seg, Family f, long long block, Shape* s) {
  if (!seg) return;
  if (f == Family::gather && !s->nonblocking)  // the root reads (or is pushed) large blocks: no table of blocks
    s->fits = seg->single_copy() || (block >= 0 && static_cast<std::size_t>(block) <= seg->inline_max());
  else
    s->fits = seg::tables_apply(*seg, block);
}

void allgather_fits(const Segment* seg, const int* counts, const dtype::Datatype& rtype, Shape* s) {
  if (!seg) return;
  bool any_large = false;
  s->fits = seg::allgather_applies(*seg, counts, rtype, &any_large, s->nonblocking);
}

void neighbor_fits(const Segment* seg, int max_outdegree, bool gather, Shape* s) {
  if (!seg) return;
  s->fits = seg::neighbor_fits(*seg, max_outdegree, gather);
}

void reduction_fits(const Segment* seg, Family f, const Reduction& r, const void* mine, const void* result, Shape* s) {
  if (!seg) return;
  const bool rooted_or_all = f == Family::reduce || f == Family::allreduce;
  if (s->nonblocking) {
    s->fits = seg::ivector_fits(*seg, r, mine, result, f != Family::scan);
    return;
  }
  s->fits = seg::reducible(*seg, r, rooted_or_all);  // reduce and allreduce may fold in chunks
  // The NUMA-leaders fold (seg_numa.cpp fold_two_level_applies): whole
  // vectors, two of them in a slot region, and either contiguous groups or
  // an op that commutes (the leaders fold their groups out of rank order).
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  s->numa_fits = s->fits && rooted_or_all && m <= seg->fold_whole() && seg::align64(m) + m <= seg->inline_max() &&
                 (seg->groups().contiguous || r.op.commute);
}

}  // namespace ringmpi::coll
