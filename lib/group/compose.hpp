// Mapping group ranks to world ranks, a progression or a set at a time.
//
// A progression of ranks through a simple piece is a progression of world
// ranks; through a periodic piece it is periodic again (after lcm(stride,
// pattern size) ranks it is back at the same pattern member), so its image
// is built from one cycle. An increasing periodic set of ranks (what
// rankset.hpp produces) goes through a group piece by piece: where the
// group is affine its pattern is just stretched; inside a periodic piece the
// two periods combine, or it is cut at that piece's runs.
#pragma once

#include <vector>

#include "group/builder.hpp"
#include "group/group.hpp"

namespace ringmpi::group {

// Members f, f+t, ... (c of them, all ranks of g) of g, in that order.
void map_prog(const Group& g, i64 f, i64 t, i64 c, SeqBuilder& out);
// The members of g at the ranks `ranks` (increasing pieces), in that order.
std::vector<Piece> compose(const Group& g, const std::vector<Piece>& ranks);

}  // namespace ringmpi::group
