/* Generalized requests (MPI-3.1 §12.2): the callbacks run at the standard's
 * moments and the request completes through Wait/Test like any other. */
#include <string.h>

#include "check.h"

typedef struct {
  int queries, frees, cancels, last_cancel_complete;
  int order;      /* sequence counter: query must come before free */
  int query_at, free_at;
  int query_error; /* what query_fn returns */
  int source, tag, elements;
} state_t;

static int query_fn(void *extra, MPI_Status *st) {
  state_t *s = (state_t *)extra;
  s->queries++;
  s->query_at = ++s->order;
  st->MPI_SOURCE = s->source;
  st->MPI_TAG = s->tag;
  MPI_Status_set_elements(st, MPI_INT, s->elements);
  MPI_Status_set_cancelled(st, s->cancels > 0);
  return s->query_error;
}
static int free_fn(void *extra) {
  state_t *s = (state_t *)extra;
  s->frees++;
  s->free_at = ++s->order;
  return MPI_SUCCESS;
}
static int cancel_fn(void *extra, int complete) {
  state_t *s = (state_t *)extra;
  s->cancels++;
  s->last_cancel_complete = complete;
  return MPI_SUCCESS;
}

static void init_state(state_t *s, int source, int tag, int elements) {
  memset(s, 0, sizeof *s);
  s->source = source;
  s->tag = tag;
  s->elements = elements;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  /* 1. Test before completion: not done, no callback; Request_get_status after
   * completion runs query_fn and keeps the request; Wait runs query then free. */
  {
    state_t s;
    init_state(&s, rank, 42, 5);
    MPI_Request req;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &req));
    int flag = 1;
    MPI_Status st;
    CHECK_MPI(MPI_Test(&req, &flag, &st));
    CHECK(flag == 0 && s.queries == 0 && s.frees == 0);
    CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
    CHECK(flag == 0 && s.queries == 0);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
    CHECK(flag == 1 && s.queries == 1 && s.frees == 0 && req != MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == rank && st.MPI_TAG == 42);
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(s.queries == 2 && s.frees == 1 && s.query_at < s.free_at);
    int count = -1, cancelled = 1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 5);
    CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &count));
    CHECK(count == 5);
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == 0);
    /* Completed twice: the second MPI_Grequest_complete on a live one is an error. */
    state_t t;
    init_state(&t, 0, 0, 0);
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &t, &req));
    CHECK_MPI(MPI_Grequest_complete(req));
    int err = MPI_Grequest_complete(req), cls = -1;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(t.queries == 1 && t.frees == 1);
  }

  /* 2. Completion from another point of the program: the request stands for
   * "the token from my left neighbour arrived"; a Waitany over it and the
   * receive completes the receive first, then the request once we complete it. */
  {
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    state_t s;
    init_state(&s, left, 7, 3);
    MPI_Request reqs[2];
    int token = -1, mine = 1000 + rank;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &reqs[0]));
    CHECK_MPI(MPI_Irecv(&token, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Send(&mine, 1, MPI_INT, right, 7, MPI_COMM_WORLD));
    int idx = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Waitany(2, reqs, &idx, &st));
    CHECK(idx == 1 && token == 1000 + left && s.queries == 0);
    CHECK_MPI(MPI_Grequest_complete(reqs[0]));
    int outcount = 0, indices[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Waitsome(2, reqs, &outcount, indices, sts));
    CHECK(outcount == 1 && indices[0] == 0 && sts[0].MPI_SOURCE == left && sts[0].MPI_TAG == 7);
    CHECK(s.queries == 1 && s.frees == 1 && reqs[0] == MPI_REQUEST_NULL);
  }

  /* 3. MPI_Cancel runs cancel_fn with the completion flag; the query_fn
   * reports the cancellation, seen by MPI_Test_cancelled after MPI_Wait. */
  {
    state_t s;
    init_state(&s, 0, 0, 0);
    MPI_Request req;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(s.cancels == 1 && s.last_cancel_complete == 0);
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK(s.cancels == 2 && s.last_cancel_complete == 1);
    MPI_Status st;
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Test(&req, &flag, &st));
    int cancelled = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled == 1 && s.frees == 1);
  }

  /* 4. MPI_Request_free before completion: no query_fn; free_fn runs when
   * MPI_Grequest_complete completes it. After completion: at once. */
  {
    state_t s;
    init_state(&s, 0, 0, 0);
    MPI_Request req, keep;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s, &req));
    keep = req;
    CHECK_MPI(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL && s.frees == 0);
    CHECK_MPI(MPI_Grequest_complete(keep));
    CHECK(s.frees == 1 && s.queries == 0);
    state_t t;
    init_state(&t, 0, 0, 0);
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &t, &req));
    CHECK_MPI(MPI_Grequest_complete(req));
    CHECK_MPI(MPI_Request_free(&req));
    CHECK(req == MPI_REQUEST_NULL && t.frees == 1 && t.queries == 0);
    MPI_Barrier(MPI_COMM_WORLD); /* progress: the engine lets both go */
  }

  /* 5. An error from query_fn: MPI_Wait returns it; MPI_Waitall returns
   * MPI_ERR_IN_STATUS with it in that request's MPI_ERROR field. */
  {
    state_t good, bad;
    init_state(&good, rank, 1, 2);
    init_state(&bad, rank, 2, 0);
    bad.query_error = MPI_ERR_OTHER;
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &good, &reqs[0]));
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &bad, &reqs[1]));
    CHECK_MPI(MPI_Grequest_complete(reqs[1]));
    CHECK_MPI(MPI_Grequest_complete(reqs[0]));
    MPI_Status sts[2];
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = -1;
    int err = MPI_Waitall(2, reqs, sts);
    CHECK(err == MPI_ERR_IN_STATUS);
    CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MPI_ERR_OTHER);
    CHECK(sts[0].MPI_TAG == 1 && sts[1].MPI_TAG == 2);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
    CHECK(good.frees == 1 && bad.frees == 1 && bad.queries == 1);

    init_state(&bad, rank, 3, 0);
    bad.query_error = MPI_ERR_OTHER;
    MPI_Request req;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &bad, &req));
    CHECK_MPI(MPI_Grequest_complete(req));
    err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(err == MPI_ERR_OTHER && req == MPI_REQUEST_NULL && bad.frees == 1);
  }

  /* 6. Many at once, completed in reverse, handed back by MPI_Testall. */
  {
    enum { N = 16 };
    state_t s[N];
    MPI_Request reqs[N];
    for (int i = 0; i < N; ++i) {
      init_state(&s[i], rank, i, i);
      CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &s[i], &reqs[i]));
    }
    int flag = 1;
    CHECK_MPI(MPI_Testall(N, reqs, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag == 0);
    for (int i = N - 1; i >= 0; --i) CHECK_MPI(MPI_Grequest_complete(reqs[i]));
    MPI_Status sts[N];
    flag = 0;
    while (!flag) CHECK_MPI(MPI_Testall(N, reqs, &flag, sts));
    for (int i = 0; i < N; ++i) {
      int count = -1;
      CHECK_MPI(MPI_Get_count(&sts[i], MPI_INT, &count));
      CHECK(sts[i].MPI_TAG == i && count == i && s[i].frees == 1 && reqs[i] == MPI_REQUEST_NULL);
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
