/* Shared by the reorder tests: a synthetic machine of two domains (NUMA
 * nodes, L3 caches) with one cpu each, and rank r pinned to cpu r % 2, so
 * that rank r is in domain r % 2. */
#pragma once

#include <limits.h>
#include <mpi.h>
#include <sched.h>
#include <stdlib.h>

#include "check.h"

/* Before MPI_Init: the machine hwloc will describe. */
static void describe_two_domains(const char *synthetic) { setenv("HWLOC_SYNTHETIC", synthetic, 1); }

/* After MPI_Init: pins this rank to cpu rank % 2; whether every rank could be pinned. */
static int pin_all_pairs(int rank) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(rank % 2, &set);
  int pinned = sched_setaffinity(0, sizeof set, &set) == 0, all_pinned;
  CHECK_MPI(MPI_Allreduce(&pinned, &all_pinned, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
  return all_pinned;
}

/* Neighbour pairs of a topology of n nodes whose two nodes are in different
 * domains, domain[i] being node i's (rows and cols: a grid's shape, or 0). */
typedef int (*crossings_fn)(const int *domain, int n, int rows, int cols);

/* The fewest crossings any placement of the ranks can reach: every choice
 * of the (n + 1) / 2 nodes that domain 0's ranks (the even ones) hold is
 * tried (n <= 20). A reordering can only cut crossings when this is below
 * the identity's, so the tests demand a cut exactly then. */
static int fewest_crossings(crossings_fn f, int n, int rows, int cols) {
  CHECK(n >= 1 && n <= 20);
  int best = INT_MAX, *domain = malloc(sizeof(int) * (size_t)n);
  for (unsigned mask = 0; mask < 1u << n; ++mask) {
    if (__builtin_popcount(mask) != (n + 1) / 2) continue;
    for (int i = 0; i < n; ++i) domain[i] = (mask >> i & 1) ? 0 : 1;
    const int c = f(domain, n, rows, cols);
    if (c < best) best = c;
  }
  free(domain);
  return best;
}
