// The group constructors of MPI-3.1 §5.3.2 and MPI_Group_compare, on the
// piece representation. Arguments are assumed valid (validate.hpp checks
// them); results may be empty (size 0).
//
// Costs, for groups of n members in R pieces:
//  - incl: O(k log R) for k ranks; range_incl: O(triples x pieces touched),
//    whatever n is (through a periodic piece: one cycle, at most 4096).
//  - excl, range_excl, intersection, difference, union: positions_in finds
//    the affected positions of the first group (one congruence per pair of
//    overlapping runs), rankset.hpp turns them into an increasing set of
//    ranks, compose.hpp maps that back. A regular answer (runs, or periods
//    whose pattern has at most 4096 runs) costs O(runs). Interleaved
//    strides whose common period is longer cost O(n / 4096) pieces, and two
//    long-period groups against each other O(n / period).
//  - compare: O(R) for MPI_IDENT, else that of positions_in.
//  - Irregular groups (about as many pieces as members) are enumerated:
//    O(n log n).
#pragma once

#include <vector>

#include "group/group.hpp"

namespace ringmpi::group {

GroupPtr incl(const Group& g, const int* ranks, int n);
GroupPtr excl(const GroupPtr& g, const int* ranks, int n);
// `ranges` are validated rank progressions of g, in the caller's order.
GroupPtr range_incl(const Group& g, const std::vector<Prog>& ranges);
GroupPtr range_excl(const GroupPtr& g, const std::vector<Prog>& ranges);
GroupPtr set_union(const GroupPtr& a, const GroupPtr& b);
GroupPtr intersection(const GroupPtr& a, const GroupPtr& b);
GroupPtr difference(const GroupPtr& a, const GroupPtr& b);
// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
int compare(const Group& a, const Group& b);

}  // namespace ringmpi::group
