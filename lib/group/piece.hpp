// Pieces: the elements of a group's representation.
//
// A group is a sequence of pieces. A simple piece is one strided run of world
// ranks (base, base+period, ..., reps members). A periodic piece repeats a
// pattern `reps` times, repetition r shifted by r*period: it is what the
// complement of a strided range looks like ("all but every third rank" is
// the pattern {1, 2} repeated with period 3), so MPI_Group_range_excl and
// MPI_Group_difference stay O(1) in the group size where the answer is
// regular. Patterns are themselves short lists of runs.
#pragma once

#include <memory>
#include <vector>

#include "group/prog.hpp"
#include "group/run_index.hpp"

namespace ringmpi::group {

// The members of one repetition of a periodic piece, as offsets from the
// piece's base, in member order.
struct Pattern {
  std::vector<Prog> runs;
  std::vector<i64> prefix;  // prefix[i]: members before runs[i]
  i64 size = 0;
  i64 min_off = 0, max_off = 0;
  RunIndex index;

  static std::shared_ptr<const Pattern> make(std::vector<Prog> runs);
  i64 at(i64 k) const;
  i64 find(i64 off) const { return index.find(off); }
  bool same_as(const Pattern& o) const { return this == &o || runs == o.runs; }
};

struct Piece {
  i64 base = 0;
  i64 period = 0;  // 0 when reps == 1
  i64 reps = 1;
  std::shared_ptr<const Pattern> pat;  // null: a single member at offset 0

  bool simple() const { return !pat; }
  i64 psize() const { return pat ? pat->size : 1; }
  i64 size() const { return reps * psize(); }
  Prog prog() const { return make_prog(base, period, reps); }  // simple pieces only
  i64 at(i64 k) const;
  i64 find(i64 w) const;  // position of w in this piece, or -1
  i64 lo() const;
  i64 hi() const;
  bool same_as(const Piece& o) const {
    return base == o.base && reps == o.reps && (reps == 1 || period == o.period) &&
           (pat ? (o.pat && pat->same_as(*o.pat)) : !o.pat);
  }
};

}  // namespace ringmpi::group
