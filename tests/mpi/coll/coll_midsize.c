/* Mid-size collectives (issue 36, 16 KiB to 256 KiB): the sizes around the
 * thresholds the segment paths change at, with buffers placed so that the
 * copies through a slot region hit every kind of relative offset.
 *  - core::copy_bulk (lib/core/copy.hpp) copies in 1 KiB pieces where the
 *    destination lies 1..63 bytes past the source modulo 4 KiB: buffers at
 *    page offsets 0, 8 and 16 (a malloc'd buffer's), lengths that are not a
 *    multiple of the piece;
 *  - MPI_Exscan at two ranks with a core each is split from
 *    RINGMPI_COLL_SPLIT_MIN (64 KiB), through the slot below it;
 *  - MPI_Scan's two-vector fold (one copy, x(0) folded into x(1)'s copy),
 *    with a non-commutative operation, plain and in place;
 *  - reductions by blocks through the slots fold their own block from the
 *    caller's vector (MPI_Reduce_scatter_block, MPI_Allreduce, MPI_Reduce),
 *    in place or not, with a non-commutative operation.
 * Every element checked; each call has different data, so a stale region shows. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* An affine map x -> a x + b of unsigned ints; f op g applies f, then g:
 * (a_f a_g, b_f a_g + b_g). Associative, not commutative. */
typedef struct {
  unsigned a, b;
} affine;

static void compose(void* in, void* inout, int* len, MPI_Datatype* t) {
  (void)t;
  const affine* f = in;
  affine* g = inout;
  for (int i = 0; i < *len; ++i) {
    const affine r = {f[i].a * g[i].a, f[i].b * g[i].a + g[i].b};
    g[i] = r;
  }
}

static affine elem(int r, int call, int i) {
  const affine e = {2u * (unsigned)(r + i) + 1u + (unsigned)call, (unsigned)(r * 7 + i * 3 + call)};
  return e;
}

/* x(lo) op ... op x(hi) for element i (hi >= lo). */
static affine fold(int lo, int hi, int call, int i) {
  affine acc = elem(lo, call, i);
  for (int q = lo + 1; q <= hi; ++q) {
    affine next = elem(q, call, i);
    int one = 1;
    compose(&acc, &next, &one, NULL);
    acc = next;
  }
  return acc;
}

static int same(affine x, affine y) { return x.a == y.a && x.b == y.b; }

/* A buffer of n affine elements at page offset `skew` (freed with its base). */
static affine* placed(void** base, size_t n, int skew) {
  CHECK(posix_memalign(base, 4096, n * sizeof(affine) + 4096) == 0);
  return (affine*)((char*)*base + skew);
}

static void scans(MPI_Datatype t, MPI_Op op, int call, int n, int skew, int in_place) {
  void *bm, *br;
  affine* mine = placed(&bm, (size_t)n, skew);
  affine* res = placed(&br, (size_t)n, (skew + 8) % 24);
  for (int excl = 0; excl < 2; ++excl) {
    for (int i = 0; i < n; ++i) mine[i] = elem(rank, call + excl, i), res[i] = (affine){0, 0};
    if (in_place) {
      if (excl)
        CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, mine, n, t, op, MPI_COMM_WORLD));
      else
        CHECK_MPI(MPI_Scan(MPI_IN_PLACE, mine, n, t, op, MPI_COMM_WORLD));
      memcpy(res, mine, (size_t)n * sizeof(affine));
    } else if (excl) {
      CHECK_MPI(MPI_Exscan(mine, res, n, t, op, MPI_COMM_WORLD));
    } else {
      CHECK_MPI(MPI_Scan(mine, res, n, t, op, MPI_COMM_WORLD));
    }
    const int hi = excl ? rank - 1 : rank;
    if (hi >= 0)
      for (int i = 0; i < n; ++i) CHECK(same(res[i], fold(0, hi, call + excl, i)));
  }
  free(bm);
  free(br);
}

static void reductions(MPI_Datatype t, MPI_Op op, int call, int n, int skew, int in_place) {
  void *bm, *br;
  const int total = n * size; /* reduce-scatter: n per rank */
  affine* mine = placed(&bm, (size_t)total, skew);
  affine* res = placed(&br, (size_t)total, (skew + 16) % 24);
  /* MPI_Reduce_scatter_block */
  for (int i = 0; i < total; ++i) mine[i] = elem(rank, call, i), res[i] = (affine){0, 0};
  if (in_place) {
    CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, mine, n, t, op, MPI_COMM_WORLD));
    memcpy(res, mine, (size_t)n * sizeof(affine));
  } else {
    CHECK_MPI(MPI_Reduce_scatter_block(mine, res, n, t, op, MPI_COMM_WORLD));
  }
  for (int i = 0; i < n; ++i) CHECK(same(res[i], fold(0, size - 1, call, rank * n + i)));
  /* MPI_Allreduce of the whole vector */
  for (int i = 0; i < total; ++i) mine[i] = elem(rank, call + 1, i), res[i] = (affine){0, 0};
  if (in_place) {
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, mine, total, t, op, MPI_COMM_WORLD));
    memcpy(res, mine, (size_t)total * sizeof(affine));
  } else {
    CHECK_MPI(MPI_Allreduce(mine, res, total, t, op, MPI_COMM_WORLD));
  }
  for (int i = 0; i < total; ++i) CHECK(same(res[i], fold(0, size - 1, call + 1, i)));
  /* MPI_Reduce, the root moving */
  const int root = call % size;
  for (int i = 0; i < total; ++i) mine[i] = elem(rank, call + 2, i), res[i] = (affine){0, 0};
  if (in_place && rank == root) {
    CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, mine, total, t, op, root, MPI_COMM_WORLD));
    memcpy(res, mine, (size_t)total * sizeof(affine));
  } else {
    CHECK_MPI(MPI_Reduce(mine, res, total, t, op, root, MPI_COMM_WORLD));
  }
  if (rank == root)
    for (int i = 0; i < total; ++i) CHECK(same(res[i], fold(0, size - 1, call + 2, i)));
  free(bm);
  free(br);
}

/* Data movement through the slots at the same offsets: bcast, allgather, gather. */
static void movement(int call, int bytes, int skew) {
  void *bs, *br;
  unsigned char* s = (unsigned char*)placed(&bs, (size_t)bytes * (size_t)size / 8 + 1, skew);
  unsigned char* r = (unsigned char*)placed(&br, (size_t)bytes * (size_t)size / 8 + 1, (skew + 8) % 24);
  const int root = call % size;
  for (int i = 0; i < bytes; ++i) s[i] = rank == root ? (unsigned char)(i * 7 + call) : 0;
  CHECK_MPI(MPI_Bcast(s, bytes, MPI_BYTE, root, MPI_COMM_WORLD));
  for (int i = 0; i < bytes; ++i) CHECK(s[i] == (unsigned char)(i * 7 + call));
  for (int i = 0; i < bytes; ++i) s[i] = (unsigned char)(rank * 31 + i + call);
  memset(r, 0, (size_t)bytes * (size_t)size);
  CHECK_MPI(MPI_Allgather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, MPI_COMM_WORLD));
  for (int q = 0; q < size; ++q)
    for (int i = 0; i < bytes; ++i) CHECK(r[(size_t)q * bytes + i] == (unsigned char)(q * 31 + i + call));
  memset(r, 0, (size_t)bytes * (size_t)size);
  CHECK_MPI(MPI_Gather(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, root, MPI_COMM_WORLD));
  if (rank == root)
    for (int q = 0; q < size; ++q)
      for (int i = 0; i < bytes; ++i) CHECK(r[(size_t)q * bytes + i] == (unsigned char)(q * 31 + i + call));
  free(bs);
  free(br);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype t;
  MPI_Op op;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Op_create(compose, 0, &op));
  /* Vector bytes around 2 KiB (copy_bulk's pieces), 16, 32, 64 (the split),
   * 128 KiB (a slot region at np 2) and beyond; 8-byte elements. */
  static const int kBytes[] = {2040, 3000, 16376, 32768, 65528, 65536, 65544, 98312, 131064, 131072, 131080, 200008};
  int call = 0;
  for (size_t b = 0; b < sizeof kBytes / sizeof kBytes[0]; ++b)
    for (int skew = 0; skew <= 16; skew += 8) {
      const int n = kBytes[b] / (int)sizeof(affine);
      scans(t, op, call, n, skew, skew == 8);
      reductions(t, op, call, n / size + 1, skew, skew == 16);
      movement(call, kBytes[b], skew);
      call += 3;
    }
  CHECK_MPI(MPI_Op_free(&op));
  CHECK_MPI(MPI_Type_free(&t));
  MPI_Finalize();
  return 0;
}
