// What coll/fits.cpp asks of the segment algorithms' own conditions
// (defined beside the algorithms they guard).
#pragma once

#include "coll/reduction.hpp"
#include "coll/segment.hpp"

namespace ringmpi::coll::seg {

// A blocking reduction (seg_reduction.cpp): a contiguous type whose vector
// fits a slot region, or single copy, or (`chunked`: reduce and allreduce)
// chunks through the slots with more ranks than cores.
bool reducible(const Segment& s, const Reduction& r, bool chunked);
// A nonblocking reduction (`fold`) or scan (seg_nonblocking.cpp): its vector
// published by address or in a slot region; by address depends on in place
// (mine == result).
bool ivector_fits(const Segment& s, const Reduction& r, const void* mine, const void* result, bool fold);
// A neighbourhood exchange (seg_neighbor.cpp): single copy, and the
// topology's widest table (max_outdegree, -1 unknown; one entry for an
// allgather) fits a slot region with room to spare.
bool neighbor_fits(const Segment& s, int max_outdegree, bool gather);

}  // namespace ringmpi::coll::seg
