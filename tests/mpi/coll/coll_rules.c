/* The collective rules file (RINGMPI_COLL_RULES, issue 34): a rule makes
 * the default choice prefer an algorithm in its np and bytes band, when
 * that algorithm can run the call; a forced RINGMPI_COLL_<FAMILY> still
 * wins. Run with tests/mpi/coll/coll_rules.rules (RULES=1), without any
 * rules file (RULES=0), and with the rules and RINGMPI_COLL_BCAST=schedule
 * (FORCED=1). Which algorithm ran is read from the process counters
 * coll_<family>_<algorithm> (MPIX_Query_counter). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#ifndef RULES
#define RULES 1
#endif
#ifndef FORCED
#define FORCED 0
#endif

static MPI_Count counter(const char* name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

/* How many of `calls` bcasts of `bytes` ran as each algorithm. */
static void bcasts(int bytes, int calls, MPI_Count* messages, MPI_Count* segment, MPI_Count* schedule) {
  static char buf[1 << 16];
  const MPI_Count m0 = counter("coll_bcast_messages"), s0 = counter("coll_bcast_segment"),
                  h0 = counter("coll_bcast_schedule");
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < calls; ++i) {
    if (rank == 0) memset(buf, i + 1, (size_t)bytes);
    CHECK_MPI(MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD));
    CHECK(bytes == 0 || (buf[0] == (char)(i + 1) && buf[bytes - 1] == (char)(i + 1)));
  }
  *messages = counter("coll_bcast_messages") - m0;
  *segment = counter("coll_bcast_segment") - s0;
  *schedule = counter("coll_bcast_schedule") - h0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int np, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD); /* the segment attached, its barrier kind set */

  /* bcast 1 KiB: the rules say messages at np 2..3; built in, np 3 takes
   * the segment (it fits a slot region), np 2 messages (the two-rank rule,
   * unless oversubscribed), np 1 no algorithm moves anything. */
  MPI_Count msg, seg, sched;
  bcasts(1024, 5, &msg, &seg, &sched);
  if (FORCED) {
    CHECK(sched == 5 && msg == 0 && seg == 0);
  } else if (RULES && (np == 2 || np == 3)) {
    CHECK(msg == 5 && seg == 0 && sched == 0);
  } else if (np >= 3) {
    CHECK(msg == 0 && seg + sched == 5); /* out of the band: the built-in choice */
  }

  /* allreduce of one int at np >= 3: the rules prefer schedule up to 64
   * bytes; 1 KiB is out of the band. */
  const MPI_Count h0 = counter("coll_allreduce_schedule");
  int one = 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == np);
  const MPI_Count small = counter("coll_allreduce_schedule") - h0;
  int big[256], bigsum[256];
  for (int i = 0; i < 256; ++i) big[i] = i;
  CHECK_MPI(MPI_Allreduce(big, bigsum, 256, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < 256; ++i) CHECK(bigsum[i] == i * np);
  const MPI_Count large = counter("coll_allreduce_schedule") - h0 - small;
  if (np >= 3) CHECK(small == (RULES ? 1 : 0) && large == 0);

  /* scan: the rules prefer schedule, which has no blocking form, so the
   * built-in choice runs the call (a rule is a preference, not a force). */
  const MPI_Count sc0 = counter("coll_scan_schedule");
  int pre = 0;
  CHECK_MPI(MPI_Scan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(pre == rank + 1);
  CHECK(counter("coll_scan_schedule") == sc0);

  MPI_Finalize();
  if (rank == 0) printf("coll_rules ok (np %d, rules %d, forced %d)\n", np, RULES, FORCED);
  return 0;
}
