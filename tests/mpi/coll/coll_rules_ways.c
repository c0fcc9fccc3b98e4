/* A rules file naming ways of the segment (RINGMPI_COLL_RULES =
 * tests/mpi/coll/coll_rules_ways.rules, issue 34): a blocking call the rule
 * matches takes the way when the way can run it (the counter
 * coll_<family>_segment_<way> moves by one on every rank), and where it
 * cannot (a bcast larger than a slot region through the slots, MPI_Gatherv
 * through the slots, by address without single copy, no segment at np 1)
 * the call passes on to the next level and succeeds, the way's counter
 * unmoved; nonblocking calls take no rules. Run also under
 * RINGMPI_FORCE_COPY_FALLBACK=1 (single copy refused: the by-address way
 * passes on), and with two NUMA nodes described (NUMA_LAYOUT: a way a rule
 * names runs flat, never through the NUMA leaders the default would take:
 * the counter seg_two_level does not move). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int me, np;

#ifdef NUMA_LAYOUT
/* As coll_algorithms.c: each rank describes two NUMA nodes to hwloc and
 * pins itself to PU 0 (the first half of the ranks) or 1. */
static int numa_setup(void) {
  const char *r = getenv("RINGMPI_RANK"), *n = getenv("RINGMPI_SIZE");
  if (!r || !n) return 0;
  const int rank = atoi(r), size = atoi(n);
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  setenv("HWLOC_SYNTHETIC", "node:2 core:1 pu:1", 1);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(rank < (size + 1) / 2 ? 0 : 1, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 && ncpu >= 2;
}
#endif

static MPI_Count counter(const char* name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return v;
}

int main(int argc, char** argv) {
#ifdef NUMA_LAYOUT
  const int numa = numa_setup();
#else
  const int numa = 0;
#endif
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const char* fallback = getenv("RINGMPI_FORCE_COPY_FALLBACK");
  const int single_copy = !(fallback && strcmp(fallback, "1") == 0);
  const int seg = np >= 2; /* a communicator of one rank has no segment */
  MPI_Barrier(MPI_COMM_WORLD);
  const MPI_Count two_level0 = counter("seg_two_level");

  /* bcast 1 KiB: by address, as the rule says (the segment's own choice
   * would take the slots, and at np 2 the compiled rules' segment too);
   * without single copy the rule passes the call on. */
  static char buf[1 << 20];
  MPI_Count w0 = counter("coll_bcast_segment_address");
  if (me == 0) memset(buf, 7, 1024);
  CHECK_MPI(MPI_Bcast(buf, 1024, MPI_BYTE, 0, MPI_COMM_WORLD));
  CHECK(buf[0] == 7 && buf[1023] == 7);
  CHECK(counter("coll_bcast_segment_address") - w0 == (seg && single_copy));

  /* reduce of 4 ints folding whole vectors (the default would fold per
   * NUMA node first where two nodes are described). */
  int four[4] = {me, 1, 2, 3}, folded[4] = {0, 0, 0, 0};
  w0 = counter("coll_reduce_segment_whole");
  CHECK_MPI(MPI_Reduce(four, folded, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (me == 0) CHECK(folded[0] == np * (np - 1) / 2 && folded[1] == np && folded[3] == 3 * np);
  CHECK(counter("coll_reduce_segment_whole") - w0 == seg);
  /* The ways a rule named ran flat, with or without NUMA nodes. */
  CHECK(counter("seg_two_level") == two_level0);
  if (numa && np >= 3) {
    /* ... where the default choice, for 5 ints (out of the rule's band),
     * takes the NUMA leaders. */
    int five[5] = {1, 1, 1, 1, me}, sum5[5];
    CHECK_MPI(MPI_Reduce(five, sum5, 5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (me == 0) CHECK(sum5[0] == np && sum5[4] == np * (np - 1) / 2);
    CHECK(counter("seg_two_level") > two_level0);
  }

  /* bcast 1 MiB: the rule's way cannot run it (larger than a slot region):
   * the call goes on to the next level, no error, the way not counted. */
  w0 = counter("coll_bcast_segment_slot");
  if (me == 0) memset(buf, 9, sizeof buf);
  CHECK_MPI(MPI_Bcast(buf, (int)sizeof buf, MPI_BYTE, 0, MPI_COMM_WORLD));
  CHECK(buf[0] == 9 && buf[sizeof buf - 1] == 9);
  CHECK(counter("coll_bcast_segment_slot") == w0);

  /* A nonblocking bcast takes no rules (no way has a nonblocking form). */
  w0 = counter("coll_bcast_segment_address");
  MPI_Request rq;
  if (me == 0) memset(buf, 3, 64);
  CHECK_MPI(MPI_Ibcast(buf, 64, MPI_BYTE, 0, MPI_COMM_WORLD, &rq));
  CHECK_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
  CHECK(buf[0] == 3 && buf[63] == 3);
  CHECK(counter("coll_bcast_segment_address") == w0);

  /* scatter by address: with single copy the way runs, without it passes on. */
  int* table = malloc(sizeof(int) * 16 * (size_t)np);
  int part[16];
  for (int i = 0; i < 16 * np; ++i) table[i] = i;
  w0 = counter("coll_scatter_segment_address");
  CHECK_MPI(MPI_Scatter(table, 16, MPI_INT, part, 16, MPI_INT, 0, MPI_COMM_WORLD));
  for (int i = 0; i < 16; ++i) CHECK(part[i] == 16 * me + i);
  CHECK(counter("coll_scatter_segment_address") - w0 == (seg && single_copy));

  /* gather through the slots (as the segment's own choice would, and the
   * compiled rules at np 2); MPI_Gatherv cannot (not every rank knows
   * every block): it passes on without error. */
  for (int i = 0; i < 16; ++i) part[i] = 100 * me + i;
  w0 = counter("coll_gather_segment_slot");
  memset(table, 0, sizeof(int) * 16 * (size_t)np);
  CHECK_MPI(MPI_Gather(part, 16, MPI_INT, table, 16, MPI_INT, 0, MPI_COMM_WORLD));
  if (me == 0)
    for (int i = 0; i < 16 * np; ++i) CHECK(table[i] == 100 * (i / 16) + i % 16);
  CHECK(counter("coll_gather_segment_slot") - w0 == seg);
  int* counts = malloc(sizeof(int) * (size_t)np);
  int* displs = malloc(sizeof(int) * (size_t)np);
  for (int j = 0; j < np; ++j) {
    counts[j] = 1 + j % 16;
    displs[j] = 16 * j;
  }
  memset(table, 0, sizeof(int) * 16 * (size_t)np);
  CHECK_MPI(MPI_Gatherv(part, counts[me], MPI_INT, table, counts, displs, MPI_INT, 0, MPI_COMM_WORLD));
  if (me == 0)
    for (int j = 0; j < np; ++j)
      for (int i = 0; i < counts[j]; ++i) CHECK(table[16 * j + i] == 100 * j + i);
  /* (No counter to check: the segment's own choice, which the call passed
   * on to, may take the slots for the blocks that fit, rank by rank.) */

  /* allreduce by chunks (any contiguous vector; the segment's own choice
   * takes blocks for 12000 bytes, the compiled rules messages at np 2). */
  enum { kCount = 3000 };
  static int vec[kCount], sum[kCount];
  for (int i = 0; i < kCount; ++i) vec[i] = i + me;
  w0 = counter("coll_allreduce_segment_chunks");
  CHECK_MPI(MPI_Allreduce(vec, sum, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  for (int i = 0; i < kCount; ++i) CHECK(sum[i] == np * i + np * (np - 1) / 2);
  CHECK(counter("coll_allreduce_segment_chunks") - w0 == seg);
  /* ... but a derived (non-contiguous) datatype cannot be reduced on the segment: passes on. */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  w0 = counter("coll_allreduce_segment_chunks");
  CHECK_MPI(MPI_Allreduce(vec, sum, 10, pair, MPI_SUM, MPI_COMM_WORLD));
  for (int k = 0; k < 10; ++k) {
    CHECK(sum[3 * k] == np * (3 * k) + np * (np - 1) / 2);
    CHECK(sum[3 * k + 2] == np * (3 * k + 2) + np * (np - 1) / 2);
  }
  CHECK(counter("coll_allreduce_segment_chunks") == w0);
  CHECK_MPI(MPI_Type_free(&pair));

  /* exscan by the chain through the slots (the compiled rules: messages at
   * np 2 and oversubscribed); MPI_Scan is out of the rule (family exscan). */
  int x = me + 1, pre = -1;
  w0 = counter("coll_scan_segment_chain");
  CHECK_MPI(MPI_Exscan(&x, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  if (me > 0) CHECK(pre == me * (me + 1) / 2);
  CHECK(counter("coll_scan_segment_chain") - w0 == seg);
  CHECK_MPI(MPI_Scan(&x, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(pre == (me + 1) * (me + 2) / 2);

  free(table);
  free(counts);
  free(displs);
  MPI_Finalize();
  return 0;
}
