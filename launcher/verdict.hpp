// How a reaped rank ended, and whether that fails the job: the one-line
// message mpiexec prints and the exit status it passes on. Pure functions of
// the facts gathered in job.cpp (wait status + the rank's arena slot).
#pragma once

#include <sys/types.h>

#include <string>

#include "shm/arena.hpp"

namespace ringmpi::launcher {

struct RankEnd {
  int rank = 0;
  std::string label;  // how messages name it ("rank 3", "spawn 1 rank 0 (...)"); empty: "rank N"
  bool spawned = false;  // started by MPI_Comm_spawn: exiting before MPI_Init fails the job
  pid_t pid = 0;
  int how = 0;            // CLD_EXITED, CLD_KILLED or CLD_DUMPED (waitid)
  int code = 0;           // exit status or signal number
  shm::ExitKind note = shm::ExitKind::none;
  int note_code = 0;
  std::string note_text;
  bool called_init = false;  // RankSlot::pid was set by MPI_Init
  bool finalized = false;
  int nranks = 1;
  int others_running = 0;  // ranks of the job not reaped yet
};

struct Verdict {
  bool failed = false;
  int exit_status = 0;   // mpiexec's exit status if this is the first failure
  std::string message;   // one line, no newline; empty when !failed
  // The other ranks may still end by themselves: they get kKillGrace
  // (job.cpp) before SIGKILL, so what they print on their way out is kept.
  bool grace = false;
};

Verdict judge(const RankEnd& end);

// "SIGSEGV" for 11, "signal 99" for unknown numbers.
std::string signal_name(int sig);

}  // namespace ringmpi::launcher
