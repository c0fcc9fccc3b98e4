// Whether a call fits the shared segment's algorithms: the conditions under
// which the seg_* functions used to decline a call after it reached them,
// computed before the choice (coll/select.hpp Shape::fits, numa_fits) from
// what every rank of the call knows alike. `seg` nullptr: no segment
// (fits stays false). Each sets s->fits and s->numa_fits.
#pragma once

#include "coll/reduction.hpp"
#include "coll/segment.hpp"
#include "coll/select.hpp"
#include "dtype/datatype.hpp"

namespace ringmpi::coll {

void barrier_fits(const Segment* seg, Shape* s);
// A broadcast of m bytes: through a slot region, or by single copy (blocking only).
void bcast_fits(const Segment* seg, std::size_t m, Shape* s);
// Scatter, gather, alltoall and their v forms: `block` the bytes of every
// block when all ranks know it (the non-v forms), else -1.
void table_fits(const Segment* seg, Family f, long long block, Shape* s);
// Allgather(v): every block by single copy or through a slot region.
void allgather_fits(const Segment* seg, const int* counts, const dtype::Datatype& rtype, Shape* s);
// Reductions and scans: contiguous types that fit (or single copy,
// chunks); nonblocking ones also depend on in place (mine == result),
// which each rank decides for itself (docs/design/collectives.md).
void reduction_fits(const Segment* seg, Family f, const Reduction& r, const void* mine, const void* result, Shape* s);
// Neighbourhood exchanges: single copy and the topology's widest table.
void neighbor_fits(const Segment* seg, int max_outdegree, bool gather, Shape* s);

}  // namespace ringmpi::coll
