/* Back-to-back rooted collectives that reuse the slot ring (issue 36):
 * the root of a small MPI_Bcast or MPI_Scatter returns once its data is in
 * its slot and may run ahead of its readers, so a region must not be
 * overwritten while a reader of an earlier call has not read it. Many calls
 * in a row (more than the ring's depth of 64 and several laps of the slot),
 * with a fixed and a rotating root, sizes that vary from call to call, and
 * one rank that now and then lags behind, each value checked. Then large
 * MPI_Scatter blocks, larger than the root's slot region, fixed and rotating
 * root (contiguous and strided types, in place at the root, odd sizes),
 * checked element by element, and a root that overwrites its send buffer
 * and frees the communicator while its readers are still to come. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;

/* Computed in unsigned arithmetic (call * 1000003 leaves an int from call
 * 2148 on: signed overflow, which UBSan reports); the int it converts to
 * wraps the same way on every rank (GCC defines the conversion modulo 2^32). */
static int value(int call, int block, int i) {
  return (int)((unsigned)call * 1000003u + (unsigned)block * 7919u + (unsigned)i);
}

/* Sizes in ints: small ones, and some that fill a good part of a region. */
static int small_count(int call) {
  static const int counts[] = {1, 2, 16, 250, 3, 1024, 5, 64};
  return counts[call % 8];
}

static void lag(int call) {
  if (rank == size - 1 && call % 37 == 0) usleep(2000); /* the others run ahead meanwhile */
}

static void bcasts(int calls, int rotate) {
  int* buf = malloc(1024 * sizeof(int));
  for (int c = 0; c < calls; ++c) {
    const int root = rotate ? c % size : 0, n = small_count(c);
    for (int i = 0; i < n; ++i) buf[i] = rank == root ? value(c, 0, i) : -1;
    CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(buf[i] == value(c, 0, i));
    lag(c);
  }
  free(buf);
}

static void scatters(int calls, int rotate) {
  int* send = malloc((size_t)size * 1024 * sizeof(int));
  int* recv = malloc(1024 * sizeof(int));
  for (int c = 0; c < calls; ++c) {
    const int root = rotate ? (c * 3) % size : 0, n = small_count(c);
    if (rank == root)
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < n; ++i) send[j * n + i] = value(c, j, i);
    for (int i = 0; i < n; ++i) recv[i] = -1;
    CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(recv[i] == value(c, rank, i));
    lag(c);
  }
  free(send);
  free(recv);
}

/* Bcast and scatter interleaved, as an application would mix them. */
static void mixed(int calls) {
  int* send = malloc((size_t)size * 64 * sizeof(int));
  int buf[64], recv[64];
  for (int c = 0; c < calls; ++c) {
    const int root = (c / 2) % size, n = 1 + c % 64;
    if (c % 2 == 0) {
      for (int i = 0; i < n; ++i) buf[i] = rank == root ? value(c, 0, i) : -1;
      CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
      for (int i = 0; i < n; ++i) CHECK(buf[i] == value(c, 0, i));
    } else {
      if (rank == root)
        for (int j = 0; j < size; ++j)
          for (int i = 0; i < n; ++i) send[j * n + i] = value(c, j, i);
      CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD));
      for (int i = 0; i < n; ++i) CHECK(recv[i] == value(c, rank, i));
    }
    lag(c);
  }
  free(send);
}

/* Large blocks of n ints; the receive side (or, with strided_send, the
 * root's send side) a vector of ints with stride 2. */
static void large_scatter(int n, int root, int strided_send, int strided_recv, int in_place) {
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int* send = NULL;
  if (rank == root) {
    send = malloc((size_t)size * n * (strided_send ? 2 : 1) * sizeof(int));
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < n; ++i) {
        if (strided_send)
          send[(size_t)j * 2 * n + 2 * (size_t)i] = value(n, j, i), send[(size_t)j * 2 * n + 2 * (size_t)i + 1] = -7;
        else
          send[(size_t)j * n + i] = value(n, j, i);
      }
  }
  int* recv = malloc((size_t)n * 2 * sizeof(int));
  for (int i = 0; i < 2 * n; ++i) recv[i] = -1;
  if (strided_send) {
    /* one strided element of the root is one block: extent 2n - 1 ints, so resize to 2n */
    MPI_Datatype block;
    CHECK_MPI(MPI_Type_create_resized(every_other, 0, (MPI_Aint)(2 * n * sizeof(int)), &block));
    CHECK_MPI(MPI_Type_commit(&block));
    CHECK_MPI(MPI_Scatter(send, 1, block, recv, n, MPI_INT, root, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Type_free(&block));
  } else if (in_place && rank == root) {
    CHECK_MPI(MPI_Scatter(send, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, MPI_COMM_WORLD));
  } else if (strided_recv) {
    CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, 1, every_other, root, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD));
  }
  if (in_place && rank == root && !strided_send) {
    for (int i = 0; i < n; ++i) CHECK(send[(size_t)root * n + i] == value(n, root, i));
  } else if (strided_recv && !strided_send) {
    for (int i = 0; i < n; ++i) CHECK(recv[2 * i] == value(n, rank, i) && recv[2 * i + 1] == -1);
  } else {
    for (int i = 0; i < n; ++i) CHECK(recv[i] == value(n, rank, i));
    CHECK(recv[n] == -1);
  }
  free(send);
  free(recv);
  CHECK_MPI(MPI_Type_free(&every_other));
}

/* The root of a large scatter may return before its readers read (more
 * ranks than cores: they read a copy): it overwrites its send buffer and
 * frees the communicator at once, while the readers come late. */
static void scatter_then_free(int root) {
  const int n = 65536;
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  int* send = NULL;
  int* recv = malloc((size_t)n * sizeof(int));
  if (rank == root) {
    send = malloc((size_t)size * n * sizeof(int));
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < n; ++i) send[(size_t)j * n + i] = value(n + 1, j, i);
  } else {
    usleep(20000);
  }
  CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, d));
  if (rank == root)
    for (size_t i = 0; i < (size_t)size * n; ++i) send[i] = -5;
  CHECK_MPI(MPI_Comm_free(&d));
  for (int i = 0; i < n; ++i) CHECK(recv[i] == value(n + 1, rank, i));
  free(send);
  free(recv);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  bcasts(300, 0);
  bcasts(300, 1);
  scatters(300, 0);
  scatters(300, 1);
  mixed(400);

  /* 16 KiB, 64 KiB, 100003 ints (an odd size), 200 KiB per block */
  const int counts[] = {4096, 16384, 100003, 51200};
  for (int c = 0; c < 4; ++c)
    for (int root = 0; root < size; root += size > 2 ? size - 2 : 1) {
      large_scatter(counts[c], root, 0, 0, 0);
      large_scatter(counts[c], root, 0, 1, 0);
      large_scatter(counts[c], root, 0, 0, 1);
      large_scatter(counts[c], root, 1, 0, 0);
    }
  for (int c = 0; c < 20; ++c) large_scatter(16384 + c, c % size, 0, 0, 0); /* back to back, rotating root */
  scatter_then_free(0);
  scatter_then_free(size - 1);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
