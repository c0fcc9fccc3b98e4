/* What the two jobs of tests/fault/dynamic/jobs.py do once connected
 * (jobs_server.c accepts, jobs_client.c connects; separate mpiexec runs).
 * `low` is 1 in the server. Checks:
 * - point-to-point both ways on the intercommunicator: 8 B and 1 MiB,
 *   blocking and nonblocking, receives from MPI_ANY_SOURCE;
 * - intercommunicator bcast (root in each group in turn), allreduce, barrier;
 * - MPI_Intercomm_merge, then allreduce, bcast and barrier on the merged
 *   communicator and a split of it, windows on it (put/get under fences,
 *   lock/accumulate/unlock), MPI-IO on it (collective writes, a shared file
 *   pointer); MPI_Comm_spawn from the merged communicator, the root in
 *   either job (spawn_from; MPI_Comm_spawn_multiple for the second): the children (this program again, in
 *   spawned_child) exchange messages with every parent of both jobs, an
 *   intercommunicator bcast each way, an allreduce and an allreduce on
 *   the merged parent intercommunicator, then disconnect; children that
 *   finalize without a disconnect, the next one in the same slot
 *   (spawn_kept); a spawn of a
 *   program that does not exist fails on every member. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

#define BIG (1 << 20)

/* A spawned child (this program run by MPI_Comm_spawn from a merged
 * communicator of both jobs): returns 0 when this process has no parent,
 * else does its part of spawn_from and returns 1 (the caller finalizes). */
static int spawned_child(int argc, char** argv) {
  MPI_Comm parent;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  if (parent == MPI_COMM_NULL) return 0;
  int me, nk, np;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &nk));
  CHECK_MPI(MPI_Comm_remote_size(parent, &np));
  CHECK(argc == 3 && (strcmp(argv[1], "child") == 0 || strcmp(argv[1], "keep") == 0));
  CHECK(np == atoi(argv[2])); /* the whole spawning group, both jobs */
  if (strcmp(argv[1], "keep") == 0) {
    /* spawn_kept: one message each way, its pid back, then MPI_Finalize
     * without a disconnect (the parents keep the intercommunicator). */
    for (int k = 0; k < np; ++k) {
      int v = -1;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, parent, &st));
      CHECK(v == 1000 * st.MPI_SOURCE + me);
    }
    const int pid = (int)getpid();
    for (int p = 0; p < np; ++p) CHECK_MPI(MPI_Send(&pid, 1, MPI_INT, p, 6, parent));
    return 1;
  }
  int seen = 0;
  for (int k = 0; k < np; ++k) {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, parent, &st));
    CHECK(v == 1000 * st.MPI_SOURCE + me);
    seen |= 1 << st.MPI_SOURCE;
  }
  CHECK(seen == (1 << np) - 1);
  for (int p = 0; p < np; ++p) {
    const int v = 1000 * me + p;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, p, 6, parent));
  }
  int b = -1;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, parent));
  CHECK(b == 77 + nk);
  b = 88;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, me == 0 ? MPI_ROOT : MPI_PROC_NULL, parent));
  int mine = 100 * (me + 1), sum = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, parent));
  CHECK(sum == np * (np + 1) / 2);
  /* Merged with the parents (both jobs and the children): an allreduce. */
  MPI_Comm all;
  CHECK_MPI(MPI_Intercomm_merge(parent, 1, &all));
  int arank, asize, total = 0;
  CHECK_MPI(MPI_Comm_rank(all, &arank));
  CHECK_MPI(MPI_Comm_size(all, &asize));
  CHECK(asize == np + nk && arank == np + me);
  CHECK_MPI(MPI_Allreduce(&arank, &total, 1, MPI_INT, MPI_SUM, all));
  CHECK(total == asize * (asize - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&all));
  CHECK_MPI(MPI_Comm_disconnect(&parent));
  return 1;
}

/* MPI_Comm_spawn of nk children (this program) from `merged`, a
 * communicator of both jobs, rooted at merged rank `root`; with
 * MPI_Comm_spawn_multiple (nk commands of one process each) when
 * `multiple`. */
static void spawn_from(MPI_Comm merged, int root, int nk, int multiple) {
  int p, np;
  CHECK_MPI(MPI_Comm_rank(merged, &p));
  CHECK_MPI(MPI_Comm_size(merged, &np));
  char self[4096] = {0};
  CHECK(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  char size_text[16];
  snprintf(size_text, sizeof size_text, "%d", np);
  char* args[] = {"child", size_text, NULL};
  int codes[4] = {-1, -1, -1, -1};
  MPI_Comm kids;
  if (multiple) {
    char* cmds[4] = {self, self, self, self};
    char** argvs[4] = {args, args, args, args};
    int counts[4] = {1, 1, 1, 1};
    MPI_Info infos[4] = {MPI_INFO_NULL, MPI_INFO_NULL, MPI_INFO_NULL, MPI_INFO_NULL};
    CHECK_MPI(MPI_Comm_spawn_multiple(nk, cmds, argvs, counts, infos, root, merged, &kids, codes));
  } else {
    CHECK_MPI(MPI_Comm_spawn(self, args, nk, MPI_INFO_NULL, root, merged, &kids, codes));
  }
  for (int i = 0; i < nk; ++i) CHECK(codes[i] == MPI_SUCCESS);
  int rsize = 0;
  CHECK_MPI(MPI_Comm_remote_size(kids, &rsize));
  CHECK(rsize == nk);
  for (int c = 0; c < nk; ++c) {
    const int v = 1000 * p + c;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 5, kids));
  }
  int seen = 0;
  for (int k = 0; k < nk; ++k) {
    int v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 6, kids, &st));
    CHECK(v == 1000 * st.MPI_SOURCE + p);
    seen |= 1 << st.MPI_SOURCE;
  }
  CHECK(seen == (1 << nk) - 1);
  int b = 77 + nk;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, p == 0 ? MPI_ROOT : MPI_PROC_NULL, kids));
  b = -1;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, kids));
  CHECK(b == 88);
  int mine = p + 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, kids));
  CHECK(sum == 100 * nk * (nk + 1) / 2);
  MPI_Comm all;
  CHECK_MPI(MPI_Intercomm_merge(kids, 0, &all));
  int arank, asize, total = 0;
  CHECK_MPI(MPI_Comm_rank(all, &arank));
  CHECK_MPI(MPI_Comm_size(all, &asize));
  CHECK(asize == np + nk && arank == p);
  CHECK_MPI(MPI_Allreduce(&arank, &total, 1, MPI_INT, MPI_SUM, all));
  CHECK(total == asize * (asize - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&all));
  CHECK_MPI(MPI_Comm_disconnect(&kids));
}

/* Spawns of one child that finalizes without a disconnect while the
 * parents keep the intercommunicator: once it has exited, its slot is
 * free, and the next child (in that slot again) must be reached from both
 * jobs through its own bridge, not the old child's. */
static void spawn_kept(MPI_Comm merged) {
  int p, np;
  CHECK_MPI(MPI_Comm_rank(merged, &p));
  CHECK_MPI(MPI_Comm_size(merged, &np));
  char self[4096] = {0};
  CHECK(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  char size_text[16];
  snprintf(size_text, sizeof size_text, "%d", np);
  char* args[] = {"keep", size_text, NULL};
  MPI_Comm kept[2];
  for (int t = 0; t < 2; ++t) {
    CHECK_MPI(MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, merged, &kept[t], MPI_ERRCODES_IGNORE));
    const int v = 1000 * p;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 5, kept[t]));
    int pid = 0;
    CHECK_MPI(MPI_Recv(&pid, 1, MPI_INT, 0, 6, kept[t], MPI_STATUS_IGNORE));
    CHECK(pid > 0);
    /* Its job's mpiexec has reaped it (and freed its slot) once it is gone. */
    int waited = 0;
    while (kill(pid, 0) == 0 && waited++ < 20000) usleep(500);
    CHECK(waited < 20000);
    CHECK_MPI(MPI_Barrier(merged));
  }
  for (int t = 0; t < 2; ++t) CHECK_MPI(MPI_Comm_free(&kept[t]));
}

/* Both jobs started with --universe-size 2000 (jobs.py test_no_room):
 * neither has room in its pending bitmaps for the other's 2032 slots, so
 * a spawn from the merged communicator fails with MPI_ERR_SPAWN on every
 * member, rooted in either job, and the communicator still works. */
static void spawn_refused(MPI_Comm inter, int low) {
  MPI_Comm merged;
  CHECK_MPI(MPI_Intercomm_merge(inter, low ? 0 : 1, &merged));
  int msize;
  CHECK_MPI(MPI_Comm_size(merged, &msize));
  MPI_Comm_set_errhandler(merged, MPI_ERRORS_RETURN);
  const int roots[2] = {0, msize - 1};
  for (int k = 0; k < 2; ++k) {
    MPI_Comm none = MPI_COMM_NULL;
    int cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, roots[k], merged, &none,
                                   MPI_ERRCODES_IGNORE),
                    &cls);
    CHECK(cls == MPI_ERR_SPAWN && none == MPI_COMM_NULL);
  }
  int one = 1, n = 0;
  CHECK_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, merged));
  CHECK(n == msize);
  CHECK_MPI(MPI_Comm_free(&merged));
}

static void exchange(MPI_Comm inter, int low) {
  int rank, size, rsize;
  CHECK_MPI(MPI_Comm_rank(inter, &rank));
  CHECK_MPI(MPI_Comm_size(inter, &size));
  CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
  const int side = low ? 0 : 1;
  /* Small, blocking: rank r of each side sends to every rank of the other;
   * every rank receives rsize messages from MPI_ANY_SOURCE. */
  for (int round = 0; round < 2; ++round) {
    if (round == side) {
      for (int d = 0; d < rsize; ++d) {
        long v[1] = {1000L * side + 10L * rank + d};
        CHECK_MPI(MPI_Send(v, 1, MPI_LONG, d, 7, inter));
      }
    } else {
      int seen = 0;
      for (int k = 0; k < rsize; ++k) {
        long v = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_LONG, MPI_ANY_SOURCE, 7, inter, &st));
        CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize);
        CHECK(v == 1000L * (1 - side) + 10L * st.MPI_SOURCE + rank);
        seen |= 1 << st.MPI_SOURCE;
      }
      CHECK(seen == (1 << rsize) - 1);
    }
  }
  /* Large, nonblocking, both ways at once with the peer of the same rank. */
  int* out = malloc(BIG);
  int* in = malloc(BIG);
  const int n = BIG / (int)sizeof(int);
  const int peer = rank % rsize;
  for (int i = 0; i < n; ++i) out[i] = i * 3 + side + rank * 7;
  MPI_Request rq[2];
  int senders = 0; /* how many ranks of the other side send to me */
  for (int r = 0; r < rsize; ++r)
    if (r % size == rank) ++senders;
  CHECK_MPI(MPI_Isend(out, n, MPI_INT, peer, 9, inter, &rq[0]));
  for (int k = 0; k < senders; ++k) {
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(in, n, MPI_INT, MPI_ANY_SOURCE, 9, inter, &rq[1]));
    CHECK_MPI(MPI_Wait(&rq[1], &st));
    for (int i = 0; i < n; i += 997) CHECK(in[i] == i * 3 + (1 - side) + st.MPI_SOURCE * 7);
  }
  CHECK_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
  /* Large, blocking, ping-pong between rank 0s. */
  if (rank == 0) {
    if (low) {
      CHECK_MPI(MPI_Send(out, n, MPI_INT, 0, 11, inter));
      CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, 12, inter, MPI_STATUS_IGNORE));
      for (int i = 0; i < n; i += 1001) CHECK(in[i] == i * 3 + 1);
    } else {
      CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, 11, inter, MPI_STATUS_IGNORE));
      for (int i = 0; i < n; i += 1001) CHECK(in[i] == i * 3);
      CHECK_MPI(MPI_Send(out, n, MPI_INT, 0, 12, inter));
    }
  }
  free(out);
  free(in);
  /* Intercommunicator collectives. */
  for (int rootside = 0; rootside < 2; ++rootside) {
    int v = rootside == side && rank == 0 ? 4242 + rootside : -1;
    const int root = rootside == side ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, inter));
    if (rootside != side) CHECK(v == 4242 + rootside);
  }
  int mine = rank + 1, sum = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == rsize * (rsize + 1) / 2); /* the remote group's contributions */
  CHECK_MPI(MPI_Barrier(inter));
  /* Merged. */
  MPI_Comm merged;
  CHECK_MPI(MPI_Intercomm_merge(inter, low ? 0 : 1, &merged));
  int mrank, msize;
  CHECK_MPI(MPI_Comm_rank(merged, &mrank));
  CHECK_MPI(MPI_Comm_size(merged, &msize));
  CHECK(msize == size + rsize);
  CHECK(mrank == (low ? rank : rsize + rank));
  int total = 0;
  CHECK_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged));
  CHECK(total == msize * (msize - 1) / 2);
  double d = mrank == msize - 1 ? 2.5 : 0.0;
  CHECK_MPI(MPI_Bcast(&d, 1, MPI_DOUBLE, msize - 1, merged));
  CHECK(d == 2.5);
  CHECK_MPI(MPI_Barrier(merged));
  /* A window on the merged communicator: each rank puts its rank into its
   * right neighbour's memory (another job's process for some). */
  {
    int slot = -1;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, merged, &win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&mrank, 1, MPI_INT, (mrank + 1) % msize, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(slot == (mrank + msize - 1) % msize);
    int got = -1;
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, (mrank + 1) % msize, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(got == mrank);
    CHECK_MPI(MPI_Win_free(&win));
    /* Passive target: every rank adds 1 to rank 0's counter. */
    int* counter = NULL;
    CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, merged, &counter, &win));
    *counter = 0;
    CHECK_MPI(MPI_Barrier(merged));
    const int one1 = 1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Accumulate(&one1, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_MPI(MPI_Barrier(merged));
    if (mrank == 0) CHECK(*counter == msize);
    CHECK_MPI(MPI_Win_free(&win));
  }
  /* MPI-IO on the merged communicator: every rank writes its rank at its
   * offset (collective), reads its neighbour's back; shared file pointer. */
  {
    char path[128];
    long id = (long)getpid();
    CHECK_MPI(MPI_Bcast(&id, 1, MPI_LONG, 0, merged));
    snprintf(path, sizeof path, "/tmp/ringmpi-jobs-io-%ld", id);
    MPI_File fh;
    CHECK_MPI(MPI_File_open(merged, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)mrank * 4, &mrank, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_sync(fh));
    CHECK_MPI(MPI_Barrier(merged));
    int back = -1;
    const int next = (mrank + 1) % msize;
    CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)next * 4, &back, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(back == next);
    CHECK_MPI(MPI_File_seek_shared(fh, (MPI_Offset)msize * 4, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_shared(fh, &mrank, 1, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Barrier(merged));
    MPI_Offset end = 0;
    CHECK_MPI(MPI_File_get_size(fh, &end));
    CHECK(end == (MPI_Offset)(2 * msize * 4));
    CHECK_MPI(MPI_File_close(&fh));
  }
  /* Spawning from a communicator of two jobs: the root in the server's
   * job (merged rank 0), then in the client's (the last). */
  spawn_from(merged, 0, 1, 0);
  spawn_from(merged, msize - 1, 2, 1);
  spawn_kept(merged);
  /* A spawn that fails (no such program) fails on every member of both
   * jobs, with the root's codes. */
  {
    MPI_Comm_set_errhandler(merged, MPI_ERRORS_RETURN);
    MPI_Comm none = MPI_COMM_NULL;
    int codes[2] = {-1, -1}, cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Comm_spawn("/nonexistent/ringmpi-prog", MPI_ARGV_NULL, 2, MPI_INFO_NULL, msize / 2, merged,
                                   &none, codes),
                    &cls);
    CHECK(cls == MPI_ERR_SPAWN && none == MPI_COMM_NULL);
    CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN);
    MPI_Comm_set_errhandler(merged, MPI_ERRORS_ARE_FATAL);
  }
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(merged, mrank % 2, mrank, &half));
  int hs = 0, one = 1;
  CHECK_MPI(MPI_Allreduce(&one, &hs, 1, MPI_INT, MPI_SUM, half));
  CHECK(hs == (msize + 1 - mrank % 2) / 2);
  CHECK_MPI(MPI_Comm_free(&half));
  CHECK_MPI(MPI_Comm_free(&merged));
}

/* Ping-pong latency between the rank 0s (jobs.py prints it; not checked). */
static void pingpong(MPI_Comm inter, int low, int bytes, int iters) {
  int rank;
  MPI_Comm_rank(inter, &rank);
  if (rank != 0) return;
  const char* e = getenv("JOBS_PP_ITERS"); /* scales the counts (default 1) */
  if (e) iters = iters * atoi(e) / 100 + 1;
  char* buf = calloc((size_t)bytes, 1);
  double t0 = 0;
  for (int i = -iters / 10; i < iters; ++i) {
    if (i == 0) t0 = MPI_Wtime();
    if (low) {
      CHECK_MPI(MPI_Send(buf, bytes, MPI_BYTE, 0, 21, inter));
      CHECK_MPI(MPI_Recv(buf, bytes, MPI_BYTE, 0, 22, inter, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_Recv(buf, bytes, MPI_BYTE, 0, 21, inter, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Send(buf, bytes, MPI_BYTE, 0, 22, inter));
    }
  }
  if (low) printf("pingpong %d B: %.2f us one way\n", bytes, (MPI_Wtime() - t0) / iters / 2 * 1e6);
  free(buf);
}
