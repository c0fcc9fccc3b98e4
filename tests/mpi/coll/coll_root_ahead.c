/* Small rooted collectives with the root running ahead of its readers
 * (issue 36): with more ranks than cores the barrier is released by its
 * rank 0 (segment.hpp, "Barrier words"), so rank 0, the usual root, leaves
 * it first and posts the next bcast or scatter before its readers look.
 * Checked here:
 *  - the barrier still waits for everyone: each rank stores its arrival
 *    count in a shared window before MPI_Barrier and reads every rank's
 *    after it, with a late rank now and then (rank 0 among them: the others
 *    then wait for it; and one late long enough that the others, rank 0
 *    too, go to sleep: the last arrival then releases); on MPI_COMM_WORLD
 *    and on a communicator whose rank 0 is the last world rank;
 *  - the OSU pattern (a small bcast or scatter, then a barrier) with root 0,
 *    the last rank and a rotating root, some readers late before the call
 *    and the root late before the barrier, every value checked each call;
 *  - a root issuing many small bcasts and scatters back to back (more than
 *    the slot ring's 64 regions) while readers are delayed at the start and
 *    in the middle, every value checked each call.
 * Deterministic: the delays depend only on the call number and the rank. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int value(int call, int block, int i) {
  return (int)((unsigned)call * 1000003u + (unsigned)block * 7919u + (unsigned)i);
}

/* Sizes in ints: 4 bytes up to 1 KiB. */
static int count_of(int call) {
  static const int counts[] = {1, 2, 16, 256, 3, 64, 5, 128};
  return counts[call % 8];
}

static void late(int r, int me, int call, int every, useconds_t us) {
  if (me == r && call % every == 0) usleep(us);
}

static void barrier_waits_for_all(MPI_Comm comm, int calls) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int* arrived = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &arrived, &win));
  int* mine = arrived;
  CHECK_MPI(MPI_Win_lock_all(0, win));
  int* all[64];
  CHECK(n <= 64);
  for (int p = 0; p < n; ++p) {
    MPI_Aint bytes;
    int disp;
    CHECK_MPI(MPI_Win_shared_query(win, p, &bytes, &disp, &all[p]));
  }
  __atomic_store_n(mine, 0, __ATOMIC_RELEASE);
  CHECK_MPI(MPI_Barrier(comm));
  for (int c = 1; c <= calls; ++c) {
    late(c % n, me, c, 5, 300); /* a different late rank each time, rank 0 too */
    late(0, me, c, 13, 500);
    late(n - 1, me, c, 10, 1500); /* long enough for the others, rank 0 too, to sleep */
    __atomic_store_n(mine, c, __ATOMIC_RELEASE);
    CHECK_MPI(MPI_Barrier(comm));
    for (int p = 0; p < n; ++p) CHECK(__atomic_load_n(all[p], __ATOMIC_ACQUIRE) >= c);
  }
  CHECK_MPI(MPI_Win_unlock_all(win));
  CHECK_MPI(MPI_Win_free(&win));
}

/* root_kind: 0 root 0, 1 the last rank, 2 rotating */
static void osu_pattern(MPI_Comm comm, int calls, int root_kind) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int* send = malloc((size_t)n * 256 * sizeof(int));
  int buf[256], recv[256];
  for (int c = 0; c < calls; ++c) {
    const int root = root_kind == 0 ? 0 : root_kind == 1 ? n - 1 : c % n, k = count_of(c);
    late((c + 1) % n, me, c, 7, 200); /* a reader (or the root) late into the call */
    for (int i = 0; i < k; ++i) buf[i] = me == root ? value(c, 0, i) : -1;
    CHECK_MPI(MPI_Bcast(buf, k, MPI_INT, root, comm));
    for (int i = 0; i < k; ++i) CHECK(buf[i] == value(c, 0, i));
    late(root, me, c, 11, 200); /* the root late into the barrier */
    CHECK_MPI(MPI_Barrier(comm));
    if (me == root)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < k; ++i) send[j * k + i] = value(c + 1, j, i);
    for (int i = 0; i < k; ++i) recv[i] = -1;
    late((c + 2) % n, me, c, 9, 200);
    CHECK_MPI(MPI_Scatter(send, k, MPI_INT, recv, k, MPI_INT, root, comm));
    for (int i = 0; i < k; ++i) CHECK(recv[i] == value(c + 1, me, i));
    CHECK_MPI(MPI_Barrier(comm));
  }
  free(send);
}

/* The root runs ahead by many calls: readers sleep at the start and halfway. */
static void back_to_back(MPI_Comm comm, int calls, int root) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  int* send = malloc((size_t)n * 256 * sizeof(int));
  int buf[256], recv[256];
  if (me != root && me % 2 == 1) usleep(3000); /* half the readers start late */
  for (int c = 0; c < calls; ++c) {
    const int k = count_of(c);
    if (me != root && c == calls / 2 && me % 2 == 0) usleep(3000); /* the other half lag halfway */
    if (me != root && c % 17 == 0) {                                  /* readers compute now and then */
      volatile unsigned spin = 0;
      for (int i = 0; i < 20000 * (me + 1); ++i) spin += (unsigned)i;
    }
    for (int i = 0; i < k; ++i) buf[i] = me == root ? value(c, 0, i) : -1;
    CHECK_MPI(MPI_Bcast(buf, k, MPI_INT, root, comm));
    for (int i = 0; i < k; ++i) CHECK(buf[i] == value(c, 0, i));
    if (me == root)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < k; ++i) send[j * k + i] = value(c, j + 1, i);
    for (int i = 0; i < k; ++i) recv[i] = -1;
    CHECK_MPI(MPI_Scatter(send, k, MPI_INT, recv, k, MPI_INT, root, comm));
    for (int i = 0; i < k; ++i) CHECK(recv[i] == value(c, me + 1, i));
  }
  free(send);
}

int main(int argc, char** argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm reversed; /* rank 0 here is the last world rank */
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));

  barrier_waits_for_all(MPI_COMM_WORLD, 200);
  barrier_waits_for_all(reversed, 100);
  for (int kind = 0; kind < 3; ++kind) {
    osu_pattern(MPI_COMM_WORLD, 150, kind);
    osu_pattern(reversed, 60, kind);
  }
  back_to_back(MPI_COMM_WORLD, 300, 0);
  back_to_back(MPI_COMM_WORLD, 300, size - 1);
  back_to_back(reversed, 200, 0);

  CHECK_MPI(MPI_Comm_free(&reversed));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
