// Membership in a set of disjoint progressions: value -> position.
//
// Short progressions are expanded into a sorted point list. Long ones are
// filed by |stride| and, inside one stride, by (value mod stride, lowest
// value): two disjoint progressions with the same stride and residue cannot
// overlap in span, so one binary search per distinct stride finds the only
// candidate. A lookup costs O(D log R) for R progressions with D distinct
// strides; the groups MPI programs build have D of 1 or 2.
#pragma once

#include <unordered_map>
#include <vector>

#include "group/prog.hpp"

namespace ringmpi::group {

class RunIndex {
 public:
  // Member j of p has position pos + j.
  void add(const Prog& p, i64 pos);
  void finish();  // after the last add, before find
  // Position of v, or -1.
  i64 find(i64 v) const;

 private:
  static constexpr i64 kShort = 4;
  struct Point {
    i64 v, pos;
  };
  struct Entry {
    i64 residue, lo, count, pos_lo, dir;  // position of lo + k*stride is pos_lo + dir*k
  };
  struct Class {
    i64 stride;
    std::vector<Entry> entries;
  };
  std::vector<Point> points_;
  std::vector<Class> classes_;
  std::unordered_map<i64, std::size_t> class_of_;  // stride -> classes_ index, while adding
};

}  // namespace ringmpi::group
