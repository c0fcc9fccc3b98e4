// Process groups: immutable ordered sets of world ranks.
//
// Groups are shared (GroupPtr) between handles and communicators, so a group
// freed by the user while a communicator still uses it stays valid.
//
// Representation (MPI-3.1 §5.3.2, advice to implementors: range operations
// should not enumerate members): a sequence of pieces (piece.hpp), each a
// strided run of world ranks or a periodic repetition of a short pattern of
// runs. The world group is one piece; MPI_Group_range_incl of (0, n-1, 2)
// is one piece whatever n is. world_rank() is a binary search over the
// pieces' first ranks; rank_of_world() goes through a RunIndex over the
// simple pieces plus an interval search over the periodic ones. Groups of at
// most kDenseMax members also keep dense tables, so both lookups are one
// array access for the communicators real programs build.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/handle.hpp"
#include "group/piece.hpp"
#include "group/run_index.hpp"
#include "mpi.h"

namespace ringmpi::group {

class Group;
using GroupPtr = std::shared_ptr<const Group>;

class Group {
 public:
  // A run of world ranks: first, first+stride, ..., count of them.
  struct Run {
    int first;
    int stride;
    int count;
  };
  static constexpr int kDenseMax = 4096;

  static GroupPtr from_world_ranks(std::vector<int> world_ranks);
  // Runs must be pairwise disjoint, with world ranks in 0..INT_MAX-1.
  static GroupPtr from_runs(const std::vector<Run>& runs);
  static GroupPtr from_pieces(std::vector<Piece> pieces);
  static const GroupPtr& empty();

  int size() const { return static_cast<int>(size_); }
  // World rank of group rank r (0 <= r < size()).
  int world_rank(int r) const {
    if (!dense_.empty()) return dense_[static_cast<std::size_t>(r)];
    return static_cast<int>(at_pieces(r));
  }
  // Group rank of world rank w, or MPI_UNDEFINED.
  int rank_of_world(int w) const {
    if (!table_.empty()) {
      const i64 i = static_cast<i64>(w) - table_lo_;
      return (i >= 0 && i < static_cast<i64>(table_.size())) ? table_[static_cast<std::size_t>(i)]
                                                              : MPI_UNDEFINED;
    }
    const i64 k = find_pieces(w);
    return k < 0 ? MPI_UNDEFINED : static_cast<int>(k);
  }
  std::vector<int> to_world_ranks() const;

  // The representation, for the algebra, the tests and the benchmarks.
  const std::vector<Piece>& pieces() const { return pieces_; }
  i64 rank0(std::size_t piece) const { return rank0_[piece]; }
  // Index of the piece holding group rank r.
  std::size_t piece_of(i64 r) const;
  // Position of world rank w, or -1.
  i64 find(i64 w) const;
  // The same two lookups on the pieces alone, bypassing the dense tables
  // (which are a cache of these; the tests compare both).
  i64 at_pieces(i64 r) const { return pieces_.size() == 1 ? pieces_[0].at(r) : at_slow(r); }
  i64 find_pieces(i64 w) const;
  // Calls f(world_rank) for every member in order.
  template <class F>
  void for_each(F&& f) const {
    for (const Piece& p : pieces_) {
      if (p.simple()) {
        for (i64 j = 0; j < p.reps; ++j) f(p.base + j * p.period);
        continue;
      }
      for (i64 r = 0; r < p.reps; ++r)
        for (const Prog& run : p.pat->runs)
          for (i64 j = 0; j < run.count; ++j) f(p.base + r * p.period + run.at(j));
    }
  }

 private:
  i64 at_slow(i64 r) const;
  void build_lookup();

  std::vector<Piece> pieces_;
  std::vector<i64> rank0_;  // group rank of each piece's first member
  i64 size_ = 0;
  RunIndex simple_index_;
  std::vector<std::uint32_t> periodic_;  // periodic pieces by lowest world rank
  std::vector<i64> periodic_max_hi_;     // running maximum of their highest world ranks
  // Dense tables for small groups.
  std::vector<int> dense_;
  std::vector<int> table_;
  i64 table_lo_ = 0;
};

struct State {
  State();
  core::HandleTable<GroupPtr> table{core::Kind::group};
};
State& state();

// A new user handle for g (MPI_GROUP_NULL if the table is full).
MPI_Group new_handle(GroupPtr g);
// The group behind h, or nullptr for an invalid/freed handle. MPI_GROUP_EMPTY resolves.
const GroupPtr* lookup(MPI_Group h);

}  // namespace ringmpi::group
