/* The machine's floor for a small collective (issue 36): one cache line
 * bounced between two cores through shared memory, with no MPI in the loop.
 * Ranks 0 and 1 map one page of a /dev/shm file of their own (MPI only
 * passes its name and joins the ranks before and after) and ping-pong a
 * counter in its first line: rank 0 stores an odd value and waits for the
 * next even one, rank 1 the other way round. A round trip is two one-way
 * transfers of the line; the floor is the best batch's time per transfer.
 *
 * Where ranks 0 and 1 share a core (more ranks than cores) a waiting side
 * yields after a long spin, so the measure ends in bounded time; the CPUs
 * the two ran on are reported beside it. Linux only (sched_getcpu, /dev/shm):
 * elsewhere, or when the file cannot be made, the floor is reported as
 * unavailable (-1) and no bounds are printed. Standard MPI otherwise: the
 * file builds against ringmpi, MPICH and Open MPI alike. */
#ifndef RINGMPI_BENCH_COLL_FLOOR_H
#define RINGMPI_BENCH_COLL_FLOOR_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#ifdef __linux__
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

enum { FLOOR_BATCHES = 20, FLOOR_ROUND_TRIPS = 5000, FLOOR_SPINS_BEFORE_YIELD = 1 << 16 };
/* Rank 0 stops after the batch that passes this much time (more ranks than
 * cores: the two may share a core and every transfer costs a yield) and
 * tells rank 1 by storing FLOOR_STOP. */
#define FLOOR_MAX_SECONDS 0.2
#define FLOOR_STOP (-1L)

typedef struct {
  double ns;     /* per one-way transfer; -1 when not measured */
  int cpu[2];    /* where ranks 0 and 1 ran (-1: unknown) */
} coll_floor;

#ifdef __linux__
/* Waits until *word == want (returns 1) or FLOOR_STOP (returns 0): a spin
 * (the measured path), then a yield per check once the other side has
 * clearly been descheduled. */
static int floor_wait(volatile long *word, long want) {
  long spins = 0, v;
  while ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) != want) {
    if (v == FLOOR_STOP) return 0;
    if (++spins > FLOOR_SPINS_BEFORE_YIELD) sched_yield();
  }
  return 1;
}

static double floor_pingpong(volatile long *word, int rank) {
  double best = 1e30, start = MPI_Wtime(); /* clock reads, not communication */
  long k = 0; /* round trips done; the counter is 2k at the start of round trip k */
  if (rank == 1) { /* answers until rank 0 says stop */
    while (floor_wait(word, 2 * k + 1)) {
      __atomic_store_n(word, 2 * k + 2, __ATOMIC_RELEASE);
      ++k;
    }
    return 0;
  }
  for (int b = 0; b < FLOOR_BATCHES && (b == 0 || MPI_Wtime() - start < FLOOR_MAX_SECONDS); ++b) {
    double t0 = MPI_Wtime();
    for (int j = 0; j < FLOOR_ROUND_TRIPS; ++j, ++k) {
      __atomic_store_n(word, 2 * k + 1, __ATOMIC_RELEASE);
      floor_wait(word, 2 * k + 2);
    }
    double t = MPI_Wtime() - t0;
    if (t < best) best = t;
  }
  __atomic_store_n(word, FLOOR_STOP, __ATOMIC_RELEASE);
  return best * 1e9 / (2.0 * FLOOR_ROUND_TRIPS);
}
#endif

/* Collective over MPI_COMM_WORLD; every rank gets the result. */
static coll_floor floor_measure(int rank, int np) {
  coll_floor f = {-1, {-1, -1}};
  if (np < 2) return f;
#ifdef __linux__
  char path[128] = "";
  int fd = -1, ok = 1;
  if (rank == 0) {
    snprintf(path, sizeof path, "/dev/shm/coll_floor_%ld_%ld", (long)getpid(), (long)(MPI_Wtime() * 1e6));
    fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || ftruncate(fd, 4096) != 0) path[0] = '\0';
  }
  MPI_Bcast(path, (int)sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!path[0]) return f;
  if (rank == 1) fd = open(path, O_RDWR);
  volatile long *word = NULL;
  if (rank < 2) {
    void *m = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) ok = 0;
    else word = (volatile long *)m;
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* both mapped it: unlink */
  if (rank == 0) unlink(path);
  if (all_ok) {
    double ns = 0;
    int cpu = sched_getcpu();
    if (rank < 2) ns = floor_pingpong(word, rank);
    MPI_Bcast(&ns, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int cpus[2] = {rank == 0 ? cpu : -1, rank == 1 ? cpu : -1};
    MPI_Allreduce(cpus, f.cpu, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    f.ns = ns;
  }
  if (word) munmap((void *)word, 4096);
  if (fd >= 0) close(fd);
#else
  (void)rank;
#endif
  return f;
}

/* Cache-line transfers a blocking collective cannot avoid at np = 2 when
 * called back to back with the root rotating, on the slowest rank's path per
 * call (docs/design/collectives.md, "Cache-line floor at np = 2", says why
 * each is one); `name` as coll.c prints it, nonblocking and persistent forms
 * share their blocking form's count. 0: no bound stated. */
static int floor_transfers_np2(const char *name) {
  static const char *const ONE[] = {"barrier", "bcast",  "scatter",        "scatterv", "gather",
                                    "gatherv", "allgather", "alltoall",    "reduce",   "allreduce",
                                    "reduce_scatter", "scan", "exscan", NULL};
  if ((name[0] == 'i' || name[0] == 'p') && strcmp(name, "ibarrier") != 0) ++name;
  if (!strcmp(name, "ibarrier")) name = "barrier";
  for (int i = 0; ONE[i]; ++i)
    if (!strcmp(name, ONE[i])) return 1;
  return 0;
}

#endif
