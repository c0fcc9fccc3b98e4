/* Shared by the reorder tests: a synthetic machine of two domains (NUMA
 * nodes, L3 caches) with one cpu each, and rank r pinned to cpu r % 2, so
 * that rank r is in domain r % 2. */
#pragma once

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
