#include "verdict.hpp"

#include <signal.h>

#include <cstring>

namespace ringmpi::launcher {

std::string signal_name(int sig) {
  if (const char* abbrev = sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(sig);
}

namespace {

std::string others_clause(int others) {
  if (others <= 0) return "";
  return "; stopping the other " + std::to_string(others) + (others == 1 ? " rank" : " ranks");
}

}  // namespace

Verdict judge(const RankEnd& e) {
  Verdict v;
  const std::string who =
      (e.label.empty() ? "rank " + std::to_string(e.rank) : e.label) + " (pid " + std::to_string(e.pid) + ")";
  const bool by_signal = e.how == CLD_KILLED || e.how == CLD_DUMPED;
  const int status = by_signal ? 128 + e.code : e.code;
  const std::string note_text = e.note_text.empty() ? "" : ": " + e.note_text;

  // The exit note says why a rank chose to die; it wins over the bare status.
  if (e.note == shm::ExitKind::abort) {
    v.message = who + " called MPI_Abort with error code " + std::to_string(e.note_code) + note_text;
  } else if (e.note == shm::ExitKind::fatal_error) {
    v.message = who + " stopped on a fatal MPI error" + note_text;
  } else if (by_signal) {
    const char* desc = strsignal(e.code);
    v.message = who + " was killed by " + signal_name(e.code) + " (signal " + std::to_string(e.code) +
                (desc ? std::string(", ") + desc : "") + (e.how == CLD_DUMPED ? ", core dumped" : "") + ")";
  } else if (e.code != 0) {
    v.message = who + " exited with status " + std::to_string(e.code);
  } else if (e.spawned && !e.called_init) {
    // Its parents wait in MPI_Comm_spawn until it is in MPI_Init.
    v.message = who + " exited with status 0 before calling MPI_Init; a spawned process must call MPI_Init";
  } else if (e.called_init && !e.finalized && e.nranks > 1) {
    // The others would wait for it forever in their next collective or in
    // MPI_Finalize; with one rank nobody is left waiting.
    // Not a crash: the others may be on their way out too (OSU's
    // osu_latency_mt returns from main without MPI_Finalize on every
    // rank), so they get a grace period instead of SIGKILL at once.
    v.message = who + " exited with status 0 after MPI_Init without calling MPI_Finalize";
    v.failed = true;
    v.grace = true;
    v.exit_status = 1;
    if (e.others_running > 0)
      v.message += others_clause(e.others_running) + " unless " + (e.others_running == 1 ? "it ends" : "they end") +
                   " within 1 s";
    return v;
  } else {
    return v;
  }
  v.failed = true;
  v.exit_status = status != 0 ? status : 1;
  v.message += others_clause(e.others_running);
  return v;
}

}  // namespace ringmpi::launcher
