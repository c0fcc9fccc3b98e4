// Process groups: immutable ordered sets of world ranks.
//
// Groups are shared (GroupPtr) between handles and communicators, so a group
// freed by the user while a communicator still uses it stays valid.
#pragma once

#include <memory>
#include <vector>

#include "core/handle.hpp"
#include "mpi.h"

namespace ringmpi::group {

class Group {
 public:
  static std::shared_ptr<const Group> from_world_ranks(std::vector<int> world_ranks);
  int size() const { return static_cast<int>(world_.size()); }
  // World rank of group rank r (0 <= r < size()).
  int world_rank(int r) const { return world_[r]; }
  // Group rank of world rank w, or MPI_UNDEFINED.
  int rank_of_world(int w) const;
  std::vector<int> to_world_ranks() const { return world_; }

 private:
  std::vector<int> world_;
};

using GroupPtr = std::shared_ptr<const Group>;

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
