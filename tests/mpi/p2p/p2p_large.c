/* Large messages (rendezvous): 64 MiB checked byte for byte, sizes around
 * the protocol thresholds, non-contiguous layouts on either side (few large
 * pieces, and so many small ones that the sender packs), truncation, Ssend,
 * MPI_ANY_SOURCE, simultaneous exchange, and an Isend freed with
 * MPI_Request_free that MPI_Finalize must still complete, and large
 * messages to oneself (contiguous and strided, receive posted before and
 * after the send). Ranks work in
 * pairs (even r with r+1); p2p_large_fallback.c runs the same program with
 * the pipelined copy through the ring instead of process_vm_readv. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counter.h"

static int rank, size, peer;

static unsigned char pattern(size_t i, int seed) { return (unsigned char)(i * 131 + (i >> 12) * 7 + seed * 17 + 1); }

static void fill(unsigned char *p, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i) p[i] = pattern(i, seed);
}

static size_t mismatches(const unsigned char *p, size_t n, int seed) {
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) bad += p[i] != pattern(i, seed);
  return bad;
}

/* Sender (even rank) -> receiver (odd rank), n bytes as MPI_BYTE. */
static void transfer(size_t n, int seed, int ssend, int any_source) {
  unsigned char *buf = malloc(n ? n : 1);
  MPI_Status st;
  if (rank % 2 == 0) {
    fill(buf, n, seed);
    if (ssend)
      CHECK_MPI(MPI_Ssend(buf, (int)n, MPI_BYTE, peer, seed, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Send(buf, (int)n, MPI_BYTE, peer, seed, MPI_COMM_WORLD));
  } else {
    memset(buf, 0, n);
    CHECK_MPI(MPI_Recv(buf, (int)n, MPI_BYTE, any_source ? MPI_ANY_SOURCE : peer, seed, MPI_COMM_WORLD, &st));
    int count;
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK((size_t)count == n && st.MPI_SOURCE == peer && st.MPI_TAG == seed);
    CHECK(mismatches(buf, n, seed) == 0);
  }
  free(buf);
}

static void test_sizes(void) {
  transfer((size_t)64 << 20, 1, 0, 0);
  const size_t sizes[] = {4095, 4096, 8191, 8192, 16383, 16384, 16385, 16400, 32768, 65535, 65536, 100000,
                          262143, 262144, 262145, 1 << 20, (1 << 20) + 3, 3 << 20};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) transfer(sizes[k], 2 + (int)k, (int)(k % 3 == 1), (int)(k % 2));
}

static void test_exchange(void) {
  /* Both directions at once: each side is sender and receiver of a large message. */
  const size_t n = (size_t)5 << 20;
  unsigned char *out = malloc(n), *in = malloc(n);
  fill(out, n, rank);
  memset(in, 0, n);
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(out, (int)n, MPI_BYTE, peer, 60, in, (int)n, MPI_BYTE, peer, 60, MPI_COMM_WORLD, &st));
  CHECK(mismatches(in, n, peer) == 0);
  /* Several outstanding at once in both directions. */
  enum { K = 4 };
  MPI_Request r[2 * K];
  const size_t part = n / K;
  memset(in, 0, n);
  for (int i = 0; i < K; ++i)
    CHECK_MPI(MPI_Irecv(in + i * part, (int)part, MPI_BYTE, peer, 61 + i, MPI_COMM_WORLD, &r[i]));
  for (int i = K - 1; i >= 0; --i)
    CHECK_MPI(MPI_Isend(out + i * part, (int)part, MPI_BYTE, peer, 61 + i, MPI_COMM_WORLD, &r[K + i]));
  MPI_Status sts[2 * K];
  CHECK_MPI(MPI_Waitall(2 * K, r, sts));
  CHECK(mismatches(in, K * part, peer) == 0);
  free(out);
  free(in);
}

static void test_noncontiguous(void) {
  /* A vector of 8-double blocks (stride 16) against a contiguous buffer, both ways. */
  const int blocks = 1 << 15, blen = 8, stride = 16;
  const size_t n = (size_t)blocks * blen;
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(blocks, blen, stride, MPI_DOUBLE, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  double *strided = malloc((size_t)blocks * stride * sizeof(double));
  double *flat = malloc(n * sizeof(double));
  for (int dir = 0; dir < 2; ++dir) {
    const int sender = (rank % 2 == dir);
    if (sender) {
      for (int b = 0; b < blocks; ++b)
        for (int j = 0; j < stride; ++j) strided[(size_t)b * stride + j] = j < blen ? b * 8.0 + j : -1.0;
      for (size_t i = 0; i < n; ++i) flat[i] = (double)i;
      if (dir == 0)
        CHECK_MPI(MPI_Send(strided, 1, vec, peer, 70, MPI_COMM_WORLD));
      else
        CHECK_MPI(MPI_Send(flat, (int)n, MPI_DOUBLE, peer, 71, MPI_COMM_WORLD));
    } else if (dir == 0) {
      memset(flat, 0, n * sizeof(double));
      CHECK_MPI(MPI_Recv(flat, (int)n, MPI_DOUBLE, peer, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      size_t bad = 0;
      for (size_t i = 0; i < n; ++i) bad += flat[i] != (double)i;
      CHECK(bad == 0);
    } else {
      for (size_t i = 0; i < (size_t)blocks * stride; ++i) strided[i] = -2.0;
      CHECK_MPI(MPI_Recv(strided, 1, vec, peer, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      size_t bad = 0;
      for (int b = 0; b < blocks; ++b)
        for (int j = 0; j < stride; ++j)
          bad += strided[(size_t)b * stride + j] != (j < blen ? b * 8.0 + j : -2.0);
      CHECK(bad == 0);
    }
  }
  CHECK_MPI(MPI_Type_free(&vec));
  free(strided);
  free(flat);

  /* 200000 single ints, every other one: too fragmented to read remotely, so
   * the sender packs it into the ring; the receiver scatters it again. */
  const int m = 200000;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(m, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int *a = malloc((size_t)m * 2 * sizeof(int));
  if (rank % 2 == 0) {
    for (int i = 0; i < 2 * m; ++i) a[i] = i;
    CHECK_MPI(MPI_Send(a, 1, every_other, peer, 72, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(a, m, MPI_INT, peer, 73, MPI_COMM_WORLD));
  } else {
    for (int i = 0; i < 2 * m; ++i) a[i] = -1;
    CHECK_MPI(MPI_Recv(a, 2 * m, MPI_INT, peer, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    size_t bad = 0;
    for (int i = 0; i < m; ++i) bad += a[i] != 2 * i;
    CHECK(bad == 0);
    for (int i = 0; i < 2 * m; ++i) a[i] = -1;
    CHECK_MPI(MPI_Recv(a, 1, every_other, peer, 73, MPI_COMM_WORLD, MPI_STATUS_IGNORE)); /* m ints, strided */
    bad = 0;
    for (int i = 0; i < 2 * m; ++i) bad += a[i] != (i % 2 == 0 ? i / 2 : -1);
    CHECK(bad == 0);
  }
  free(a);
  CHECK_MPI(MPI_Type_free(&every_other));
}

static void test_truncation(void) {
  /* The receive buffer holds 1 MiB of a 3 MiB message: MPI_ERR_TRUNCATE,
   * the first 1 MiB delivered, the sender completes normally. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  const size_t big = (size_t)3 << 20, small = (size_t)1 << 20;
  unsigned char *buf = malloc(big);
  if (rank % 2 == 0) {
    fill(buf, big, 80);
    CHECK_MPI(MPI_Send(buf, (int)big, MPI_BYTE, peer, 80, MPI_COMM_WORLD));
  } else {
    memset(buf, 0, big);
    MPI_Status st;
    const int e = MPI_Recv(buf, (int)small, MPI_BYTE, peer, 80, MPI_COMM_WORLD, &st);
    int cls;
    MPI_Error_class(e, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE);
    CHECK(mismatches(buf, small, 80) == 0);
    size_t untouched = 0;
    for (size_t i = small; i < big; ++i) untouched += buf[i] == 0;
    CHECK(untouched == big - small);
  }
  free(buf);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static unsigned char *freed_send_buf; /* freed after MPI_Finalize */

static void test_freed_send(void) {
  /* The sender lets go of a large Isend and heads for MPI_Finalize; the
   * receiver only receives after a barrier. */
  const size_t n = (size_t)2 << 20;
  unsigned char *buf = malloc(n);
  if (rank % 2 == 0) {
    fill(buf, n, 90);
    MPI_Request r;
    CHECK_MPI(MPI_Isend(buf, (int)n, MPI_BYTE, peer, 90, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    /* buf must stay valid until the send is done: it is freed only after MPI_Finalize */
    freed_send_buf = buf;
  } else {
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    memset(buf, 0, n);
    CHECK_MPI(MPI_Recv(buf, (int)n, MPI_BYTE, peer, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(mismatches(buf, n, 90) == 0);
    free(buf);
  }
}

/* Every rank sends 1 MiB to itself: contiguous both ways, then from every
 * other int of a buffer (a vector type) into a contiguous one, the receive
 * posted first (MPI_Sendrecv) or after the send (MPI_Isend, then MPI_Recv). */
static void test_self(void) {
  const int n = 1 << 18; /* ints */
  int *src = malloc(sizeof(int) * 2 * (size_t)n), *dst = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < 2 * n; ++i) src[i] = i * 3 + rank;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  for (int strided = 0; strided < 2; ++strided)
    for (int later = 0; later < 2; ++later) {
      memset(dst, 0, sizeof(int) * (size_t)n);
      const MPI_Datatype t = strided ? every_other : MPI_INT;
      const int count = strided ? 1 : n;
      if (later) {
        MPI_Request r;
        CHECK_MPI(MPI_Isend(src, count, t, rank, 5, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Recv(dst, n, MPI_INT, rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
      } else {
        CHECK_MPI(MPI_Sendrecv(src, count, t, rank, 6, dst, n, MPI_INT, rank, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      }
      int bad = 0;
      for (int i = 0; i < n; ++i) bad += dst[i] != src[strided ? 2 * i : i];
      CHECK(bad == 0);
    }
  MPI_Type_free(&every_other);
  free(src);
  free(dst);
  /* Small messages to oneself keep their order whether a receive is posted
   * (then the message goes straight into it) or not (then through the self
   * ring): m1 before any receive, a receive, m2 and m3 (same tag), a second
   * receive; and with the receive posted first, a Sendrecv. */
  int m[3] = {11, 22, 33}, got[2] = {0, 0};
  MPI_Request q[5];
  CHECK_MPI(MPI_Isend(&m[0], 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &q[0]));
  CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &q[1]));
  CHECK_MPI(MPI_Isend(&m[1], 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &q[2]));
  CHECK_MPI(MPI_Isend(&m[2], 1, MPI_INT, rank, 9, MPI_COMM_WORLD, &q[3]));
  CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &q[4]));
  CHECK_MPI(MPI_Waitall(5, q, MPI_STATUSES_IGNORE));
  CHECK(got[0] == 11 && got[1] == 22);
  CHECK_MPI(MPI_Recv(&got[0], 1, MPI_INT, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(got[0] == 33);
  /* Two wildcard receives posted: the first message fills the first. */
  CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q[0]));
  CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q[1]));
  CHECK_MPI(MPI_Send(&m[2], 1, MPI_INT, rank, 3, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Send(&m[0], 1, MPI_INT, rank, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
  CHECK(got[0] == 33 && got[1] == 11);
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(&m[1], 1, MPI_INT, rank, 6, &got[0], 1, MPI_INT, rank, 6, MPI_COMM_WORLD, &st));
  CHECK(got[0] == 22 && st.MPI_TAG == 6 && st.MPI_SOURCE == rank);
}

int main(int argc, char **argv) {
#ifdef FORCE_FALLBACK
  setenv("RINGMPI_FORCE_COPY_FALLBACK", "1", 1);
#endif
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Pairs (0,1), (2,3), ...; an odd last rank pairs with itself. */
  peer = (rank % 2 == 0) ? (rank + 1 < size ? rank + 1 : rank) : rank - 1;
  test_self();
  if (peer == rank) { /* sizes 1 and odd: the unpaired rank only runs the barriers */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
  }
  test_sizes();
  test_exchange();
  test_noncontiguous();
  test_truncation();
  test_freed_send();
#ifndef FORCE_FALLBACK
  /* Rendezvous reads from the peer went through the single-copy module
   * (lib/smsc), which counts its system calls and their bytes. */
  if (counter("rndv_read") > 0 && counter("smsc_fallback") == 0) {
    CHECK(counter("smsc_calls") > 0);
    CHECK(counter("smsc_bytes") >= counter("smsc_calls"));
  }
#endif
  MPI_Finalize();
  free(freed_send_buf);
  return 0;
}
