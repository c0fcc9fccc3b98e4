/* The large-count (_c) point-to-point calls of MPI-4.1 with counts that fit
 * an int: every send mode, blocking and nonblocking, persistent, sendrecv(_replace),
 * matched receives, buffered sends with MPI_Buffer_attach_c/detach_c, and
 * MPI_Get_count_c / MPI_Get_elements_c, each delivering what the int form
 * delivers. Ring neighbours at any rank count (a rank is its own neighbour at np 1). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { N = 1000 };

static void fill(int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i) buf[i] = seed * 100000 + i;
}

static void expect(const int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i) CHECK(buf[i] == seed * 100000 + i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int* out = malloc(N * sizeof(int));
  int* in = malloc(N * sizeof(int));
  fill(out, N, rank);
  MPI_Status st;
  MPI_Request r[2];

  /* Blocking modes: post the receive first so that Rsend and Ssend are valid at np 1. */
  for (int mode = 0; mode < 3; ++mode) {
    memset(in, 0, N * sizeof(int));
    CHECK_MPI(MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 10 + mode, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  /* every receive is posted before any ready send */
    if (mode == 0) CHECK_MPI(MPI_Send_c(out, (MPI_Count)N, MPI_INT, right, 10, MPI_COMM_WORLD));
    if (mode == 1) CHECK_MPI(MPI_Rsend_c(out, (MPI_Count)N, MPI_INT, right, 11, MPI_COMM_WORLD));
    if (mode == 2) CHECK_MPI(MPI_Issend_c(out, (MPI_Count)N, MPI_INT, right, 12, MPI_COMM_WORLD, &r[1]));
    if (mode == 2) CHECK_MPI(MPI_Wait(&r[1], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r[0], &st));
    expect(in, N, left);
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
    CHECK(n == N);
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &n));
    CHECK(n == N);
    int ni = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &ni));
    CHECK(ni == N);
  }

  /* Blocking receive of a nonblocking send; Ssend_c with its receive posted by Recv_c. */
  CHECK_MPI(MPI_Isend_c(out, (MPI_Count)N, MPI_INT, right, 20, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Recv_c(in, (MPI_Count)N, MPI_INT, left, 20, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
  expect(in, N, left);
  CHECK_MPI(MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 21, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Ssend_c(out, (MPI_Count)N, MPI_INT, right, 21, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
  expect(in, N, left);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Irecv_c(in, (MPI_Count)N, MPI_INT, left, 22, MPI_COMM_WORLD, &r[0]));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Irsend_c(out, (MPI_Count)N, MPI_INT, right, 22, MPI_COMM_WORLD, &r[1]));
  CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
  expect(in, N, left);

  /* Buffered sends through a buffer attached with the _c form. */
  {
    MPI_Count bsize = 0;
    CHECK_MPI(MPI_Pack_size_c((MPI_Count)N, MPI_INT, MPI_COMM_WORLD, &bsize));
    CHECK(bsize == (MPI_Count)N * (MPI_Count)sizeof(int));
    bsize = 2 * (bsize + MPI_BSEND_OVERHEAD);
    void* b = malloc((size_t)bsize);
    CHECK_MPI(MPI_Buffer_attach_c(b, bsize));
    CHECK_MPI(MPI_Bsend_c(out, (MPI_Count)N, MPI_INT, right, 30, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Ibsend_c(out, (MPI_Count)N, MPI_INT, right, 31, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Recv_c(in, (MPI_Count)N, MPI_INT, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect(in, N, left);
    CHECK_MPI(MPI_Recv_c(in, (MPI_Count)N, MPI_INT, left, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect(in, N, left);
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    void* back = NULL;
    MPI_Count got = 0;
    CHECK_MPI(MPI_Buffer_detach_c(&back, &got));
    CHECK(back == b && got == bsize);
    /* The int form detaches what the _c form attached when it fits. */
    CHECK_MPI(MPI_Buffer_attach_c(b, bsize));
    int goti = 0;
    CHECK_MPI(MPI_Buffer_detach(&back, &goti));
    CHECK(back == b && goti == (int)bsize);
    free(b);
  }

  /* A buffer beyond an int (never touched: no memory is used): the int
   * detach refuses it with MPI_ERR_VALUE_TOO_LARGE and leaves it attached. */
  {
    const MPI_Count huge = ((MPI_Count)1 << 31) + 100;
    void* b = malloc((size_t)huge);
    CHECK(b != NULL);
    CHECK_MPI(MPI_Buffer_attach_c(b, huge));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    void* back = NULL;
    int goti = 0, cls = -1;
    MPI_Error_class(MPI_Buffer_detach(&back, &goti), &cls);
    CHECK(cls == MPI_ERR_VALUE_TOO_LARGE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Count got = 0;
    CHECK_MPI(MPI_Buffer_detach_c(&back, &got));
    CHECK(back == b && got == huge);
    free(b);
  }

  /* Persistent requests, started twice. */
  {
    MPI_Request p[2];
    CHECK_MPI(MPI_Recv_init_c(in, (MPI_Count)N, MPI_INT, left, 40, MPI_COMM_WORLD, &p[0]));
    CHECK_MPI(MPI_Send_init_c(out, (MPI_Count)N, MPI_INT, right, 40, MPI_COMM_WORLD, &p[1]));
    for (int k = 0; k < 2; ++k) {
      memset(in, 0, N * sizeof(int));
      CHECK_MPI(MPI_Startall(2, p));
      CHECK_MPI(MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
      expect(in, N, left);
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    CHECK_MPI(MPI_Recv_init_c(in, (MPI_Count)N, MPI_INT, left, 41, MPI_COMM_WORLD, &p[0]));
    CHECK_MPI(MPI_Ssend_init_c(out, (MPI_Count)N, MPI_INT, right, 41, MPI_COMM_WORLD, &p[1]));
    CHECK_MPI(MPI_Startall(2, p));
    CHECK_MPI(MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
    expect(in, N, left);
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    CHECK_MPI(MPI_Recv_init_c(in, (MPI_Count)N, MPI_INT, left, 42, MPI_COMM_WORLD, &p[0]));
    CHECK_MPI(MPI_Start(&p[0]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Rsend_init_c(out, (MPI_Count)N, MPI_INT, right, 42, MPI_COMM_WORLD, &p[1]));
    CHECK_MPI(MPI_Start(&p[1]));
    CHECK_MPI(MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
    expect(in, N, left);
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    int bsize = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    void* b = malloc((size_t)bsize);
    CHECK_MPI(MPI_Buffer_attach(b, bsize));
    CHECK_MPI(MPI_Bsend_init_c(out, (MPI_Count)N, MPI_INT, right, 43, MPI_COMM_WORLD, &p[1]));
    CHECK_MPI(MPI_Start(&p[1]));
    CHECK_MPI(MPI_Recv_c(in, (MPI_Count)N, MPI_INT, left, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&p[1], MPI_STATUS_IGNORE));
    expect(in, N, left);
    MPI_Request_free(&p[1]);
    void* back;
    CHECK_MPI(MPI_Buffer_detach(&back, &bsize));
    free(b);
  }

  /* Sendrecv and Sendrecv_replace. */
  memset(in, 0, N * sizeof(int));
  CHECK_MPI(MPI_Sendrecv_c(out, (MPI_Count)N, MPI_INT, right, 50, in, (MPI_Count)N, MPI_INT, left, 50,
                           MPI_COMM_WORLD, &st));
  expect(in, N, left);
  fill(in, N, rank);
  CHECK_MPI(MPI_Sendrecv_replace_c(in, (MPI_Count)N, MPI_INT, right, 51, left, 51, MPI_COMM_WORLD, &st));
  expect(in, N, left);
  {
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
    CHECK(n == N);
  }

  /* Matched probes: Mrecv_c and Imrecv_c. */
  {
    MPI_Message m;
    CHECK_MPI(MPI_Isend_c(out, (MPI_Count)N, MPI_INT, right, 60, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Mprobe(left, 60, MPI_COMM_WORLD, &m, &st));
    MPI_Count n = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
    CHECK(n == N);
    memset(in, 0, N * sizeof(int));
    CHECK_MPI(MPI_Mrecv_c(in, n, MPI_INT, &m, &st));
    expect(in, N, left);
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Isend_c(out, (MPI_Count)N, MPI_INT, right, 61, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Mprobe(left, 61, MPI_COMM_WORLD, &m, &st));
    memset(in, 0, N * sizeof(int));
    CHECK_MPI(MPI_Imrecv_c(in, (MPI_Count)N, MPI_INT, &m, &r[1]));
    CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    expect(in, N, left);
  }

  /* A derived type and a partial receive: Get_count_c is MPI_UNDEFINED for
   * bytes that are not whole elements; Get_elements_c counts basic ones. */
  {
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_contiguous_c(2, MPI_INT, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Isend_c(out, 7, MPI_INT, right, 70, MPI_COMM_WORLD, &r[0]));
    CHECK_MPI(MPI_Recv_c(in, 4, pair, left, 70, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    MPI_Count n = 0;
    CHECK_MPI(MPI_Get_count_c(&st, pair, &n));
    CHECK(n == MPI_UNDEFINED);
    CHECK_MPI(MPI_Get_elements_c(&st, pair, &n));
    CHECK(n == 7);
    /* A count of zero and negative counts. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int e = MPI_Send_c(out, (MPI_Count)-5, MPI_INT, right, 71, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(e, &cls);
    CHECK(cls == MPI_ERR_COUNT);
    e = MPI_Send_c(out, -((MPI_Count)1 << 33), MPI_INT, right, 71, MPI_COMM_WORLD);
    MPI_Error_class(e, &cls);
    CHECK(cls == MPI_ERR_COUNT);
    MPI_Type_free(&pair);
  }

  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
