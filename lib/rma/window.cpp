// Window construction and destruction (invariants: window.hpp).
//
// Construction is two rounds on a private duplicate of the user's
// communicator: an allgather of every rank's (size, disp_unit, base, pid),
// after which all ranks compute the same layout; then the segment is made
// and mapped by every rank (exchange::map_shared: a memfd of rank 0, agreed
// on by all, so a failure on one rank fails the call on every rank).
#include "rma/window.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "coll/barrier.hpp"
#include "coll/base.hpp"
#include "comm/create.hpp"
#include "core/runtime.hpp"
#include "exchange/shared_mapping.hpp"

namespace ringmpi::rma {

State& make_state() {
  auto& p = core::rt().rma;
  if (!p) p = std::make_unique<State>();
  return *p;
}

Window::~Window() {
  if (seg != nullptr) munmap(seg, seg_bytes);
}

bool Window::in_access_group(int t) const {
  if (!access_open) return false;
  for (int g : access_group)
    if (g == t) return true;
  return false;
}

bool Window::epoch_open() const {
  if (lock_all || access_open || exposure_open) return true;
  for (Held h : held)
    if (h != Held::none) return true;
  return false;
}

namespace {

struct RankInfo {
  std::int64_t size;
  std::uint64_t base;
  std::int64_t disp_unit;  // an MPI_Aint: the _c constructors take units beyond an int
  std::int32_t pid;
  std::int32_t error;  // a LocalError's class, MPI_SUCCESS if none
};

std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

}  // namespace

Made create_window(Flavor flavor, MPI_Comm comm_h, MPI_Aint size, MPI_Aint disp_unit, void* user_base, bool noncontig,
                   const LocalError& local) {
  Made made;
  // Errors on a window go to the window's handler: MPI_ERRORS_ARE_FATAL
  // until MPI_Win_set_errhandler changes it (MPI-3.1 §8.3.2).
  comm::Made dup = comm::private_dup(comm_h, comm::lookup_errhandler(MPI_ERRORS_ARE_FATAL));
  if (dup.code != MPI_SUCCESS) {
    made.code = dup.code;
    made.why = dup.why;
    return made;
  }
  comm::Comm* wc = comm::lookup(dup.handle);
  const coll::Peers peers = coll::peers_of(*wc);

  auto w = std::make_unique<Window>();
  w->flavor = flavor;
  w->comm = dup.handle;
  w->rank = wc->rank;
  w->size = wc->size();
  w->world = wc->peer_world;
  const int n = w->size;

  RankInfo mine{static_cast<std::int64_t>(size), reinterpret_cast<std::uint64_t>(user_base),
                static_cast<std::int64_t>(disp_unit), static_cast<std::int32_t>(getpid()), local.code};
  std::vector<RankInfo> all(n);
  // Mask bit 0: every rank's arguments are valid; bit 1: every rank asked
  // for a contiguous layout (one rank asking alloc_shared_noncontig makes
  // the whole window non-contiguous: the offsets must agree everywhere).
  std::uint64_t mask = (local.code == MPI_SUCCESS ? 1u : 0u) | (noncontig ? 0u : 2u);
  coll::allgather_and(peers, &mine, sizeof mine, all.data(), &mask, 1);
  if ((mask & 1) == 0) {
    comm::destroy(dup.handle);
    if (local.code != MPI_SUCCESS) {
      made.code = local.code;
      made.why = local.why;
      return made;
    }
    int bad = 0;
    while (all[bad].error == MPI_SUCCESS) ++bad;
    made.code = all[bad].error;
    made.why = "rank " + std::to_string(bad) + " of the communicator passed an invalid argument to the same call, "
               "so no window was made";
    return made;
  }
  w->pid.resize(n);
  w->win_size.resize(n);
  w->disp_unit.resize(n);
  w->base.resize(n);
  w->offset.assign(n, 0);
  for (int r = 0; r < n; ++r) {
    w->pid[r] = all[r].pid;
    w->win_size[r] = static_cast<MPI_Aint>(all[r].size);
    w->disp_unit[r] = static_cast<MPI_Aint>(all[r].disp_unit);
    w->base[r] = static_cast<std::uintptr_t>(all[r].base);
  }

  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t nn = std::size_t(n) * std::size_t(n);
  const std::size_t counters_end = sizeof(TargetCtl) * std::size_t(n) + 2 * nn * sizeof(std::atomic<std::uint32_t>);
  const std::size_t attach_at = round_up(counters_end, alignof(AttachList));
  const std::size_t ctl_bytes =
      flavor == Flavor::dynamic ? attach_at + sizeof(AttachList) * std::size_t(n) : counters_end;
  std::size_t at = round_up(ctl_bytes, page);
  const bool holds_memory = flavor == Flavor::allocate || flavor == Flavor::shared;
  w->noncontig = (mask & 2) == 0 || flavor == Flavor::allocate;
  if (holds_memory) {
    for (int r = 0; r < n; ++r) {
      if (w->noncontig) at = round_up(at, page);
      w->offset[r] = at;
      at += static_cast<std::size_t>(w->win_size[r]);
    }
  }
  w->seg_bytes = round_up(at == 0 ? page : at, page);

  // Round 2: one shared segment for the window (exchange/shared_mapping.hpp).
  exchange::SharedMapping seg = exchange::map_shared(peers, w->seg_bytes, "ringmpi-window");
  if (seg.err != 0) {
    made.code = MPI_ERR_NO_MEM;
    made.why = "could not share the window's memory segment of " + std::to_string(w->seg_bytes) +
               " bytes (rank " + std::to_string(seg.failed) + ": " + std::strerror(seg.err) + ")";
    comm::destroy(w->comm);
    return made;
  }
  w->seg = seg.base;

  w->ctl = reinterpret_cast<TargetCtl*>(w->seg);
  auto* counters = reinterpret_cast<std::atomic<std::uint32_t>*>(w->seg + sizeof(TargetCtl) * std::size_t(n));
  w->post = counters;
  w->complete = counters + nn;
  if (flavor == Flavor::dynamic) w->attach = reinterpret_cast<AttachList*>(w->seg + attach_at);
  w->held.assign(n, Held::none);
  w->posts_seen.assign(n, 0);
  w->completes_seen.assign(n, 0);

  switch (flavor) {
    case Flavor::allocate:
    case Flavor::shared:
      made.base = size > 0 ? static_cast<void*>(w->memory_of(w->rank)) : nullptr;
      break;
    case Flavor::create:
      made.base = user_base;
      break;
    case Flavor::dynamic:
      made.base = nullptr;
      break;
  }
  w->attr_base = made.base;
  w->attr_size = size;
  w->attr_disp_unit = disp_unit <= INT_MAX ? static_cast<int>(disp_unit) : MPI_UNDEFINED;
  w->attr_flavor = static_cast<int>(flavor);
  w->serial = ++state().made;
  const MPI_Win h = state().table.add(std::move(w));
  if (h == MPI_WIN_NULL) {
    made.code = MPI_ERR_NO_MEM;
    made.why = "too many windows are alive";
    comm::destroy(dup.handle);
    return made;
  }
  comm::lookup(dup.handle)->owner = h;  // its user error handler gets h
  made.handle = h;
  return made;
}

void free_window(MPI_Win h) {
  Window* w = lookup(h);
  // Nobody unmaps before every rank is done with the segment: a late origin
  // may still be copying into this rank's memory (MPI-3.1 §11.2.5: free is
  // collective and waits for all RMA on the window to complete).
  coll::barrier(w->comm, *comm::lookup(w->comm));
  const MPI_Comm c = w->comm;
  std::unique_ptr<Window> owned = state().table.remove(h);
  owned.reset();
  comm::destroy(c);
}

}  // namespace ringmpi::rma
