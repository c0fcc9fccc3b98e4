// Windows still alive at MPI_Finalize (window.hpp: live_windows,
// release_all_windows).
//
// MPI-3.1 §8.7 makes the program complete its communication before
// MPI_Finalize, and an implementation clean up what is left. Freeing a window
// is collective because a late origin may still copy into a rank's memory
// (free_window waits for everyone first). At finalize that wait is already
// done: MPI_Finalize releases windows only after the finalize barrier, which
// every rank enters after its last RMA call, and every RMA call is complete
// when it returns (transfer.hpp). So each rank unmaps its windows on its own,
// without a round per window, and no two ranks need to agree on an order.
// The windows' attribute delete callbacks run before the barrier, oldest
// window first, while MPI is still usable, as MPI_Win_free would run them.
// The segments are memfds: the last unmap (or the process's exit) gives the
// memory back to the kernel, and nothing is left in /dev/shm or the arena.
#include <algorithm>
#include <cstdio>

#include "comm/comm.hpp"
#include "core/runtime.hpp"
#include "rma/window.hpp"

namespace ringmpi::rma {

std::vector<MPI_Win> live_windows() {
  std::vector<std::pair<std::uint64_t, MPI_Win>> by_age;
  state().table.for_each([&](int h, const Window& w) { by_age.emplace_back(w.serial, h); });
  std::sort(by_age.begin(), by_age.end());
  std::vector<MPI_Win> out;
  for (const auto& [serial, h] : by_age) out.push_back(h);
  return out;
}

void delete_window_attributes() {
  for (MPI_Win h : live_windows()) {
    Window* w = lookup(h);
    if (w == nullptr) continue;  // a callback freed it
    int failed = 0;
    if (int e = core::delete_attributes_at_exit(core::AttrObject::win, h, w->attrs, &failed))
      std::fprintf(stderr,
                   "ringmpi: rank %d: MPI_Finalize: the delete callback of keyval 0x%x on window 0x%x returned "
                   "error code %d; the attribute was dropped and MPI_Finalize goes on\n",
                   core::rt().rank, static_cast<unsigned>(failed), static_cast<unsigned>(h), e);
  }
}

void release_all_windows() {
  for (MPI_Win h : live_windows()) {
    std::unique_ptr<Window> w = state().table.remove(h);
    const MPI_Comm c = w->comm;
    w.reset();  // unmaps the segment
    comm::destroy(c);
  }
}

}  // namespace ringmpi::rma
