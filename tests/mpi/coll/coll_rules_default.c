/* The compiled-in collective rules (lib/coll/default.rules, issue 34) are
 * what the default choice runs, and the levels above them win in order:
 * a user's rules file (USER=1: tests/mpi/coll/coll_rules_default.rules),
 * then a threshold set through MPI_T (or the environment). Which algorithm
 * ran is read from the process counters coll_<family>_<algorithm>.
 *
 * The bands checked, from lib/coll/default.rules (keep in step with it):
 *   reduce  2  0-511  messages  bound           (RINGMPI_COLL_PAIR_REDUCE: 512)
 *   scan    *  0-256  messages  oversubscribed  (RINGMPI_COLL_SCAN_CHAIN_MAX: 256)
 * each checked on both sides of its boundary; the job is bound when its
 * ranks fit the machine's online cores, as the library counts. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#ifndef USER
#define USER 0
#endif

enum { MESSAGES, SEGMENT, OTHER };

static MPI_Count counter(const char* name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

static int np, me;

/* Which algorithm one call ran, by the family's counters. */
static int ran(const char* family, MPI_Count m0, MPI_Count s0) {
  char m[64], s[64];
  snprintf(m, sizeof m, "coll_%s_messages", family);
  snprintf(s, sizeof s, "coll_%s_segment", family);
  const MPI_Count dm = counter(m) - m0, ds = counter(s) - s0;
  return dm == 1 && ds == 0 ? MESSAGES : ds == 1 && dm == 0 ? SEGMENT : OTHER;
}

/* MPI_Reduce (sum to rank 0) of `bytes` bytes of ints; the algorithm it ran. */
static int reduce_ran(int bytes) {
  int in[256], out[256];
  const int n = bytes / 4;
  for (int i = 0; i < n; ++i) in[i] = me + i;
  const MPI_Count m0 = counter("coll_reduce_messages"), s0 = counter("coll_reduce_segment");
  CHECK_MPI(MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0)
    for (int i = 0; i < n; ++i) CHECK(out[i] == np * (np - 1) / 2 + np * i);
  return ran("reduce", m0, s0);
}

/* MPI_Scan of `bytes` bytes of ints; the algorithm it ran. */
static int scan_ran(int bytes) {
  int in[128], out[128];
  const int n = bytes / 4;
  for (int i = 0; i < n; ++i) in[i] = i;
  const MPI_Count m0 = counter("coll_scan_messages"), s0 = counter("coll_scan_segment");
  CHECK_MPI(MPI_Scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < n; ++i) CHECK(out[i] == (me + 1) * i);
  return ran("scan", m0, s0);
}

/* RINGMPI_COLL_PAIR_REDUCE through MPI_T: reads the compiled rules'
 * boundary; a write decides two-rank reduces ahead of every rules file. */
static void pair_reduce_written(void) {
  int index, count;
  CHECK_MPI(MPI_T_cvar_get_index("RINGMPI_COLL_PAIR_REDUCE", &index));
  MPI_T_cvar_handle h;
  CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
  unsigned long long v = 0;
  CHECK_MPI(MPI_T_cvar_read(h, &v));
  CHECK(v == 512);
  v = 2048;
  CHECK_MPI(MPI_T_cvar_write(h, &v));
  CHECK(reduce_ran(508) == MESSAGES && reduce_ran(512) == MESSAGES && reduce_ran(1024) == MESSAGES);
  v = 0;
  CHECK_MPI(MPI_T_cvar_write(h, &v));
  CHECK(reduce_ran(4) == SEGMENT && reduce_ran(60) == SEGMENT);
  /* The old value back: written, it still decides (as the compiled band). */
  v = 512;
  CHECK_MPI(MPI_T_cvar_write(h, &v));
  CHECK(reduce_ran(508) == MESSAGES && reduce_ran(512) == SEGMENT);
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const int bound = np <= sysconf(_SC_NPROCESSORS_ONLN);
  MPI_Barrier(MPI_COMM_WORLD); /* the segment attached */

  if (np == 2 && bound) {
    if (USER) {
      /* The user's file: reduce on the segment at two ranks, any size. */
      CHECK(reduce_ran(4) == SEGMENT && reduce_ran(60) == SEGMENT && reduce_ran(64) == SEGMENT);
    } else {
      /* The compiled band, each side of its boundary. */
      CHECK(reduce_ran(4) == MESSAGES && reduce_ran(508) == MESSAGES);
      CHECK(reduce_ran(512) == SEGMENT && reduce_ran(1024) == SEGMENT);
    }
    pair_reduce_written();
  } else if (np >= 2 && !bound) {
    if (USER) {
      /* The user's file: oversubscribed scans on the segment, any size. */
      CHECK(scan_ran(4) == SEGMENT && scan_ran(256) == SEGMENT);
    } else {
      /* The compiled chain band, each side of its boundary. */
      CHECK(scan_ran(4) == MESSAGES && scan_ran(256) == MESSAGES);
      CHECK(scan_ran(260) == SEGMENT && scan_ran(512) == SEGMENT);
    }
    /* A bound-only band does not hold for an oversubscribed job. */
    CHECK(reduce_ran(4) == SEGMENT);
  }

  CHECK_MPI(MPI_T_finalize());
  MPI_Finalize();
  if (me == 0) printf("coll_rules_default ok (np %d, %s, user file %d)\n", np, bound ? "bound" : "oversubscribed", USER);
  return 0;
}
