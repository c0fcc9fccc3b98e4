// Events of the tool information interface (MPI-4.0 §15.3.8) raised by the
// layers below lib/api: where they happen, one inline test of a bit that is
// clear unless a tool registered a callback for that event
// (lib/api/tool_events.cpp sets Runtime::event_mask and event_sink).
//
// The sink runs at the raise point, inside the MPI call (often inside the
// progress engine): it calls only the callbacks whose registration promised
// at least MPI_T_CB_REQUIRE_MPI_RESTRICTED, which may call no MPI function
// but the MPI_T_event_* readers (they take the tool lock, never the call lock).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/runtime.hpp"

namespace ringmpi::core {

enum class Event : int {
  ring_full,       // an eager send found its ring full: (destination world rank, bytes)
  rndv_start,      // a rendezvous send started: (destination world rank, bytes)
  segment_attach,  // a communicator attached its shared segment: (members, owner world rank, segment index)
};
inline constexpr int kEvents = 3;

inline void raise_event(Event e, std::int64_t a, std::int64_t b, std::int64_t c = 0) {
  Runtime& r = rt();
  if (__builtin_expect((r.event_mask.load(std::memory_order_acquire) >> static_cast<int>(e)) & 1u, 0))
    r.event_sink(static_cast<int>(e), a, b, c);
}

}  // namespace ringmpi::core
