// RMA synchronisation calls (MPI-3.1 §11.5) with their epoch checks
// (MPI_ERR_RMA_SYNC); the protocols are in lib/rma/sync.cpp.
#include <algorithm>
#include <vector>

#include "api/lenient.hpp"
#include "api/rma_check.hpp"
#include "group/group.hpp"
#include "rma/sync.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int assert_arg(Call& call, int assert_bits, int allowed) {
  if ((assert_bits & ~allowed) == 0) return MPI_SUCCESS;
  return call.fail(MPI_ERR_ASSERT, "argument assert=%d holds bits that are not valid assertions for this call",
                   assert_bits);
}

// The members of `group` as ranks of w's group.
int group_ranks(Call& call, const rma::Window& w, MPI_Group group, std::vector<int>* out) {
  const group::GroupPtr* g = group::lookup(group);
  if (g == nullptr) return call.fail(MPI_ERR_GROUP, "argument group=0x%x is not a valid group", unsigned(group));
  for (int world : (*g)->to_world_ranks()) {
    const auto it = std::find(w.world.begin(), w.world.end(), world);
    if (it == w.world.end())
      return call.fail(MPI_ERR_GROUP, "argument group holds world rank %d, which is not in the window's group", world);
    out->push_back(static_cast<int>(it - w.world.begin()));
  }
  return MPI_SUCCESS;
}

int passive_open(Call& call, const rma::Window& w) {
  const bool any = w.lock_all || std::any_of(w.held.begin(), w.held.end(), [](rma::Held h) { return h != rma::Held::none; });
  if (!any) return MPI_SUCCESS;
  return call.fail(MPI_ERR_RMA_SYNC, "a passive-target epoch (lock or lock_all) is open on the window");
}

// Distinct access epochs of one rank on one window must be disjoint
// (MPI-3.1 §11.5): no lock or lock_all inside a start...complete epoch.
int access_open(Call& call, const rma::Window& w) {
  if (!w.access_open) return MPI_SUCCESS;
  return call.fail(MPI_ERR_RMA_SYNC, "an access epoch begun by MPI_Win_start is still open (MPI_Win_complete first)");
}

int pscw_open(Call& call, const rma::Window& w) {
  if (w.access_open) return call.fail(MPI_ERR_RMA_SYNC, "an access epoch begun by MPI_Win_start is still open");
  if (w.exposure_open) return call.fail(MPI_ERR_RMA_SYNC, "an exposure epoch begun by MPI_Win_post is still open");
  return MPI_SUCCESS;
}

[[gnu::cold]] int no_lock(Call& call, int rank) {
  return call.fail(MPI_ERR_RMA_SYNC, "this rank holds no lock on target rank %d (MPI_Win_lock or MPI_Win_lock_all)",
                   rank);
}

// Every flush asks: the passing case inline, the message out of line.
inline int need_lock(Call& call, const rma::Window& w, int rank) {
  if (__builtin_expect(w.lock_all || w.held[rank] != rma::Held::none, 1)) return MPI_SUCCESS;
  return no_lock(call, rank);
}

int need_any_lock(Call& call, const rma::Window& w) {
  if (w.lock_all) return MPI_SUCCESS;
  for (rma::Held h : w.held)
    if (h != rma::Held::none) return MPI_SUCCESS;
  return call.fail(MPI_ERR_RMA_SYNC, "no passive-target epoch is open (MPI_Win_lock or MPI_Win_lock_all)");
}

// MPI_PROC_NULL as the rank of MPI_Win_lock, unlock, flush or flush_local:
// the standard names no such target for these calls, but MPICH accepts it
// as a no-op (no epoch is opened or closed, as communication calls with
// target MPI_PROC_NULL do nothing), so it is one here (issue 35).
[[gnu::cold]] int proc_null_sync(const Call& call) {
  api::lenient(call, "rank MPI_PROC_NULL (a no-op)");
  return MPI_SUCCESS;
}

// Inlined into each entry point (the name a constant there): a put + flush
// pair is two calls' checks and one fence, and out of line this frame cost
// as much as the checks.
[[gnu::always_inline]] inline int flush_one(const char* name, int rank, MPI_Win win) {
  Call call(name);
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (__builtin_expect(rank == MPI_PROC_NULL, 0)) return proc_null_sync(call);
  if (int e = api::rank_arg(call, *w, rank, "rank")) return e;
  if (int e = need_lock(call, *w, rank)) return e;
  rma::memory_barrier();
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int flush_all(const char* name, MPI_Win win) {
  Call call(name);
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = need_any_lock(call, *w)) return e;
  rma::memory_barrier();
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Win_fence(int assert_bits, MPI_Win win) {
  Call call("MPI_Win_fence");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = assert_arg(call, assert_bits, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED))
    return e;
  if (int e = pscw_open(call, *w)) return e;
  if (int e = passive_open(call, *w)) return e;
  rma::fence(*w, assert_bits);
  return MPI_SUCCESS;
}

int MPI_Win_post(MPI_Group group, int assert_bits, MPI_Win win) {
  Call call("MPI_Win_post");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = assert_arg(call, assert_bits, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)) return e;
  if (w->exposure_open) return call.fail(MPI_ERR_RMA_SYNC, "an exposure epoch begun by MPI_Win_post is still open");
  std::vector<int> ranks;
  if (int e = group_ranks(call, *w, group, &ranks)) return e;
  rma::post(*w, std::move(ranks));
  return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group group, int assert_bits, MPI_Win win) {
  Call call("MPI_Win_start");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = assert_arg(call, assert_bits, MPI_MODE_NOCHECK)) return e;
  if (w->access_open) return call.fail(MPI_ERR_RMA_SYNC, "an access epoch begun by MPI_Win_start is still open");
  if (int e = passive_open(call, *w)) return e;
  std::vector<int> ranks;
  if (int e = group_ranks(call, *w, group, &ranks)) return e;
  // A start ends the fence epoch of the preceding fence (MPI-3.1 §11.5).
  w->fence_open = false;
  rma::start(*w, std::move(ranks));
  return MPI_SUCCESS;
}

int MPI_Win_complete(MPI_Win win) {
  Call call("MPI_Win_complete");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (!w->access_open) return call.fail(MPI_ERR_RMA_SYNC, "no access epoch begun by MPI_Win_start is open");
  rma::complete(*w);
  return MPI_SUCCESS;
}

int MPI_Win_wait(MPI_Win win) {
  Call call("MPI_Win_wait");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (!w->exposure_open) return call.fail(MPI_ERR_RMA_SYNC, "no exposure epoch begun by MPI_Win_post is open");
  rma::wait(*w);
  return MPI_SUCCESS;
}

int MPI_Win_test(MPI_Win win, int* flag) {
  Call call("MPI_Win_test");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  if (!w->exposure_open) return call.fail(MPI_ERR_RMA_SYNC, "no exposure epoch begun by MPI_Win_post is open");
  *flag = rma::test(*w) ? 1 : 0;
  return MPI_SUCCESS;
}

int MPI_Win_lock(int lock_type, int rank, int assert_bits, MPI_Win win) {
  Call call("MPI_Win_lock");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
    return call.fail(MPI_ERR_LOCKTYPE, "argument lock_type=%d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED",
                     lock_type);
  if (rank == MPI_PROC_NULL) {
    if (int e = assert_arg(call, assert_bits, MPI_MODE_NOCHECK)) return e;
    return proc_null_sync(call);
  }
  if (int e = api::rank_arg(call, *w, rank, "rank")) return e;
  if (int e = assert_arg(call, assert_bits, MPI_MODE_NOCHECK)) return e;
  if (w->lock_all || w->held[rank] != rma::Held::none)
    return call.fail(MPI_ERR_RMA_SYNC, "this rank already holds a lock on target rank %d", rank);
  if (int e = access_open(call, *w)) return e;
  rma::lock(*w, rank, lock_type == MPI_LOCK_EXCLUSIVE);
  return MPI_SUCCESS;
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  Call call("MPI_Win_unlock");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (rank == MPI_PROC_NULL) return proc_null_sync(call);
  if (int e = api::rank_arg(call, *w, rank, "rank")) return e;
  if (w->held[rank] == rma::Held::none)
    return call.fail(MPI_ERR_RMA_SYNC, "this rank holds no lock on target rank %d taken by MPI_Win_lock", rank);
  rma::unlock(*w, rank);
  return MPI_SUCCESS;
}

int MPI_Win_lock_all(int assert_bits, MPI_Win win) {
  Call call("MPI_Win_lock_all");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (int e = assert_arg(call, assert_bits, MPI_MODE_NOCHECK)) return e;
  if (int e = passive_open(call, *w)) return e;
  if (int e = access_open(call, *w)) return e;
  rma::lock_all(*w);
  return MPI_SUCCESS;
}

int MPI_Win_unlock_all(MPI_Win win) {
  Call call("MPI_Win_unlock_all");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  if (!w->lock_all) return call.fail(MPI_ERR_RMA_SYNC, "no epoch begun by MPI_Win_lock_all is open");
  rma::unlock_all(*w);
  return MPI_SUCCESS;
}

int MPI_Win_flush(int rank, MPI_Win win) { return flush_one("MPI_Win_flush", rank, win); }
int MPI_Win_flush_local(int rank, MPI_Win win) { return flush_one("MPI_Win_flush_local", rank, win); }
int MPI_Win_flush_all(MPI_Win win) { return flush_all("MPI_Win_flush_all", win); }
int MPI_Win_flush_local_all(MPI_Win win) { return flush_all("MPI_Win_flush_local_all", win); }

int MPI_Win_sync(MPI_Win win) {
  Call call("MPI_Win_sync");
  rma::Window* w;
  if (int e = api::win_arg(call, win, "win", &w)) return e;
  rma::memory_barrier();
  return MPI_SUCCESS;
}

}  // extern "C"
