// Argument checks of the group constructors that need the group's algebra:
// rank lists (incl/excl) and range triples (range_incl/range_excl). They
// return the error class and a message naming the argument, the bad value
// and why; lib/api hands them to the error handler.
#pragma once

#include <string>
#include <vector>

#include "group/prog.hpp"

namespace ringmpi::group {

struct Problem {
  int error_class = 0;  // MPI_SUCCESS
  std::string message;
  explicit operator bool() const { return error_class != 0; }
};

// Every ranks[i] must be a rank of a group of `size` members, each named once.
Problem check_rank_list(const char* arg, i64 size, int n, const int* ranks);

// Checks ranges[0..n) against a group of `size` members (MPI-3.1 §5.3.2:
// every computed rank valid, all distinct, stride nonzero) without
// enumerating them, and returns the progressions in `out`.
Problem check_ranges(i64 size, int n, const int (*ranges)[3], std::vector<Prog>* out);

}  // namespace ringmpi::group
