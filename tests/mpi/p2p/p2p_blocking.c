/* Blocking point-to-point: the four send modes, every predefined C datatype,
 * status fields and MPI_Get_count, MPI_ANY_SOURCE/MPI_ANY_TAG, MPI_PROC_NULL,
 * the non-overtaking order, zero-byte messages, MPI_Sendrecv(_replace) and
 * buffered sends with MPI_Buffer_attach/detach. Works at any size >= 1
 * (rank r talks to its ring neighbours, which are itself at size 1). */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, right, left;

struct type_case {
  MPI_Datatype type;
  size_t size;
  const char *name;
};

static void fill_pattern(unsigned char *p, size_t n, int seed) {
  for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)(seed * 13 + i * 7 + 1);
}

static void test_modes(void) {
  int out[4] = {rank, 10 * rank, -rank, 42}, in[4];
  MPI_Status st;
  /* Standard: a ring shift through MPI_Sendrecv (safe at any size). */
  CHECK_MPI(MPI_Sendrecv(out, 4, MPI_INT, right, 1, in, 4, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
  CHECK(in[0] == left && in[1] == 10 * left && in[2] == -left && in[3] == 42);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 1);

  /* MPI_Send/MPI_Recv ordered by parity so that a blocking send always meets its receive. */
  if (size > 1) {
    for (int phase = 0; phase < 2; ++phase) {
      if ((rank % 2) == phase) {
        CHECK_MPI(MPI_Send(out, 4, MPI_INT, right, 2, MPI_COMM_WORLD));
      } else {
        CHECK_MPI(MPI_Recv(in, 4, MPI_INT, left, 2, MPI_COMM_WORLD, &st));
        CHECK(in[0] == left);
      }
    }
  }

  /* Synchronous: the receive is posted first (also at size 1, to ourselves). */
  MPI_Request r;
  CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, left, 3, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Ssend(out, 4, MPI_INT, right, 3, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(in[1] == 10 * left && st.MPI_SOURCE == left && st.MPI_TAG == 3);

  /* Ready: the receive is known to be posted (barrier after Irecv). */
  CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, left, 4, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Rsend(out, 4, MPI_INT, right, 4, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(in[2] == -left && st.MPI_TAG == 4);

  /* Buffered: several messages outstanding in the attached buffer. */
  int pack;
  CHECK_MPI(MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &pack));
  const int nmsg = 5, bsize = nmsg * (pack + MPI_BSEND_OVERHEAD);
  char *bbuf = malloc((size_t)bsize);
  CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));
  for (int i = 0; i < nmsg; ++i) {
    out[3] = i;
    CHECK_MPI(MPI_Bsend(out, 4, MPI_INT, right, 5, MPI_COMM_WORLD));
  }
  for (int i = 0; i < nmsg; ++i) {
    CHECK_MPI(MPI_Recv(in, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &st));
    CHECK(in[0] == left && in[3] == i);
  }
  void *back;
  int back_size;
  CHECK_MPI(MPI_Buffer_detach(&back, &back_size));
  CHECK(back == bbuf && back_size == bsize);
  free(bbuf);
  out[3] = 42;
}

static void test_datatypes(void) {
  const struct type_case types[] = {
      {MPI_CHAR, sizeof(char), "MPI_CHAR"},
      {MPI_SHORT, sizeof(short), "MPI_SHORT"},
      {MPI_INT, sizeof(int), "MPI_INT"},
      {MPI_LONG, sizeof(long), "MPI_LONG"},
      {MPI_LONG_LONG_INT, sizeof(long long), "MPI_LONG_LONG_INT"},
      {MPI_LONG_LONG, sizeof(long long), "MPI_LONG_LONG"},
      {MPI_SIGNED_CHAR, sizeof(signed char), "MPI_SIGNED_CHAR"},
      {MPI_UNSIGNED_CHAR, sizeof(unsigned char), "MPI_UNSIGNED_CHAR"},
      {MPI_UNSIGNED_SHORT, sizeof(unsigned short), "MPI_UNSIGNED_SHORT"},
      {MPI_UNSIGNED, sizeof(unsigned), "MPI_UNSIGNED"},
      {MPI_UNSIGNED_LONG, sizeof(unsigned long), "MPI_UNSIGNED_LONG"},
      {MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), "MPI_UNSIGNED_LONG_LONG"},
      {MPI_FLOAT, sizeof(float), "MPI_FLOAT"},
      {MPI_DOUBLE, sizeof(double), "MPI_DOUBLE"},
      {MPI_LONG_DOUBLE, sizeof(long double), "MPI_LONG_DOUBLE"},
      {MPI_WCHAR, sizeof(wchar_t), "MPI_WCHAR"},
      {MPI_C_BOOL, sizeof(_Bool), "MPI_C_BOOL"},
      {MPI_INT8_T, 1, "MPI_INT8_T"},
      {MPI_INT16_T, 2, "MPI_INT16_T"},
      {MPI_INT32_T, 4, "MPI_INT32_T"},
      {MPI_INT64_T, 8, "MPI_INT64_T"},
      {MPI_UINT8_T, 1, "MPI_UINT8_T"},
      {MPI_UINT16_T, 2, "MPI_UINT16_T"},
      {MPI_UINT32_T, 4, "MPI_UINT32_T"},
      {MPI_UINT64_T, 8, "MPI_UINT64_T"},
      {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), "MPI_C_FLOAT_COMPLEX"},
      {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), "MPI_C_DOUBLE_COMPLEX"},
      {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), "MPI_C_LONG_DOUBLE_COMPLEX"},
      {MPI_BYTE, 1, "MPI_BYTE"},
      {MPI_PACKED, 1, "MPI_PACKED"},
      {MPI_AINT, sizeof(MPI_Aint), "MPI_AINT"},
      {MPI_OFFSET, sizeof(MPI_Offset), "MPI_OFFSET"},
      {MPI_COUNT, sizeof(MPI_Count), "MPI_COUNT"},
  };
  const int n = 7;
  for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
    int ts;
    CHECK_MPI(MPI_Type_size(types[k].type, &ts));
    CHECK((size_t)ts == types[k].size);
    unsigned char out[7 * 32], in[7 * 32];
    const size_t bytes = (size_t)n * types[k].size;
    fill_pattern(out, bytes, rank + (int)k);
    memset(in, 0, sizeof in);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, n, types[k].type, right, 100 + (int)k, in, n, types[k].type, left, 100 + (int)k,
                           MPI_COMM_WORLD, &st));
    unsigned char want[7 * 32];
    fill_pattern(want, bytes, left + (int)k);
    CHECK(memcmp(in, want, bytes) == 0);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, types[k].type, &count));
    CHECK(count == n);
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(count == (int)bytes);
  }
  /* The pair types of MINLOC/MAXLOC. */
  struct {
    double v;
    int i;
  } dout[3] = {{1.5, rank}, {2.5, rank + 1}, {-1.0, 7}}, din[3];
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(dout, 3, MPI_DOUBLE_INT, right, 200, din, 3, MPI_DOUBLE_INT, left, 200, MPI_COMM_WORLD, &st));
  CHECK(din[0].v == 1.5 && din[0].i == left && din[1].i == left + 1 && din[2].v == -1.0 && din[2].i == 7);
  int count;
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE_INT, &count));
  CHECK(count == 3);
}

static void test_status_and_count(void) {
  MPI_Status st;
  /* A message that is not a whole number of elements: MPI_UNDEFINED. */
  char five[5] = {1, 2, 3, 4, 5};
  int in[4] = {0, 0, 0, 0};
  CHECK_MPI(MPI_Sendrecv(five, 5, MPI_BYTE, right, 300, in, 4, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
  int count;
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
  CHECK(count == 5);
  CHECK(memcmp(in, five, 5) == 0);
  CHECK(st.MPI_TAG == 300 && st.MPI_SOURCE == left);

  /* Zero bytes, NULL buffer: valid, count 0. */
  CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, right, 301, NULL, 0, MPI_INT, MPI_ANY_SOURCE, 301, MPI_COMM_WORLD, &st));
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 0 && st.MPI_SOURCE == left);

  /* MPI_PROC_NULL: sends vanish, receives complete at once with the standard status. */
  CHECK_MPI(MPI_Send(five, 5, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Ssend(five, 5, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
  st.MPI_SOURCE = 1234;
  CHECK_MPI(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 0);
  CHECK_MPI(MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void test_order(void) {
  /* Non-overtaking: many messages with one tag arrive in send order; a
   * receive for a later tag can overtake earlier messages of other tags. */
  enum { N = 2000 };
  MPI_Status st;
  if (size == 1) return;
  if (rank == 0) {
    for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 1, 9, MPI_COMM_WORLD));
    int a = 1, b = 2, c = 3;
    CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 1, 10, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 1, 11, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Send(&c, 1, MPI_INT, 1, 10, MPI_COMM_WORLD));
  } else if (rank == 1) {
    for (int i = 0; i < N; ++i) {
      int v = -1;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
      CHECK(v == i && st.MPI_TAG == 9);
    }
    int v;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &st));
    CHECK(v == 2);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK(v == 1 && st.MPI_TAG == 10);
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD, &st));
    CHECK(v == 3);
  }
  /* MPI_ANY_SOURCE gathers one message from every rank, each exactly once. */
  if (rank == 0) {
    bool *seen = calloc((size_t)size, sizeof(bool));
    for (int i = 1; i < size; ++i) {
      int v;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &st));
      CHECK(v == st.MPI_SOURCE * 3 && !seen[v / 3]);
      seen[v / 3] = true;
    }
    free(seen);
  } else {
    int v = rank * 3;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 20, MPI_COMM_WORLD));
  }
}

static void test_replace(void) {
  long v[3] = {rank, rank * 2, rank * 3};
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv_replace(v, 3, MPI_LONG, right, 30, left, 30, MPI_COMM_WORLD, &st));
  CHECK(v[0] == left && v[1] == 2 * left && v[2] == 3 * left);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 30);
  /* With a derived (strided) type: every other int moves. */
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  int w[5] = {rank, -1, rank + 10, -2, rank + 20};
  CHECK_MPI(MPI_Sendrecv_replace(w, 1, vec, right, 31, left, 31, MPI_COMM_WORLD, &st));
  CHECK(w[0] == left && w[1] == -1 && w[2] == left + 10 && w[3] == -2 && w[4] == left + 20);
  CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  test_modes();
  test_datatypes();
  test_status_and_count();
  test_order();
  test_replace();
  MPI_Finalize();
  return 0;
}
