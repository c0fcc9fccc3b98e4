// The group calls of MPI-3.1 §5.3: accessors, constructors, MPI_Group_free
// and MPI_Comm_group. Argument checks here; the algebra is in lib/group.
#include "api/call.hpp"
#include "core/runtime.hpp"
#include "group/algebra.hpp"
#include "group/validate.hpp"

using namespace ringmpi;
using ringmpi::api::Call;
using ringmpi::group::GroupPtr;

namespace {

int group_arg(Call& call, MPI_Group h, const char* arg, GroupPtr* out) {
  if (h == MPI_GROUP_NULL) return call.fail(MPI_ERR_GROUP, "argument %s is MPI_GROUP_NULL", arg);
  const GroupPtr* g = group::lookup(h);
  if (!g)
    return call.fail(MPI_ERR_GROUP, "argument %s=0x%x is not a valid group (freed, or not a group handle)", arg,
                     static_cast<unsigned>(h));
  *out = *g;
  return MPI_SUCCESS;
}

// Checks the common shape of the constructors: initialized, a valid group
// and a place for the result.
int constructor_args(Call& call, MPI_Group h, const char* arg, GroupPtr* g, MPI_Group* newgroup) {
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, h, arg, g)) return e;
  return call.not_null(newgroup, "newgroup");
}

int array_args(Call& call, int n, const void* array, const char* array_name) {
  if (n < 0) return call.fail(MPI_ERR_ARG, "argument n=%d is negative", n);
  if (n > 0 && !array) return call.fail(MPI_ERR_ARG, "argument %s is NULL but n=%d", array_name, n);
  return MPI_SUCCESS;
}

// Results with no members are MPI_GROUP_EMPTY (MPI-3.1 §5.3.2).
int deliver(Call& call, GroupPtr g, MPI_Group* newgroup) {
  if (g->size() == 0) {
    *newgroup = MPI_GROUP_EMPTY;
    return MPI_SUCCESS;
  }
  const MPI_Group h = group::new_handle(std::move(g));
  if (h == MPI_GROUP_NULL)
    return call.fail(MPI_ERR_INTERN, "no room for another group handle (2^20 groups are live); free some with MPI_Group_free");
  *newgroup = h;
  return MPI_SUCCESS;
}

int fail_with(Call& call, const group::Problem& p) { return call.fail(p.error_class, "%s", p.message.c_str()); }

using SetOp = GroupPtr (*)(const GroupPtr&, const GroupPtr&);

int set_operation(const char* name, SetOp op, MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  Call call(name);
  GroupPtr a, b;
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, group1, "group1", &a)) return e;
  if (int e = group_arg(call, group2, "group2", &b)) return e;
  if (int e = call.not_null(newgroup, "newgroup")) return e;
  return deliver(call, op(a, b), newgroup);
}

}  // namespace

extern "C" {

int MPI_Group_size(MPI_Group group, int* size) {
  Call call("MPI_Group_size");
  GroupPtr g;
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, group, "group", &g)) return e;
  if (int e = call.not_null(size, "size")) return e;
  *size = g->size();
  return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  Call call("MPI_Group_rank");
  GroupPtr g;
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, group, "group", &g)) return e;
  if (int e = call.not_null(rank, "rank")) return e;
  *rank = g->rank_of_world(core::rt().rank);
  return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  Call call("MPI_Group_translate_ranks");
  GroupPtr a, b;
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, group1, "group1", &a)) return e;
  if (int e = group_arg(call, group2, "group2", &b)) return e;
  if (int e = array_args(call, n, ranks1, "ranks1")) return e;
  if (n > 0 && !ranks2) return call.fail(MPI_ERR_ARG, "argument ranks2 is NULL but n=%d", n);
  for (int i = 0; i < n; ++i) {
    const int r = ranks1[i];
    if (r != MPI_PROC_NULL && (r < 0 || r >= a->size()))
      return call.fail(MPI_ERR_RANK, "argument ranks1[%d]=%d is not a rank of group1 (%s%d)", i, r,
                       a->size() ? "valid ranks are 0.." : "it is empty, size ", a->size() ? a->size() - 1 : 0);
  }
  // MPI-2.2 on: MPI_PROC_NULL translates to MPI_PROC_NULL.
  for (int i = 0; i < n; ++i)
    ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : b->rank_of_world(a->world_rank(ranks1[i]));
  return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  Call call("MPI_Group_compare");
  GroupPtr a, b;
  if (int e = call.initialized()) return e;
  if (int e = group_arg(call, group1, "group1", &a)) return e;
  if (int e = group_arg(call, group2, "group2", &b)) return e;
  if (int e = call.not_null(result, "result")) return e;
  *result = group::compare(*a, *b);
  return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  Call call("MPI_Comm_group");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(group, "group")) return e;
  return deliver(call, c->local, group);
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_operation("MPI_Group_union", group::set_union, group1, group2, newgroup);
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_operation("MPI_Group_intersection", group::intersection, group1, group2, newgroup);
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  return set_operation("MPI_Group_difference", group::difference, group1, group2, newgroup);
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  Call call("MPI_Group_incl");
  GroupPtr g;
  if (int e = constructor_args(call, group, "group", &g, newgroup)) return e;
  if (int e = array_args(call, n, ranks, "ranks")) return e;
  if (auto p = group::check_rank_list("ranks", g->size(), n, ranks)) return fail_with(call, p);
  return deliver(call, group::incl(*g, ranks, n), newgroup);
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  Call call("MPI_Group_excl");
  GroupPtr g;
  if (int e = constructor_args(call, group, "group", &g, newgroup)) return e;
  if (int e = array_args(call, n, ranks, "ranks")) return e;
  if (auto p = group::check_rank_list("ranks", g->size(), n, ranks)) return fail_with(call, p);
  return deliver(call, group::excl(g, ranks, n), newgroup);
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  Call call("MPI_Group_range_incl");
  GroupPtr g;
  if (int e = constructor_args(call, group, "group", &g, newgroup)) return e;
  if (int e = array_args(call, n, ranges, "ranges")) return e;
  std::vector<group::Prog> progs;
  if (auto p = group::check_ranges(g->size(), n, ranges, &progs)) return fail_with(call, p);
  return deliver(call, group::range_incl(*g, progs), newgroup);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  Call call("MPI_Group_range_excl");
  GroupPtr g;
  if (int e = constructor_args(call, group, "group", &g, newgroup)) return e;
  if (int e = array_args(call, n, ranges, "ranges")) return e;
  std::vector<group::Prog> progs;
  if (auto p = group::check_ranges(g->size(), n, ranges, &progs)) return fail_with(call, p);
  return deliver(call, group::range_excl(g, progs), newgroup);
}

int MPI_Group_free(MPI_Group* group) {
  Call call("MPI_Group_free");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(group, "group")) return e;
  GroupPtr g;
  if (int e = group_arg(call, *group, "*group", &g)) return e;
  // Freeing MPI_GROUP_EMPTY is allowed (the empty results of the constructors
  // are that handle, and programs free what they get, as MPICH and Open MPI
  // accept); the predefined object itself stays.
  if (*group != MPI_GROUP_EMPTY) group::state().table.remove(*group);
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
