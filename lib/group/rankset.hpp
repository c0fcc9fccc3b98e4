// Sets of positions (group ranks) given as disjoint progressions or periodic
// pieces, turned into an increasing piece sequence: their union, or their
// complement in [0, n).
//
// A sweep over the items' end points cuts [0, n) into segments where the
// same items are active. A periodic item alone keeps its period (its
// complement repeats the complement of its pattern). One active progression of stride s
// leaves a periodic complement (s-1 of every s positions): one periodic
// piece. Several active progressions repeat with the lcm of their strides;
// if one period holds at most kPeriodMax of their terms it becomes a
// pattern; otherwise the densest progression stays runs and the terms of
// the sparse ones are enumerated (the irregular case).
#pragma once

#include <vector>

#include "group/piece.hpp"

namespace ringmpi::group {

enum class Sweep { union_of, complement_of };

inline constexpr i64 kPeriodMax = 4096;  // terms per period

// Items: simple pieces and periodic pieces in increasing order (positive
// period, repetitions not overlapping), pairwise disjoint, inside [0, n).
std::vector<Piece> sweep(std::vector<Piece> items, i64 n, Sweep mode);
std::vector<Piece> sweep(const std::vector<Prog>& progs, i64 n, Sweep mode);

}  // namespace ringmpi::group
