/* Small MPI_Scatterv and MPI_Gatherv (issue 36): the segment's blocking
 * scatter root writes a packed table (4 bytes an entry) beside small blocks
 * when every offset fits 16 bits, and publish_blocks' table otherwise; both
 * are read through take_block. Many calls in a row with counts that vary
 * per rank and per call -- zero for some ranks, zero for all but the root,
 * zero for all, a few bytes, blocks of 64 bytes and more, and totals past
 * 64 KiB (the wide table) -- with a fixed and a rotating root, a rank that
 * lags now and then (the root runs ahead through its slot ring), MPI_Scatter
 * of the same sizes in between, in place at the root and a strided send
 * type (the general path); every value checked, and nothing written past a
 * receive block. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;

static int value(int call, int block, int i) {
  return (int)((unsigned)call * 1000003u + (unsigned)block * 7919u + (unsigned)i);
}

/* Block j's count (ints) in call c: every rank computes the same. */
static int count_of(int c, int j) {
  switch (c % 9) {
    case 0: return (j + c) % 3 == 0 ? 0 : 1 + (j % 4);         /* a few ints, some ranks none */
    case 1: return j == c % size ? 3 : 0;                      /* one rank only */
    case 2: return 0;                                          /* nobody */
    case 3: return 16 + j;                                     /* 64 bytes and more */
    case 4: return (j % 2) ? 64 : 0;                           /* 256 bytes, every other rank */
    case 5: return 2500 + 7 * j;                               /* totals past 64 KiB from np 8 on */
    case 6: return 1;                                          /* uniform in effect */
    case 7: return 20000 / (size > 0 ? size : 1) + (j % 3);    /* about 80 KiB in all */
    default: return j % 5;
  }
}

static void lag(int c) {
  if (rank == size - 1 && c % 41 == 0) usleep(1500);
}

enum { GUARD = 4 };

static void scattervs(int calls, int rotate, int in_place) {
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  int* send = NULL;
  int* recv = malloc((30000 + GUARD) * sizeof(int));
  for (int c = 0; c < calls; ++c) {
    const int root = rotate ? (c * 5 + 1) % size : 0;
    int total = 0;
    for (int j = 0; j < size; ++j) {
      counts[j] = count_of(c, j);
      displs[j] = total; /* a gap of one int after each block */
      total += counts[j] + 1;
    }
    if (rank == root) {
      send = realloc(send, (size_t)(total + 1) * sizeof(int));
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < counts[j]; ++i) send[displs[j] + i] = value(c, j, i);
    }
    const int mine = counts[rank];
    for (int i = 0; i < mine + GUARD; ++i) recv[i] = -7;
    void* rbuf = in_place && rank == root ? MPI_IN_PLACE : recv;
    CHECK_MPI(MPI_Scatterv(send, counts, displs, MPI_INT, rbuf, mine, MPI_INT, root, MPI_COMM_WORLD));
    if (rbuf != MPI_IN_PLACE) {
      for (int i = 0; i < mine; ++i) CHECK(recv[i] == value(c, rank, i));
      for (int i = mine; i < mine + GUARD; ++i) CHECK(recv[i] == -7);
    } else {
      for (int i = 0; i < mine; ++i) CHECK(send[displs[rank] + i] == value(c, rank, i));
    }
    lag(c);
  }
  free(counts);
  free(displs);
  free(send);
  free(recv);
}

static void gathervs(int calls, int rotate, int in_place) {
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  int* recv = NULL;
  int* send = malloc(30000 * sizeof(int));
  for (int c = 0; c < calls; ++c) {
    const int root = rotate ? (c * 3 + 2) % size : 0;
    int total = 0;
    for (int j = 0; j < size; ++j) {
      counts[j] = count_of(c + 4, j);
      displs[j] = total;
      total += counts[j] + 1;
    }
    const int mine = counts[rank];
    for (int i = 0; i < mine; ++i) send[i] = value(c, rank, i);
    if (rank == root) {
      recv = realloc(recv, (size_t)(total + GUARD) * sizeof(int));
      for (int i = 0; i < total + GUARD; ++i) recv[i] = -7;
      if (in_place)
        for (int i = 0; i < mine; ++i) recv[displs[rank] + i] = value(c, rank, i);
    }
    const void* sbuf = in_place && rank == root ? MPI_IN_PLACE : send;
    CHECK_MPI(MPI_Gatherv(sbuf, mine, MPI_INT, recv, counts, displs, MPI_INT, root, MPI_COMM_WORLD));
    if (rank == root) {
      for (int j = 0; j < size; ++j) {
        for (int i = 0; i < counts[j]; ++i) CHECK(recv[displs[j] + i] == value(c, j, i));
        CHECK(recv[displs[j] + counts[j]] == -7); /* the gap */
      }
    }
    lag(c);
  }
  free(counts);
  free(displs);
  free(send);
  free(recv);
}

/* MPI_Scatter of small and larger blocks between the v calls (the same root path). */
static void scatters(int calls, int rotate) {
  int* send = malloc((size_t)size * 3000 * sizeof(int));
  int* recv = malloc((3000 + GUARD) * sizeof(int));
  static const int ns[] = {1, 0, 16, 64, 3000, 2};
  for (int c = 0; c < calls; ++c) {
    const int root = rotate ? c % size : 0, n = ns[c % 6];
    if (rank == root)
      for (int j = 0; j < size; ++j)
        for (int i = 0; i < n; ++i) send[j * n + i] = value(c, j, i);
    for (int i = 0; i < n + GUARD; ++i) recv[i] = -7;
    CHECK_MPI(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) CHECK(recv[i] == value(c, rank, i));
    for (int i = n; i < n + GUARD; ++i) CHECK(recv[i] == -7);
    lag(c);
  }
  free(send);
  free(recv);
}

/* A strided send type at the root (every other int): the general path. */
static void strided(int calls) {
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int* counts = malloc((size_t)size * sizeof(int));
  int* displs = malloc((size_t)size * sizeof(int));
  int* send = malloc((size_t)size * 16 * sizeof(int));
  int recv[3 * 3 + GUARD];
  for (int c = 0; c < calls; ++c) {
    const int root = c % size;
    for (int j = 0; j < size; ++j) {
      counts[j] = (j + c) % 4; /* 0..3 vectors of 3 ints */
      displs[j] = j * 3;       /* extent of the vector: 5 ints, so 15 ints per block */
    }
    if (rank == root)
      for (int j = 0; j < size; ++j)
        for (int v = 0; v < counts[j]; ++v)
          for (int e = 0; e < 3; ++e) send[(displs[j] + v) * 5 + 2 * e] = value(c, j, v * 3 + e);
    const int mine = counts[rank] * 3;
    for (int i = 0; i < mine + GUARD; ++i) recv[i] = -7;
    CHECK_MPI(MPI_Scatterv(send, counts, displs, every_other, recv, mine, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < mine; ++i) CHECK(recv[i] == value(c, rank, i));
    for (int i = mine; i < mine + GUARD; ++i) CHECK(recv[i] == -7);
  }
  free(counts);
  free(displs);
  free(send);
  CHECK_MPI(MPI_Type_free(&every_other));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int rotate = 0; rotate < 2; ++rotate) {
    scattervs(300, rotate, 0);
    gathervs(300, rotate, 0);
    scatters(120, rotate);
    scattervs(100, rotate, 1);
    gathervs(100, rotate, 1);
  }
  strided(40);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
