#include "core/runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace ringmpi::core {

void abort_job(shm::ExitKind kind, int code, const char* text) {
  Runtime& r = rt();
  if (r.arena.mapped() && r.rank >= 0 && std::uint32_t(r.rank) < r.arena.nranks()) {
    shm::ExitNote& note = r.arena.slot(r.rank).exit_note;
    note.code = code;
    std::snprintf(note.text, sizeof note.text, "%s", text);
    note.kind.store(static_cast<std::uint32_t>(kind), std::memory_order_release);
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const int status = (code >= 1 && code <= 255) ? code : 1;
  _exit(status);
}

}  // namespace ringmpi::core
