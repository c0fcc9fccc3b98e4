// Which members of group a does group b also have, by position in a.
//
// Both groups are split into progressions: simple pieces as they are,
// periodic pieces with short patterns into columns (one progression per
// pattern member), periodic pieces with long patterns into rows (one per run
// per repetition). Overlapping pairs meet by a congruence (prog.hpp). Rows
// are not listed one by one against a progression: the rows of repetition
// r and r+c meet it the same way when c*period is a multiple of its stride,
// so one cycle of c repetitions gives a periodic piece of positions.
// Irregular groups (as many runs as members) are enumerated instead.
#pragma once

#include <vector>

#include "group/group.hpp"

namespace ringmpi::group {

// Positions in a of the members b also has: disjoint increasing pieces
// (simple, or periodic with non-overlapping repetitions), in no order.
std::vector<Piece> positions_in(const Group& a, const Group& b);

}  // namespace ringmpi::group
