/* MPI_THREAD_MULTIPLE stress: 4 worker threads per rank plus the main thread,
 * all in MPI at once. Ranks pair up (r, r^1; the last one of an odd count
 * pairs with itself, sending to itself).
 *   thread 0, 1: ping-pong with the partner on MPI_COMM_WORLD, tags 100 and
 *                101, receiving with MPI_ANY_SOURCE (per-thread wildcard
 *                receives that must not steal each other's messages);
 *   thread 2:    ping-pong on a communicator of its own with Isend/Irecv and
 *                MPI_Waitall (concurrent waits on different requests);
 *   thread 3:    MPI_Allreduce and MPI_Bcast on another communicator (a
 *                collective while the other threads do point-to-point);
 *   every worker also sends KREPORT numbered reports to the next rank on a
 *   third communicator, where the main thread receives them all with
 *   MPI_ANY_SOURCE/MPI_ANY_TAG (one shared wildcard receiver).
 * Every payload carries a value the receiver checks; totals are compared
 * with their closed forms at the end. */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"

enum { NITER = 600, KREPORT = 50, NWORKERS = 4 };

static int rank, size, partner;
static MPI_Comm comm_pp, comm_coll, comm_report;
static long long report_sent[NWORKERS];

static void report(int tid, int i) {
  /* Every NITER/KREPORT-th iteration: the value encodes sender, thread and number. */
  if (i % (NITER / KREPORT) != 0) return;
  long long v = (long long)rank * 1000000 + tid * 10000 + i / (NITER / KREPORT);
  CHECK_MPI(MPI_Send(&v, 1, MPI_LONG_LONG, (rank + 1) % size, tid, comm_report));
  report_sent[tid] += v;
}

static void *pingpong_world(void *arg) {
  const int tid = (int)(long)arg, tag = 100 + tid;
  long long sum = 0;
  for (int i = 0; i < NITER; ++i) {
    long long out = (long long)rank * NITER + i, in = -1;
    MPI_Status st;
    if (rank <= partner) {
      CHECK_MPI(MPI_Send(&out, 1, MPI_LONG_LONG, partner, tag, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Recv(&in, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
    } else {
      CHECK_MPI(MPI_Recv(&in, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
      CHECK_MPI(MPI_Send(&out, 1, MPI_LONG_LONG, partner, tag, MPI_COMM_WORLD));
    }
    CHECK(st.MPI_SOURCE == partner && st.MPI_TAG == tag);
    CHECK(in == (long long)partner * NITER + i);
    sum += in;
    report(tid, i);
  }
  CHECK(sum == (long long)partner * NITER * NITER + (long long)NITER * (NITER - 1) / 2);
  return NULL;
}

static void *pingpong_comm(void *arg) {
  const int tid = (int)(long)arg;
  long long sum = 0;
  for (int i = 0; i < NITER; ++i) {
    int out[4] = {rank, i, -i, 7}, in[4] = {-1, -1, -1, -1};
    MPI_Request reqs[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, partner, i % 3, comm_pp, &reqs[0]));
    CHECK_MPI(MPI_Isend(out, 4, MPI_INT, partner, i % 3, comm_pp, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, sts));
    CHECK(in[0] == partner && in[1] == i && in[2] == -i && in[3] == 7 && sts[0].MPI_TAG == i % 3);
    sum += in[1];
    report(tid, i);
  }
  CHECK(sum == (long long)NITER * (NITER - 1) / 2);
  return NULL;
}

static void *collectives(void *arg) {
  const int tid = (int)(long)arg;
  for (int i = 0; i < NITER; ++i) {
    long long mine = rank + i, total = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm_coll));
    CHECK(total == (long long)size * (size - 1) / 2 + (long long)size * i);
    int root = i % size, word = rank == root ? 1000 + i : -1;
    CHECK_MPI(MPI_Bcast(&word, 1, MPI_INT, root, comm_coll));
    CHECK(word == 1000 + i);
    report(tid, i);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided = -1;
  CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int level = -1, is_main = 0;
  CHECK_MPI(MPI_Query_thread(&level));
  CHECK(level == MPI_THREAD_MULTIPLE);
  CHECK_MPI(MPI_Is_thread_main(&is_main));
  CHECK(is_main);
  partner = (rank ^ 1) < size ? (rank ^ 1) : rank;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm_pp));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm_coll));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm_report));

  void *(*fns[NWORKERS])(void *) = {pingpong_world, pingpong_world, pingpong_comm, collectives};
  pthread_t th[NWORKERS];
  for (long t = 0; t < NWORKERS; ++t) CHECK(pthread_create(&th[t], NULL, fns[t], (void *)t) == 0);

  /* The shared wildcard receiver: every report of the previous rank's workers. */
  const int from = (rank + size - 1) % size;
  long long got = 0, expect = 0;
  int per_tag[NWORKERS] = {0};
  for (int k = 0; k < NWORKERS * KREPORT; ++k) {
    long long v = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, comm_report, &st));
    CHECK(st.MPI_SOURCE == from && st.MPI_TAG >= 0 && st.MPI_TAG < NWORKERS);
    /* Reports of one thread arrive in order (MPI-3.1 §3.5: same sender, same communicator). */
    CHECK(v == (long long)from * 1000000 + st.MPI_TAG * 10000 + per_tag[st.MPI_TAG]);
    per_tag[st.MPI_TAG]++;
    got += v;
  }
  for (int t = 0; t < NWORKERS; ++t) {
    CHECK(pthread_join(th[t], NULL) == 0);
    CHECK(per_tag[t] == KREPORT);
    expect += (long long)KREPORT * ((long long)from * 1000000 + t * 10000) + (long long)KREPORT * (KREPORT - 1) / 2;
  }
  CHECK(got == expect);
  long long sent = 0;
  for (int t = 0; t < NWORKERS; ++t) sent += report_sent[t];
  long long sent_by_from = 0;
  CHECK_MPI(MPI_Sendrecv(&sent, 1, MPI_LONG_LONG, (rank + 1) % size, 9, &sent_by_from, 1, MPI_LONG_LONG, from, 9,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(sent_by_from == got);

  MPI_Comm_free(&comm_pp);
  MPI_Comm_free(&comm_coll);
  MPI_Comm_free(&comm_report);
  MPI_Finalize();
  return 0;
}
