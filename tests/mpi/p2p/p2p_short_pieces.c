/* Large messages whose datatype is many short pieces (a matrix column, a
 * transpose, a vector of small blocks): the receiver stages them (one
 * process_vm_readv into a buffer, then the datatype unpack: counter
 * rndv_staged) and the sender pushes them packed through the ring (counter
 * rndv_push) instead of handing the kernel one iovec per piece, which made
 * an 80 KB transpose 100 times slower than a contiguous receive into the
 * type and 1000 times slower out of it. Checks the data element for element
 * in both directions and with both sides strided, sizes below and above one
 * stage (256 KiB), block lengths on both sides of the 256-byte cut, count >
 * 1, Ssend and MPI_Get_count, and which path each transfer took. Ranks work
 * in pairs (even r with r+1). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counter.h"

static int rank, size, peer;

static double value(int i, int seed) { return (double)i * 3.0 + seed * 0.5 + 1.0; }

/* n x n doubles, column-major transpose type: element (i, j) of the stream
 * lands at [j][i]. */
static MPI_Datatype transpose_type(int n) {
  MPI_Datatype col, xpose;
  CHECK_MPI(MPI_Type_vector(n, 1, n, MPI_DOUBLE, &col));
  CHECK_MPI(MPI_Type_create_hvector(n, 1, sizeof(double), col, &xpose));
  CHECK_MPI(MPI_Type_commit(&xpose));
  CHECK_MPI(MPI_Type_free(&col));
  return xpose;
}

/* Stream into a transpose on the receiver; plain doubles on the sender. */
static void recv_strided(int n, int seed, int ssend) {
  const int cnt = n * n;
  double *buf = malloc(sizeof(double) * (size_t)cnt);
  if (rank % 2 == 0) {
    for (int i = 0; i < cnt; ++i) buf[i] = value(i, seed);
    if (ssend)
      CHECK_MPI(MPI_Ssend(buf, cnt, MPI_DOUBLE, peer, seed, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Send(buf, cnt, MPI_DOUBLE, peer, seed, MPI_COMM_WORLD));
  } else {
    MPI_Datatype t = transpose_type(n);
    MPI_Status st;
    int got = -1;
    for (int i = 0; i < cnt; ++i) buf[i] = -1.0;
    CHECK_MPI(MPI_Recv(buf, 1, t, peer, seed, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &got));
    CHECK(got == cnt);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) CHECK(buf[j * n + i] == value(i * n + j, seed));
    CHECK_MPI(MPI_Type_free(&t));
  }
  free(buf);
}

/* Transpose on the sender; plain doubles on the receiver. */
static void send_strided(int n, int seed) {
  const int cnt = n * n;
  double *buf = malloc(sizeof(double) * (size_t)cnt);
  if (rank % 2 == 0) {
    MPI_Datatype t = transpose_type(n);
    for (int i = 0; i < cnt; ++i) buf[i] = value(i, seed);
    CHECK_MPI(MPI_Send(buf, 1, t, peer, seed, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&t));
  } else {
    for (int i = 0; i < cnt; ++i) buf[i] = -1.0;
    CHECK_MPI(MPI_Recv(buf, cnt, MPI_DOUBLE, peer, seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) CHECK(buf[i * n + j] == value(j * n + i, seed));
  }
  free(buf);
}

/* count elements of a vector of nb blocks of len bytes (stride 2*len) on
 * both sides: block k of the stream holds bytes seeded by k. */
static void both_strided(int count, int nb, int len, int seed) {
  MPI_Datatype v;
  CHECK_MPI(MPI_Type_vector(nb, len, 2 * len, MPI_BYTE, &v));
  CHECK_MPI(MPI_Type_commit(&v));
  MPI_Aint lb, ext;
  CHECK_MPI(MPI_Type_get_extent(v, &lb, &ext));
  const size_t span = (size_t)ext * (size_t)count;
  unsigned char *buf = malloc(span);
  for (size_t i = 0; i < span; ++i) buf[i] = 0xEE;
  if (rank % 2 == 0) {
    for (int e = 0; e < count; ++e)
      for (int k = 0; k < nb; ++k)
        for (int b = 0; b < len; ++b)
          buf[(size_t)e * (size_t)ext + (size_t)k * 2 * (size_t)len + (size_t)b] =
              (unsigned char)(e * 7 + k * 13 + b + seed);
    CHECK_MPI(MPI_Send(buf, count, v, peer, seed, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Recv(buf, count, v, peer, seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int e = 0; e < count; ++e)
      for (int k = 0; k < nb; ++k) {
        const size_t at = (size_t)e * (size_t)ext + (size_t)k * 2 * (size_t)len;
        for (int b = 0; b < len; ++b) CHECK(buf[at + (size_t)b] == (unsigned char)(e * 7 + k * 13 + b + seed));
        if (k + 1 < nb) /* the gap to the next block is left alone */
          for (int b = 0; b < len; ++b) CHECK(buf[at + (size_t)len + (size_t)b] == 0xEE);
      }
  }
  CHECK_MPI(MPI_Type_free(&v));
  free(buf);
}

/* n doubles, each followed by a gap of one double (MPI_Type_create_resized):
 * one piece per element, elements not adjacent. */
static void resized(int n, int seed, int strided_side) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 2 * sizeof(double), &t));
  CHECK_MPI(MPI_Type_commit(&t));
  double *buf = malloc(sizeof(double) * 2 * (size_t)n);
  for (int i = 0; i < 2 * n; ++i) buf[i] = -1.0;
  const int me = rank % 2; /* 0 sends, 1 receives */
  if (me == 0) {
    for (int i = 0; i < n; ++i) buf[strided_side == 0 ? 2 * i : i] = value(i, seed);
    if (strided_side == 0)
      CHECK_MPI(MPI_Send(buf, n, t, peer, seed, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Send(buf, n, MPI_DOUBLE, peer, seed, MPI_COMM_WORLD));
  } else {
    if (strided_side == 1)
      CHECK_MPI(MPI_Recv(buf, n, t, peer, seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    else
      CHECK_MPI(MPI_Recv(buf, n, MPI_DOUBLE, peer, seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) {
      CHECK(buf[strided_side == 1 ? 2 * i : i] == value(i, seed));
      if (strided_side == 1) CHECK(buf[2 * i + 1] == -1.0);
    }
  }
  CHECK_MPI(MPI_Type_free(&t));
  free(buf);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  peer = rank ^ 1;
  if (peer < size) {
    const int sizes[] = {100, 181, 300, 400};
    for (int k = 0; k < 4; ++k) {
      const long long staged = counter("rndv_staged"), read = counter("rndv_read");
      recv_strided(sizes[k], k, 0);
      recv_strided(sizes[k], 10 + k, 1);
      if (rank % 2 == 1) { /* both read single-copy, through the stage */
        CHECK(counter("rndv_staged") >= staged + 2);
        CHECK(counter("rndv_read") == read + 2);
      }
      const long long push = counter("rndv_push");
      send_strided(sizes[k], 20 + k);
      if (rank % 2 == 1) CHECK(counter("rndv_push") == push + 1);
    }
    /* 128 KiB .. 1 MiB of data; block lengths either side of 256 bytes. */
    long long push = counter("rndv_push"), read = counter("rndv_read");
    both_strided(1, 16384, 8, 1);
    both_strided(3, 700, 100, 2);
    both_strided(2, 600, 255, 3);
    if (rank % 2 == 1) CHECK(counter("rndv_push") == push + 3 && counter("rndv_read") == read);
    const long long staged = counter("rndv_staged");
    push = counter("rndv_push"), read = counter("rndv_read");
    both_strided(2, 600, 257, 4); /* long enough pieces: single copy, piece by piece */
    if (rank % 2 == 1)
      CHECK(counter("rndv_push") == push && counter("rndv_read") == read + 1 && counter("rndv_staged") == staged);
    both_strided(1, 20000, 24, 5);
    const long long staged2 = counter("rndv_staged");
    push = counter("rndv_push");
    resized(40000, 6, 1); /* into the resized type: staged */
    resized(40000, 7, 0); /* out of it: pushed */
    if (rank % 2 == 1) CHECK(counter("rndv_staged") >= staged2 + 1 && counter("rndv_push") == push + 1);
  }
  MPI_Finalize();
  return 0;
}
