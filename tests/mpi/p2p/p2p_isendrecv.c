/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 §3.10.2): a ring exchange
 * completed by each kind of completion call, to oneself, with MPI_PROC_NULL,
 * a derived datatype, and a message large enough for the rendezvous path. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void ring_small(int how) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[4] = {rank, rank * 10, how, -1}, in[4] = {0};
  MPI_Request req;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv(out, 4, MPI_INT, right, 100 + how, in, 4, MPI_INT, left, 100 + how, MPI_COMM_WORLD, &req));
  CHECK(req != MPI_REQUEST_NULL);
  if (how == 0) {
    CHECK_MPI(MPI_Wait(&req, &st));
  } else if (how == 1) {
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Test(&req, &flag, &st));
  } else if (how == 2) {
    int index;
    CHECK_MPI(MPI_Waitany(1, &req, &index, &st));
    CHECK(index == 0);
  } else if (how == 3) {
    int outcount = 0, idx;
    while (outcount == 0) CHECK_MPI(MPI_Testsome(1, &req, &outcount, &idx, &st));
    CHECK(outcount == 1 && idx == 0);
  } else {
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Testall(1, &req, &flag, &st));
  }
  CHECK(req == MPI_REQUEST_NULL);
  CHECK(in[0] == left && in[1] == left * 10 && in[2] == how && in[3] == -1);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 100 + how);
  int count;
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 4);
}

static void to_self(void) {
  double out = 2.5 + rank, in = 0;
  MPI_Request req;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_DOUBLE, rank, 7, &in, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(in == 2.5 + rank && st.MPI_SOURCE == rank && st.MPI_TAG == 7);
  int v = rank + 1;
  CHECK_MPI(MPI_Isendrecv_replace(&v, 1, MPI_INT, 0, 8, 0, 8, MPI_COMM_SELF, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(v == rank + 1 && st.MPI_SOURCE == 0 && st.MPI_TAG == 8);
}

static void proc_null(void) {
  int out = 1, in = 42;
  MPI_Request req;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 0, &in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(in == 42 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
  int count = -1;
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 0);
  /* Sending to a real peer, receiving from nobody. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, right, 3, &in, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &req));
  int got;
  CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(got == 1 && st.MPI_SOURCE == MPI_PROC_NULL);
}

/* Replace with a strided type, and several pending at once (Waitall). */
static void replace_vector(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(8, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int a[16], b[16];
  for (int i = 0; i < 16; ++i) {
    a[i] = rank * 100 + i;
    b[i] = -rank * 100 - i;
  }
  MPI_Request reqs[2];
  MPI_Status sts[2];
  CHECK_MPI(MPI_Isendrecv_replace(a, 1, every_other, right, 1, left, 1, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Isendrecv_replace(b, 1, every_other, left, 2, right, 2, MPI_COMM_WORLD, &reqs[1]));
  CHECK_MPI(MPI_Type_free(&every_other)); /* the pending operations keep it */
  CHECK_MPI(MPI_Waitall(2, reqs, sts));
  for (int i = 0; i < 16; ++i) {
    CHECK(a[i] == (i % 2 == 0 ? left * 100 + i : rank * 100 + i));
    CHECK(b[i] == (i % 2 == 0 ? -right * 100 - i : -rank * 100 - i));
  }
  CHECK(sts[0].MPI_SOURCE == left && sts[1].MPI_SOURCE == right && sts[1].MPI_TAG == 2);
}

/* 1 MiB each way: the rendezvous protocols, with a wildcard source. */
static void large(void) {
  const int n = 1 << 18;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int* out = malloc(sizeof(int) * (size_t)n);
  int* in = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) out[i] = rank ^ i;
  MPI_Request req;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT, right, 9, in, n, MPI_INT, size == 1 ? rank : MPI_ANY_SOURCE, 9,
                          MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  for (int i = 0; i < n; ++i) CHECK(in[i] == (left ^ i));
  CHECK(st.MPI_SOURCE == left);
  CHECK_MPI(MPI_Isendrecv_replace(out, n, MPI_INT, right, 10, left, 10, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  for (int i = 0; i < n; ++i) CHECK(out[i] == (left ^ i));
  free(out);
  free(in);
}

/* A truncated receive is the request's error, reported at completion. */
static void truncation(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int out[4] = {1, 2, 3, 4}, in[2];
  MPI_Request req;
  CHECK_MPI(MPI_Isendrecv(out, 4, MPI_INT, right, 11, in, 2, MPI_INT, left, 11, MPI_COMM_WORLD, &req));
  int e = MPI_Wait(&req, MPI_STATUS_IGNORE), cls;
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* MPI_Request_free on an active MPI_Isendrecv: the operation still happens. */
static void freed_early(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = rank + 500, in = -1, out2 = rank, in2 = -1;
  MPI_Request req;
  CHECK_MPI(MPI_Isendrecv(&out, 1, MPI_INT, right, 12, &in, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Request_free(&req));
  CHECK(req == MPI_REQUEST_NULL);
  /* A later message of the same pair matches after it (message order), so
   * once this one is in, the earlier one has arrived too. */
  CHECK_MPI(MPI_Sendrecv(&out2, 1, MPI_INT, right, 12, &in2, 1, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(in2 == left);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(in == left + 500);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int how = 0; how < 5; ++how) ring_small(how);
  to_self();
  proc_null();
  replace_vector();
  large();
  freed_early();
  MPI_Barrier(MPI_COMM_WORLD);
  truncation();
  MPI_Finalize();
  return 0;
}
