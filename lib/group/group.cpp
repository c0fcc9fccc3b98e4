#include "group/group.hpp"

#include "core/runtime.hpp"

namespace ringmpi::group {

std::shared_ptr<const Group> Group::from_world_ranks(std::vector<int> world_ranks) {
  auto g = std::make_shared<Group>();
  g->world_ = std::move(world_ranks);
  return g;
}

int Group::rank_of_world(int w) const {
  for (int i = 0; i < size(); ++i)
    if (world_[i] == w) return i;
  return MPI_UNDEFINED;
}

State::State() {
  table.put_predefined(core::handle_index(MPI_GROUP_EMPTY),
                       std::make_unique<GroupPtr>(Group::from_world_ranks({})));
}

State& state() {
  auto& p = core::rt().groups;
  if (!p) p = std::make_unique<State>();
  return *p;
}

MPI_Group new_handle(GroupPtr g) { return state().table.add(std::make_unique<GroupPtr>(std::move(g))); }

const GroupPtr* lookup(MPI_Group h) { return state().table.get(h); }

}  // namespace ringmpi::group
