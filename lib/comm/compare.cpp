// MPI_Comm_compare (MPI-3.1 §6.4.1, §6.6.1).
#include <algorithm>

#include "comm/create.hpp"

namespace ringmpi::comm {
namespace {

// MPI_IDENT (same members, same order), MPI_SIMILAR or MPI_UNEQUAL.
int compare_groups(const group::Group& a, const group::Group& b) {
  if (a.size() != b.size()) return MPI_UNEQUAL;
  std::vector<int> x = a.to_world_ranks(), y = b.to_world_ranks();
  if (x == y) return MPI_IDENT;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace

int compare(const Comm& a, const Comm& b) {
  if (&a == &b) return MPI_IDENT;
  if (a.inter != b.inter) return MPI_UNEQUAL;
  const int l = compare_groups(*a.local, *b.local);
  if (!a.inter) return l == MPI_IDENT ? MPI_CONGRUENT : l;
  const int r = compare_groups(*a.remote, *b.remote);
  if (l == MPI_UNEQUAL || r == MPI_UNEQUAL) return MPI_UNEQUAL;
  return l == MPI_IDENT && r == MPI_IDENT ? MPI_CONGRUENT : MPI_SIMILAR;
}

}  // namespace ringmpi::comm
