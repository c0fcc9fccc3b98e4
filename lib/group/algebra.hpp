// The group constructors of MPI-3.1 §5.3.2 and MPI_Group_compare, on the
// piece representation. Arguments are assumed valid (validate.hpp checks
// them); results may be empty (size 0).
//
// Costs: range_incl is O(triples x pieces touched), independent of the group
// size. excl, range_excl, intersection and difference work on positions:
// they find which positions of the first group are affected (a progression
// per pair of overlapping runs, by a congruence), turn those into an
// increasing rank set (rankset.hpp) and map it back through the group, so a
// regular answer costs O(runs) however many members it has. Irregular
// groups (about as many runs as members) fall back to enumerating members.
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

// The members of g at the ranks listed by `ranks` (increasing pieces), in that order.
std::vector<Piece> compose(const Group& g, const std::vector<Piece>& ranks);

}  // namespace ringmpi::group
