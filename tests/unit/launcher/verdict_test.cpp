#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>

#include "../../../launcher/verdict.hpp"

using namespace ringmpi::launcher;
using ringmpi::shm::ExitKind;

namespace {
RankEnd exited(int status) {
  RankEnd e;
  e.rank = 2;
  e.pid = 4242;
  e.how = CLD_EXITED;
  e.code = status;
  e.nranks = 4;
  e.called_init = true;
  e.finalized = true;
  return e;
}
}  // namespace

TEST_CASE("verdict: exit 0 after MPI_Finalize, or from a program without MPI, is success") {
  CHECK_FALSE(judge(exited(0)).failed);
  RankEnd plain = exited(0);
  plain.called_init = plain.finalized = false;
  CHECK_FALSE(judge(plain).failed);
}

TEST_CASE("verdict: a non-zero exit fails with that status") {
  RankEnd e = exited(3);
  e.others_running = 3;
  const Verdict v = judge(e);
  CHECK(v.failed);
  CHECK(v.exit_status == 3);
  CHECK(v.message == "rank 2 (pid 4242) exited with status 3; stopping the other 3 ranks");
}

TEST_CASE("verdict: death by signal is 128+signal and names the signal") {
  RankEnd e = exited(SIGSEGV);
  e.how = CLD_DUMPED;
  const Verdict v = judge(e);
  CHECK(v.failed);
  CHECK(v.exit_status == 128 + SIGSEGV);
  CHECK(v.message.find("killed by SIGSEGV (signal 11") != std::string::npos);
  CHECK(v.message.find("core dumped") != std::string::npos);
  CHECK(v.message.find('\n') == std::string::npos);
  CHECK(signal_name(SIGKILL) == "SIGKILL");
  CHECK(signal_name(1000) == "signal 1000");
}

TEST_CASE("verdict: MPI_Abort and fatal errors are told with the exit note") {
  RankEnd e = exited(5);
  e.note = ExitKind::abort;
  e.note_code = 5;
  e.note_text = "rank 2 called MPI_Abort(MPI_COMM_WORLD, 5)";
  Verdict v = judge(e);
  CHECK(v.failed);
  CHECK(v.exit_status == 5);
  CHECK(v.message == "rank 2 (pid 4242) called MPI_Abort with error code 5: rank 2 called MPI_Abort(MPI_COMM_WORLD, 5)");
  e.note = ExitKind::fatal_error;
  e.note_text = "rank 2: MPI_Send: invalid rank";
  e.code = 1;
  v = judge(e);
  CHECK(v.exit_status == 1);
  CHECK(v.message.find("fatal MPI error: rank 2: MPI_Send: invalid rank") != std::string::npos);
}

TEST_CASE("verdict: exit 0 after MPI_Init without MPI_Finalize fails a multi-rank job with status 1") {
  RankEnd e = exited(0);
  e.finalized = false;
  e.others_running = 1;
  const Verdict v = judge(e);
  CHECK(v.failed);
  CHECK(v.exit_status == 1);
  CHECK(v.grace);
  CHECK(v.message.find("without calling MPI_Finalize; stopping the other 1 rank unless it ends within 1 s") !=
        std::string::npos);
  e.nranks = 1;
  e.others_running = 0;
  CHECK_FALSE(judge(e).failed);
}
