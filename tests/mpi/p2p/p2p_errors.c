/* Errors of the point-to-point calls under MPI_ERRORS_RETURN: each bad
 * argument returns its standard error class (and the library keeps working),
 * a truncated receive returns MPI_ERR_TRUNCATE, and the multiple-completion
 * calls report MPI_ERR_IN_STATUS with the per-request codes in MPI_ERROR. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

#define EXPECT(call, cls) CHECK(error_class(call) == (cls))

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int v = rank, w = -1, buf[8];
  MPI_Request r;
  MPI_Status st;

  /* Arguments. */
  EXPECT(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT(MPI_Send(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT(MPI_Send(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT(MPI_Recv(&v, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  EXPECT(MPI_Send(&v, 1, MPI_INT, right, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT(MPI_Send(&v, 1, MPI_INT, right, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT(MPI_Irecv(&v, 1, MPI_INT, left, -5, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
  EXPECT(MPI_Send(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  EXPECT(MPI_Isend(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
  EXPECT(MPI_Send(&v, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
  EXPECT(MPI_Send(&v, 1, MPI_INT, right, 0, MPI_COMM_NULL), MPI_ERR_COMM);
  EXPECT(MPI_Send(NULL, 3, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  EXPECT(MPI_Probe(size, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
  EXPECT(MPI_Iprobe(left, -9, MPI_COMM_WORLD, &w, &st), MPI_ERR_TAG);

  /* The largest tag works (MPI_TAG_UB). */
  int *ub, flag;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
  CHECK(flag && *ub >= 32767);
  CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, right, *ub, &w, 1, MPI_INT, left, *ub, MPI_COMM_WORLD, &st));
  CHECK(w == left && st.MPI_TAG == *ub);

  /* Requests. */
  MPI_Request garbage = (MPI_Request)0x12345;
  EXPECT(MPI_Wait(&garbage, &st), MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r));
  MPI_Request stale = r;
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 1, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r, &st));
  EXPECT(MPI_Wait(&stale, &st), MPI_ERR_REQUEST); /* completed: the handle is dead */
  EXPECT(MPI_Request_free(&stale), MPI_ERR_REQUEST);
  MPI_Request nul = MPI_REQUEST_NULL;
  EXPECT(MPI_Start(&nul), MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r));
  EXPECT(MPI_Start(&r), MPI_ERR_REQUEST); /* not persistent */
  CHECK_MPI(MPI_Cancel(&r));
  CHECK_MPI(MPI_Wait(&r, &st));
  MPI_Request p;
  CHECK_MPI(MPI_Recv_init(&w, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &p));
  CHECK_MPI(MPI_Start(&p));
  EXPECT(MPI_Start(&p), MPI_ERR_REQUEST); /* already active */
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 3, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&p, &st));
  CHECK_MPI(MPI_Request_free(&p));
  MPI_Request two[2] = {garbage, MPI_REQUEST_NULL};
  MPI_Status two_st[2];
  EXPECT(MPI_Waitall(2, two, two_st), MPI_ERR_REQUEST);
  EXPECT(MPI_Waitall(-1, two, two_st), MPI_ERR_COUNT);
  MPI_Message m = MPI_MESSAGE_NULL;
  EXPECT(MPI_Mrecv(buf, 1, MPI_INT, &m, &st), MPI_ERR_REQUEST);
  EXPECT(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &w), MPI_ERR_ARG);

  /* Buffered sends need an attached buffer with room. */
  EXPECT(MPI_Bsend(&v, 1, MPI_INT, right, 4, MPI_COMM_WORLD), MPI_ERR_BUFFER);
  char small[MPI_BSEND_OVERHEAD + 4];
  CHECK_MPI(MPI_Buffer_attach(small, sizeof small));
  EXPECT(MPI_Buffer_attach(small, sizeof small), MPI_ERR_BUFFER);
  EXPECT(MPI_Bsend(buf, 8, MPI_INT, right, 4, MPI_COMM_WORLD), MPI_ERR_BUFFER); /* 32 bytes do not fit */
  CHECK_MPI(MPI_Bsend(&v, 1, MPI_INT, right, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &st));
  void *back;
  int bsize;
  CHECK_MPI(MPI_Buffer_detach(&back, &bsize));
  CHECK(back == small && bsize == (int)sizeof small);

  /* Truncation: blocking, nonblocking, and inside Waitall/Testall/Waitsome/Waitany. */
  int eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK_MPI(MPI_Send(eight, 8, MPI_INT, right, 10, MPI_COMM_WORLD));
  memset(buf, 0, sizeof buf);
  EXPECT(MPI_Recv(buf, 2, MPI_INT, left, 10, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
  CHECK(buf[0] == 1 && buf[1] == 2 && buf[2] == 0 && st.MPI_SOURCE == left && st.MPI_TAG == 10);
  CHECK_MPI(MPI_Irecv(buf, 3, MPI_INT, left, 11, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Send(eight, 8, MPI_INT, right, 11, MPI_COMM_WORLD));
  EXPECT(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
  CHECK(r == MPI_REQUEST_NULL);

  for (int variant = 0; variant < 4; ++variant) {
    MPI_Request rs[3];
    MPI_Status sts[3];
    int a = -1, c = -1;
    CHECK_MPI(MPI_Irecv(&a, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &rs[0]));
    CHECK_MPI(MPI_Irecv(buf, 1, MPI_INT, left, 21, MPI_COMM_WORLD, &rs[1]));
    CHECK_MPI(MPI_Irecv(&c, 1, MPI_INT, left, 22, MPI_COMM_WORLD, &rs[2]));
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 20, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(eight, 8, MPI_INT, right, 21, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, right, 22, MPI_COMM_WORLD));
    for (int k = 0; k < 3; ++k) sts[k].MPI_ERROR = -1;
    if (variant == 0) {
      EXPECT(MPI_Waitall(3, rs, sts), MPI_ERR_IN_STATUS);
      CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && error_class(sts[1].MPI_ERROR) == MPI_ERR_TRUNCATE &&
            sts[2].MPI_ERROR == MPI_SUCCESS);
    } else if (variant == 1) {
      int fl = 0, e;
      do e = MPI_Testall(3, rs, &fl, sts);
      while (e == MPI_SUCCESS && !fl);
      CHECK(error_class(e) == MPI_ERR_IN_STATUS && fl);
      CHECK(error_class(sts[1].MPI_ERROR) == MPI_ERR_TRUNCATE && sts[2].MPI_ERROR == MPI_SUCCESS);
    } else if (variant == 2) {
      int done = 0, truncated = 0;
      while (done < 3) {
        int outcount, idx[3];
        const int e = MPI_Waitsome(3, rs, &outcount, idx, sts);
        for (int k = 0; k < outcount; ++k) {
          if (idx[k] == 1) {
            CHECK(error_class(e) == MPI_ERR_IN_STATUS && error_class(sts[k].MPI_ERROR) == MPI_ERR_TRUNCATE);
            ++truncated;
          } else if (e != MPI_SUCCESS) {
            CHECK(sts[k].MPI_ERROR == MPI_SUCCESS);
          }
        }
        done += outcount;
      }
      CHECK(truncated == 1);
    } else {
      int truncated = 0;
      for (int k = 0; k < 3; ++k) {
        int idx;
        const int e = MPI_Waitany(3, rs, &idx, &st);
        CHECK((idx == 1) == (error_class(e) == MPI_ERR_TRUNCATE));
        truncated += idx == 1;
      }
      CHECK(truncated == 1);
    }
    CHECK(a == left && c == left);
    for (int k = 0; k < 3; ++k) CHECK(rs[k] == MPI_REQUEST_NULL);
  }

  /* Still healthy. */
  CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, right, 30, &w, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &st));
  CHECK(w == left);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Finalize();
  return 0;
}
