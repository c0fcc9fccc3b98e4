/* Nonblocking point-to-point and requests: Isend/Issend/Irsend/Ibsend/Irecv,
 * every Wait/Test variant, MPI_REQUEST_NULL and inactive requests,
 * Request_free, Request_get_status, Cancel/Test_cancelled/Status_set_cancelled,
 * persistent requests (Send_init... Start/Startall), Probe/Iprobe and the
 * matched probes (Mprobe/Improbe/Mrecv/Imrecv, MPI_MESSAGE_NO_PROC). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, right, left;

static void test_wait_variants(void) {
  enum { N = 6 };
  int out[N], in[N];
  MPI_Request reqs[2 * N];
  MPI_Status sts[2 * N];
  for (int i = 0; i < N; ++i) {
    out[i] = rank * 100 + i;
    in[i] = -1;
  }
  /* Waitall over receives and sends of all modes (receives first so Irsend is legal). */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &reqs[i]));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  int pack;
  CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &pack));
  char *bbuf = malloc((size_t)(2 * (pack + MPI_BSEND_OVERHEAD)));
  CHECK_MPI(MPI_Buffer_attach(bbuf, 2 * (pack + MPI_BSEND_OVERHEAD)));
  for (int i = 0; i < N; ++i) {
    switch (i % 4) {
      case 0: CHECK_MPI(MPI_Isend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &reqs[N + i])); break;
      case 1: CHECK_MPI(MPI_Issend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &reqs[N + i])); break;
      case 2: CHECK_MPI(MPI_Irsend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &reqs[N + i])); break;
      case 3: CHECK_MPI(MPI_Ibsend(&out[i], 1, MPI_INT, right, i, MPI_COMM_WORLD, &reqs[N + i])); break;
    }
  }
  CHECK_MPI(MPI_Waitall(2 * N, reqs, sts));
  for (int i = 0; i < 2 * N; ++i) CHECK(reqs[i] == MPI_REQUEST_NULL);
  for (int i = 0; i < N; ++i) {
    CHECK(in[i] == left * 100 + i);
    CHECK(sts[i].MPI_SOURCE == left && sts[i].MPI_TAG == i);
  }
  void *b;
  int bs;
  CHECK_MPI(MPI_Buffer_detach(&b, &bs));
  free(bbuf);

  /* Waitany: each index exactly once, then MPI_UNDEFINED. */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &reqs[i]));
  for (int i = N - 1; i >= 0; --i) CHECK_MPI(MPI_Send(&out[i], 1, MPI_INT, right, 50 + i, MPI_COMM_WORLD));
  bool seen[N] = {false};
  for (int k = 0; k < N; ++k) {
    int idx;
    MPI_Status st;
    CHECK_MPI(MPI_Waitany(N, reqs, &idx, &st));
    CHECK(idx >= 0 && idx < N && !seen[idx] && reqs[idx] == MPI_REQUEST_NULL);
    CHECK(st.MPI_TAG == 50 + idx && in[idx] == left * 100 + idx);
    seen[idx] = true;
  }
  int idx;
  MPI_Status st;
  CHECK_MPI(MPI_Waitany(N, reqs, &idx, &st));
  CHECK(idx == MPI_UNDEFINED && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Waitany(0, NULL, &idx, MPI_STATUS_IGNORE));
  CHECK(idx == MPI_UNDEFINED);

  /* Waitsome: until all are in; indices and statuses line up. */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, 70 + i, MPI_COMM_WORLD, &reqs[i]));
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Send(&out[i], 1, MPI_INT, right, 70 + i, MPI_COMM_WORLD));
  int got = 0;
  while (got < N) {
    int outcount, indices[N];
    CHECK_MPI(MPI_Waitsome(N, reqs, &outcount, indices, sts));
    CHECK(outcount >= 1);
    for (int k = 0; k < outcount; ++k) {
      CHECK(sts[k].MPI_TAG == 70 + indices[k]);
      CHECK(reqs[indices[k]] == MPI_REQUEST_NULL);
    }
    got += outcount;
  }
  CHECK(got == N);
  int outcount;
  CHECK_MPI(MPI_Waitsome(N, reqs, &outcount, NULL, MPI_STATUSES_IGNORE));
  CHECK(outcount == MPI_UNDEFINED);

  /* MPI_Wait on MPI_REQUEST_NULL returns at once with an empty status. */
  MPI_Request nul = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Wait(&nul, &st));
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Waitall(0, NULL, MPI_STATUSES_IGNORE));
}

static void test_test_variants(void) {
  enum { N = 4 };
  int out[N], in[N];
  MPI_Request reqs[N];
  MPI_Status sts[N];
  for (int i = 0; i < N; ++i) out[i] = rank + i;
  int flag;
  /* MPI_Test until done. */
  MPI_Request r;
  CHECK_MPI(MPI_Irecv(&in[0], 1, MPI_INT, left, 80, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Send(&out[0], 1, MPI_INT, right, 80, MPI_COMM_WORLD));
  MPI_Status st;
  do CHECK_MPI(MPI_Test(&r, &flag, &st));
  while (!flag);
  CHECK(r == MPI_REQUEST_NULL && in[0] == left && st.MPI_SOURCE == left);
  CHECK_MPI(MPI_Test(&r, &flag, &st)); /* null request: flag true, empty status */
  CHECK(flag && st.MPI_TAG == MPI_ANY_TAG);

  /* Testall: false until all are complete, then all at once. */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, 90 + i, MPI_COMM_WORLD, &reqs[i]));
  CHECK_MPI(MPI_Testall(N, reqs, &flag, sts));
  CHECK(!flag); /* nothing was sent yet: the barrier below comes first */
  for (int i = 0; i < N; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Send(&out[i], 1, MPI_INT, right, 90 + i, MPI_COMM_WORLD));
  do CHECK_MPI(MPI_Testall(N, reqs, &flag, sts));
  while (!flag);
  for (int i = 0; i < N; ++i) CHECK(reqs[i] == MPI_REQUEST_NULL && in[i] == left + i && sts[i].MPI_TAG == 90 + i);

  /* Testany / Testsome. */
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Irecv(&in[i], 1, MPI_INT, left, 110 + i, MPI_COMM_WORLD, &reqs[i]));
  int idx;
  CHECK_MPI(MPI_Testany(N, reqs, &idx, &flag, &st));
  CHECK(!flag && idx == MPI_UNDEFINED);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Send(&out[i], 1, MPI_INT, right, 110 + i, MPI_COMM_WORLD));
  int done = 0;
  while (done < 2) {
    CHECK_MPI(MPI_Testany(N, reqs, &idx, &flag, &st));
    if (flag) {
      CHECK(idx >= 0 && st.MPI_TAG == 110 + idx && reqs[idx] == MPI_REQUEST_NULL);
      ++done;
    }
  }
  while (done < N) {
    int outcount, indices[N];
    CHECK_MPI(MPI_Testsome(N, reqs, &outcount, indices, sts));
    CHECK(outcount != MPI_UNDEFINED);
    for (int k = 0; k < outcount; ++k) CHECK(sts[k].MPI_TAG == 110 + indices[k]);
    done += outcount;
  }
  CHECK_MPI(MPI_Testany(N, reqs, &idx, &flag, &st)); /* all null: flag true, index undefined */
  CHECK(flag && idx == MPI_UNDEFINED);
  int outcount;
  CHECK_MPI(MPI_Testsome(N, reqs, &outcount, NULL, MPI_STATUSES_IGNORE));
  CHECK(outcount == MPI_UNDEFINED);
}

static void test_sync_and_status(void) {
  int v = rank, w = -1, flag;
  MPI_Request r;
  MPI_Status st;
  if (size > 1) {
    /* Issend cannot complete before the receiver, held behind a barrier, receives. */
    if (rank == 0) {
      CHECK_MPI(MPI_Issend(&v, 1, MPI_INT, 1, 120, MPI_COMM_WORLD, &r));
      CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
      CHECK(!flag);
      CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
      CHECK(!flag);
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      if (rank == 1) CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, 0, 120, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
  }
  /* Request_get_status leaves the request alone. */
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 121, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 121, MPI_COMM_WORLD));
  do CHECK_MPI(MPI_Request_get_status(r, &flag, &st));
  while (!flag);
  CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == left && st.MPI_TAG == 121);
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(r == MPI_REQUEST_NULL && w == left);
  CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
  CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE);

  /* Request_free: the send still happens. */
  CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, right, 122, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Request_free(&r));
  CHECK(r == MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 122, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(w == left);

  /* Cancel a receive nobody matches. */
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 123, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Cancel(&r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(flag);
  /* A completed receive is not cancelled. */
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 124, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 124, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(!flag);
  /* The standard lets a send be cancelled or not (MPI-3.1 §3.8.4); in
   * ringmpi a small standard send goes eagerly, complete when MPI_Isend
   * returns, so the cancel has nothing left to stop: Wait returns, the
   * status is not marked cancelled and the message is delivered.
   * (Cancelling the sends that can be: p2p_cancel_send.c.) */
  CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, right, 125, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Cancel(&r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(!flag);
  w = -1;
  CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 125, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(w == left);
  CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Status_set_cancelled(&st, 0));
  CHECK_MPI(MPI_Test_cancelled(&st, &flag));
  CHECK(!flag);
}

static void test_persistent(void) {
  int sv[2], rv[2] = {-1, -1};
  MPI_Request reqs[4];
  CHECK_MPI(MPI_Recv_init(&rv[0], 1, MPI_INT, left, 130, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Recv_init(&rv[1], 1, MPI_INT, MPI_ANY_SOURCE, 131, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Send_init(&sv[0], 1, MPI_INT, right, 130, MPI_COMM_WORLD, &reqs[2]));
  CHECK_MPI(MPI_Ssend_init(&sv[1], 1, MPI_INT, right, 131, MPI_COMM_WORLD, &reqs[3]));
  /* Inactive requests complete at once with an empty status. */
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&reqs[0], &st));
  CHECK(reqs[0] != MPI_REQUEST_NULL && st.MPI_TAG == MPI_ANY_TAG);
  int flag;
  CHECK_MPI(MPI_Test(&reqs[2], &flag, MPI_STATUS_IGNORE));
  CHECK(flag && reqs[2] != MPI_REQUEST_NULL);
  for (int iter = 0; iter < 20; ++iter) {
    sv[0] = rank * 1000 + iter;
    sv[1] = -sv[0];
    CHECK_MPI(MPI_Startall(4, reqs));
    MPI_Status sts[4];
    CHECK_MPI(MPI_Waitall(4, reqs, sts));
    for (int i = 0; i < 4; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL);
    CHECK(rv[0] == left * 1000 + iter && rv[1] == -rv[0]);
    CHECK(sts[1].MPI_SOURCE == left && sts[1].MPI_TAG == 131);
  }
  /* One at a time with MPI_Start, Rsend_init and Bsend_init too. */
  MPI_Request rs, bs, rr[2];
  CHECK_MPI(MPI_Rsend_init(&sv[0], 1, MPI_INT, right, 132, MPI_COMM_WORLD, &rs));
  CHECK_MPI(MPI_Bsend_init(&sv[1], 1, MPI_INT, right, 133, MPI_COMM_WORLD, &bs));
  CHECK_MPI(MPI_Recv_init(&rv[0], 1, MPI_INT, left, 132, MPI_COMM_WORLD, &rr[0]));
  CHECK_MPI(MPI_Recv_init(&rv[1], 1, MPI_INT, left, 133, MPI_COMM_WORLD, &rr[1]));
  int pack;
  CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &pack));
  char *bbuf = malloc((size_t)(pack + MPI_BSEND_OVERHEAD));
  CHECK_MPI(MPI_Buffer_attach(bbuf, pack + MPI_BSEND_OVERHEAD));
  for (int iter = 0; iter < 5; ++iter) {
    sv[0] = iter;
    sv[1] = iter + 100;
    CHECK_MPI(MPI_Startall(2, rr));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Start(&rs));
    CHECK_MPI(MPI_Start(&bs));
    CHECK_MPI(MPI_Wait(&rs, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&bs, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
    CHECK(rv[0] == iter && rv[1] == iter + 100);
  }
  void *b;
  int bsz;
  CHECK_MPI(MPI_Buffer_detach(&b, &bsz));
  free(bbuf);
  for (int i = 0; i < 4; ++i) {
    CHECK_MPI(MPI_Request_free(&reqs[i]));
    CHECK(reqs[i] == MPI_REQUEST_NULL);
  }
  CHECK_MPI(MPI_Request_free(&rs));
  CHECK_MPI(MPI_Request_free(&bs));
  CHECK_MPI(MPI_Request_free(&rr[0]));
  CHECK_MPI(MPI_Request_free(&rr[1]));
}

static void test_probes(void) {
  double d[3] = {rank, 0.5, -1.0}, e[3];
  MPI_Status st;
  int flag, count;
  CHECK_MPI(MPI_Send(d, 3, MPI_DOUBLE, right, 140, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 140, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 140);
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
  CHECK(count == 3);
  /* A probe does not receive: Iprobe still sees it, then Recv takes it. */
  CHECK_MPI(MPI_Iprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
  CHECK(flag && st.MPI_TAG == 140);
  CHECK_MPI(MPI_Recv(e, 3, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(e[0] == left && e[1] == 0.5);
  CHECK_MPI(MPI_Iprobe(left, 140, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag);
  CHECK_MPI(MPI_Iprobe(MPI_PROC_NULL, 140, MPI_COMM_WORLD, &flag, &st));
  CHECK(flag && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);

  /* Matched probes: the message is ours; a later Iprobe does not see it. */
  MPI_Message msg;
  CHECK_MPI(MPI_Send(d, 3, MPI_DOUBLE, right, 141, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Mprobe(left, 141, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg != MPI_MESSAGE_NULL && st.MPI_SOURCE == left);
  CHECK_MPI(MPI_Iprobe(left, 141, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  CHECK(!flag);
  CHECK_MPI(MPI_Mrecv(e, 3, MPI_DOUBLE, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NULL && e[0] == left && st.MPI_TAG == 141);

  MPI_Request r;
  CHECK_MPI(MPI_Issend(d, 3, MPI_DOUBLE, right, 143, MPI_COMM_WORLD, &r));
  do CHECK_MPI(MPI_Improbe(left, 143, MPI_COMM_WORLD, &flag, &msg, &st));
  while (!flag);
  MPI_Request rr;
  CHECK_MPI(MPI_Imrecv(e, 3, MPI_DOUBLE, &msg, &rr));
  CHECK(msg == MPI_MESSAGE_NULL);
  CHECK_MPI(MPI_Wait(&rr, &st));
  CHECK(e[0] == left && st.MPI_SOURCE == left && st.MPI_TAG == 143);
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE)); /* the synchronous send completes once matched */

  /* MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, and receiving it is a no-op. */
  CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK_MPI(MPI_Mrecv(e, 3, MPI_DOUBLE, &msg, &st));
  CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
  CHECK(count == 0);
  CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE));
  CHECK(flag && msg == MPI_MESSAGE_NO_PROC);
  CHECK_MPI(MPI_Imrecv(e, 3, MPI_DOUBLE, &msg, &rr));
  CHECK_MPI(MPI_Wait(&rr, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  test_wait_variants();
  test_test_variants();
  test_sync_and_status();
  test_persistent();
  test_probes();
  MPI_Finalize();
  return 0;
}
