// One piece of shared memory for the participants of an internal collective
// (a window's segment, a file's shared file pointer).
//
// Participant 0 makes a memfd of the size asked and broadcasts (pid, fd);
// every other participant opens it through /proc/<pid>/fd/<fd> (a new open
// of the same tmpfs file, allowed between processes of one user without
// ptrace rights) and maps it. A final allgather agrees on success, so a
// failure on one participant fails the call on every one, and participant 0
// closes its descriptor only after all have opened it. The memfd has no
// name: the last unmap (or exit) frees it, so nothing survives any exit path.
// The memory starts zeroed.
#pragma once

#include <cstddef>

#include "exchange/exchange.hpp"

namespace ringmpi::exchange {

struct SharedMapping {
  std::byte* base = nullptr;  // this participant's mapping; nullptr when err != 0
  std::size_t bytes = 0;
  int err = 0;          // 0, or the errno of the first participant that failed (the same on all)
  int failed = -1;      // that participant's index
};

// Collective over p. On failure nothing stays mapped on any participant.
SharedMapping map_shared(const Peers& p, std::size_t bytes, const char* name);
// Unmaps m (local).
void unmap_shared(SharedMapping& m);

}  // namespace ringmpi::exchange
