/* Derived datatypes through point-to-point: every rank sends to the next and
 * receives from the previous one, sender and receiver using different layouts
 * of the same type signature; small (eager) and large (> 1 MiB, rendezvous or
 * the copy fallback) messages, MPI_BOTTOM, and partial receives counted with
 * MPI_Get_count / MPI_Get_elements. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#ifdef FORCED_PATH /* the RINGMPI_FORCE_COPY_FALLBACK=1 build (meson.build) */
#include "forced_path.h"
#endif

static int rank, size, next, prev;

/* Sends (sbuf, scount, stype) to next and receives (rbuf, rcount, rtype) from prev. */
static void ring(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 int tag, MPI_Status* st) {
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(rbuf, rcount, rtype, prev, tag, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Send(sbuf, scount, stype, next, tag, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Wait(&req, st));
  CHECK(st->MPI_SOURCE == prev && st->MPI_TAG == tag);
}

static double value(int r, long i) { return r * 1000003.0 + (double)i; }

/* Strided send (vector), contiguous receive, and back the other way. */
static void vector_vs_contiguous(long n, int tag) {
  double* strided = malloc(sizeof(double) * 3 * (size_t)n);
  double* flat = malloc(sizeof(double) * (size_t)n);
  CHECK(strided && flat);
  for (long i = 0; i < 3 * n; ++i) strided[i] = value(rank, i);
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector((int)n, 1, 3, MPI_DOUBLE, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  MPI_Status st;
  ring(strided, 1, vec, flat, (int)n, MPI_DOUBLE, tag, &st);
  int count;
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
  CHECK(count == n);
  for (long i = 0; i < n; ++i) CHECK(flat[i] == value(prev, 3 * i));

  /* Now contiguous out, strided in: untouched gaps keep their values. */
  for (long i = 0; i < n; ++i) flat[i] = -value(rank, i);
  for (long i = 0; i < 3 * n; ++i) strided[i] = 0.25;
  ring(flat, (int)n, MPI_DOUBLE, strided, 1, vec, tag + 1, &st);
  CHECK_MPI(MPI_Get_count(&st, vec, &count));
  CHECK(count == 1);
  for (long i = 0; i < 3 * n; ++i) CHECK(strided[i] == (i % 3 == 0 ? -value(prev, i / 3) : 0.25));
  CHECK_MPI(MPI_Type_free(&vec));
  free(strided);
  free(flat);
}

struct a_item { /* sender layout */
  int i;
  double d;
  char c[3];
};
struct b_item { /* receiver layout: other order and padding, same signature */
  char pad[5];
  char c[3];
  double d;
  int i;
};

static MPI_Datatype item_type(MPI_Aint di, MPI_Aint dd, MPI_Aint dc, MPI_Aint extent) {
  int bl[3] = {1, 1, 3};
  MPI_Aint disp[3] = {di, dd, dc};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, r;
  CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
  CHECK_MPI(MPI_Type_create_resized(t, 0, extent, &r));
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_commit(&r));
  return r;
}

/* Arrays of structs with different C layouts; also a receive of more than arrives. */
static void structs(int n, int tag) {
  struct a_item* a = calloc((size_t)n, sizeof *a);
  struct b_item* b = calloc((size_t)n + 4, sizeof *b);
  CHECK(a && b);
  for (int k = 0; k < n; ++k) {
    a[k].i = rank * 100000 + k;
    a[k].d = value(rank, k);
    a[k].c[0] = (char)('a' + k % 26);
    a[k].c[1] = (char)rank;
    a[k].c[2] = (char)(k & 0x7f);
  }
  MPI_Datatype ta = item_type(offsetof(struct a_item, i), offsetof(struct a_item, d), offsetof(struct a_item, c),
                              sizeof(struct a_item));
  MPI_Datatype tb = item_type(offsetof(struct b_item, i), offsetof(struct b_item, d), offsetof(struct b_item, c),
                              sizeof(struct b_item));
  MPI_Status st;
  ring(a, n, ta, b, n + 4, tb, tag, &st);
  int count, elems;
  CHECK_MPI(MPI_Get_count(&st, tb, &count));
  CHECK(count == n);
  CHECK_MPI(MPI_Get_elements(&st, tb, &elems));
  CHECK(elems == 5 * n);
  for (int k = 0; k < n; ++k) {
    CHECK(b[k].i == prev * 100000 + k);
    CHECK(b[k].d == value(prev, k));
    CHECK(b[k].c[0] == (char)('a' + k % 26) && b[k].c[1] == (char)prev && b[k].c[2] == (char)(k & 0x7f));
  }
  CHECK(b[n].i == 0 && b[n].d == 0.0);

  /* A partial element: n structs and one more int arrive; Get_count is undefined. */
  char* packed = malloc((size_t)n * 15 + 4);
  int pos = 0;
  CHECK_MPI(MPI_Pack(a, n, ta, packed, n * 15 + 4, &pos, MPI_COMM_WORLD));
  int extra = 424242;
  CHECK_MPI(MPI_Pack(&extra, 1, MPI_INT, packed, n * 15 + 4, &pos, MPI_COMM_WORLD));
  memset(b, 0, sizeof *b * ((size_t)n + 4));
  ring(packed, pos, MPI_PACKED, b, n + 4, tb, tag + 1, &st);
  CHECK_MPI(MPI_Get_count(&st, tb, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements(&st, tb, &elems));
  CHECK(elems == 5 * n + 1);
  CHECK(b[n].i == 424242 && b[n - 1].i == prev * 100000 + n - 1);
  free(packed);
  CHECK_MPI(MPI_Type_free(&ta));
  CHECK_MPI(MPI_Type_free(&tb));
  free(a);
  free(b);
}

/* A C-order subarray sent, received as the Fortran-order subarray of the
 * transposed array: element (i, j) lands at (j, i). */
static void subarrays(int rows, int cols, int tag) {
  const int sizes[2] = {rows + 3, cols + 2}, subs[2] = {rows, cols}, starts[2] = {2, 1};
  const int tsizes[2] = {cols + 2, rows + 3}, tsubs[2] = {cols, rows}, tstarts[2] = {1, 2};
  MPI_Datatype s, r;
  CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &s));
  CHECK_MPI(MPI_Type_create_subarray(2, tsizes, tsubs, tstarts, MPI_ORDER_FORTRAN, MPI_INT, &r));
  CHECK_MPI(MPI_Type_commit(&s));
  CHECK_MPI(MPI_Type_commit(&r));
  const size_t n = (size_t)(rows + 3) * (size_t)(cols + 2);
  int* a = malloc(n * sizeof(int));
  int* b = malloc(n * sizeof(int));
  CHECK(a && b);
  for (size_t k = 0; k < n; ++k) a[k] = rank * 7 + (int)k, b[k] = -1;
  MPI_Status st;
  ring(a, 1, s, b, 1, r, tag, &st);
  /* Fortran order over tsizes: index (x, y) at x + y * tsizes[0]. */
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const int want = prev * 7 + (i + 2) * (cols + 2) + (j + 1);
      CHECK(b[(j + 1) + (i + 2) * (cols + 2)] == want);
    }
  CHECK(b[0] == -1);
  CHECK_MPI(MPI_Type_free(&s));
  CHECK_MPI(MPI_Type_free(&r));
  free(a);
  free(b);
}

/* Both sides with absolute addresses (MPI_BOTTOM). */
static void bottom(int tag) {
  int x = rank + 1;
  double y[4] = {rank * 1.5, 2, 3, 4};
  int rx = 0;
  double ry[4] = {0, 0, 0, 0};
  MPI_Aint addr[2], raddr[2];
  CHECK_MPI(MPI_Get_address(&x, &addr[0]));
  CHECK_MPI(MPI_Get_address(y, &addr[1]));
  CHECK_MPI(MPI_Get_address(ry, &raddr[0])); /* receiver: reversed memory order, same signature */
  CHECK_MPI(MPI_Get_address(&rx, &raddr[1]));
  MPI_Aint rdisp[2] = {raddr[1], raddr[0]};
  int bl[2] = {1, 4};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, s, r;
  CHECK_MPI(MPI_Type_create_struct(2, bl, addr, types, &s));
  CHECK_MPI(MPI_Type_create_struct(2, bl, rdisp, types, &r));
  CHECK_MPI(MPI_Type_commit(&s));
  CHECK_MPI(MPI_Type_commit(&r));
  MPI_Status st;
  ring(MPI_BOTTOM, 1, s, MPI_BOTTOM, 1, r, tag, &st);
  CHECK(rx == prev + 1 && ry[0] == prev * 1.5 && ry[3] == 4);
  CHECK_MPI(MPI_Type_free(&s));
  CHECK_MPI(MPI_Type_free(&r));
}

/* A vector of vectors (2-d block of a 3-d array) against an indexed receive,
 * large enough for the rendezvous path; the types are freed while the
 * receive is pending, which must not disturb it. */
static void nested_large(int tag) {
  const int n = 64; /* 64 x 64 x 64 doubles = 2 MiB; we move a 64 x 64 x 48 block: 1.5 MiB */
  double* a = malloc(sizeof(double) * n * n * n);
  double* b = malloc(sizeof(double) * n * n * n);
  CHECK(a && b);
  for (long k = 0; k < (long)n * n * n; ++k) a[k] = value(rank, k), b[k] = -2;
  MPI_Datatype row, plane, cube;
  CHECK_MPI(MPI_Type_contiguous(48, MPI_DOUBLE, &row));
  CHECK_MPI(MPI_Type_create_hvector(n, 1, (MPI_Aint)sizeof(double) * n, row, &plane));
  CHECK_MPI(MPI_Type_create_hvector(n, 1, (MPI_Aint)sizeof(double) * n * n, plane, &cube));
  CHECK_MPI(MPI_Type_commit(&cube));
  /* Receiver: the same 64*64*48 doubles as an indexed type over blocks of 48 at offset 16. */
  int* bl = malloc(sizeof(int) * n * n);
  int* disp = malloc(sizeof(int) * n * n);
  for (int k = 0; k < n * n; ++k) bl[k] = 48, disp[k] = k * n + 16;
  MPI_Datatype idx;
  CHECK_MPI(MPI_Type_indexed(n * n, bl, disp, MPI_DOUBLE, &idx));
  CHECK_MPI(MPI_Type_commit(&idx));
  MPI_Request req;
  CHECK_MPI(MPI_Irecv(b, 1, idx, prev, tag, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Type_free(&idx));
  CHECK_MPI(MPI_Send(a, 1, cube, next, tag, MPI_COMM_WORLD));
  MPI_Status st;
  CHECK_MPI(MPI_Wait(&req, &st));
  int count;
  CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
  CHECK(count == n * n * 48);
  for (long k = 0; k < (long)n * n * n; ++k) {
    const long col = k % n;
    CHECK(b[k] == (col >= 16 ? value(prev, k - 16) : -2));
  }
  CHECK_MPI(MPI_Type_free(&row));
  CHECK_MPI(MPI_Type_free(&plane));
  CHECK_MPI(MPI_Type_free(&cube));
  free(bl);
  free(disp);
  free(a);
  free(b);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  next = (rank + 1) % size;
  prev = (rank + size - 1) % size;
  vector_vs_contiguous(5, 10);
  vector_vs_contiguous(200000, 20); /* 1.6 MB of doubles */
  structs(3, 30);
  structs(70000, 40); /* about 1 MB of data, 2.2 MB of sender memory */
  subarrays(3, 4, 50);
  subarrays(400, 300, 60);
  bottom(70);
  nested_large(80);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
