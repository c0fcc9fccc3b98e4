/* Shared memory grows with the pairs that talk, not with size^2: after each
 * rank has pushed several laps of data through the rings to its two ring
 * neighbours, the arena's resident pages (mincore over the mapping, which
 * sees every page of the shared object that any rank touched) stay under
 * 64 MiB at 64 ranks, whose arena spans about 260 MiB of address space.
 * Rank 0 prints the figures: resident bytes and the sum of the ranks' Pss. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

/* The arena mapping of this process: [*lo, *hi). */
static int find_arena(uintptr_t *lo, uintptr_t *hi) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return 0;
  char line[512];
  int found = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, "ringmpi-arena")) {
      unsigned long a, b;
      if (sscanf(line, "%lx-%lx", &a, &b) == 2) {
        *lo = a;
        *hi = b;
        found = 1;
        break;
      }
    }
  fclose(f);
  return found;
}

/* Pss (kB) of the mapping that starts at lo, from /proc/self/smaps. */
static long arena_pss_kb(uintptr_t lo) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  int in = 0;
  long pss = -1;
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b;
    if (sscanf(line, "%lx-%lx", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' ')) in = a == lo;
    else if (in && strncmp(line, "Pss:", 4) == 0) {
      sscanf(line + 4, "%ld", &pss);
      break;
    }
  }
  fclose(f);
  return pss;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  /* 256 x 1 KiB each way: four laps of a 64 KiB ring. */
  char out[1024], in[1024];
  memset(out, rank, sizeof out);
  for (int i = 0; i < 256; ++i) {
    CHECK_MPI(MPI_Sendrecv(out, sizeof out, MPI_BYTE, right, i, in, sizeof in, MPI_BYTE, left, i, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(in[0] == (char)left && in[1023] == (char)left);
    CHECK_MPI(MPI_Sendrecv(out, sizeof out, MPI_BYTE, left, i, in, sizeof in, MPI_BYTE, right, i, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(in[0] == (char)right);
  }
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  uintptr_t lo = 0, hi = 0;
  CHECK(find_arena(&lo, &hi));
  long pss = arena_pss_kb(lo);
  CHECK(pss >= 0);
  if (rank == 0) {
    long total_pss = pss;
    for (int r = 1; r < size; ++r) {
      long p;
      CHECK_MPI(MPI_Recv(&p, 1, MPI_LONG, r, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      total_pss += p;
    }
    const long page = sysconf(_SC_PAGESIZE);
    const size_t pages = (hi - lo + (uintptr_t)page - 1) / (uintptr_t)page;
    unsigned char *vec = malloc(pages);
    CHECK(mincore((void *)lo, hi - lo, vec) == 0);
    size_t resident = 0;
    for (size_t i = 0; i < pages; ++i) resident += vec[i] & 1;
    free(vec);
    const double mib = 1024.0 * 1024.0;
    printf("np=%d: arena %.1f MiB mapped, %.2f MiB resident (mincore), sum of Pss %.2f MiB\n", size,
           (double)(hi - lo) / mib, (double)resident * (double)page / mib, (double)total_pss / 1024.0);
    CHECK((double)resident * (double)page < 64.0 * mib);
    CHECK(total_pss < 64L * 1024);
  } else {
    CHECK_MPI(MPI_Send(&pss, 1, MPI_LONG, 0, 999, MPI_COMM_WORLD));
  }
  MPI_Finalize();
  return 0;
}
