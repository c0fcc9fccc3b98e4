/* Many ranks, small blocks: at np = 64 a member's slot region is 4 KiB, and
 * a table of 64 entries plus 64 blocks of a few bytes still fits it when
 * small blocks share cache lines (seg_common.hpp, slot_place). So
 * MPI_Alltoall(v), MPI_Scatter(v) and their nonblocking forms move blocks
 * of up to 32 bytes through the slots, with no process_vm_readv
 * (seg_single_copy does not move); larger blocks still go by address. Every
 * root, odd block sizes (blocks at unaligned offsets in the slot), a
 * strided send type, MPI_IN_PLACE at the scatter root; each block's bytes
 * name its sender, receiver and call. Run with many more ranks than cores,
 * with RINGMPI_COLL_SCATTER=1 (the flat segment where it applies: the
 * compiled rules send small blocks of oversubscribed jobs to messages). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "counter.h"

static int rank, size;

static unsigned char byte_of(int from, int to, int call, int k) {
  return (unsigned char)(from * 7 + to * 13 + call * 29 + k * 3 + 1);
}

/* blocks of `bytes` bytes, one per peer: alltoall and alltoallv (with displacements reversed). */
static void alltoalls(int bytes, int call, int nonblocking) {
  unsigned char *out = malloc((size_t)bytes * size), *in = malloc((size_t)bytes * size);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  for (int v = 0; v < 2; ++v) {
    for (int j = 0; j < size; ++j) {
      counts[j] = bytes;
      displs[j] = v ? (size - 1 - j) * bytes : j * bytes;
      for (int k = 0; k < bytes; ++k) out[displs[j] + k] = byte_of(rank, j, call + v, k);
    }
    memset(in, 0, (size_t)bytes * size);
    MPI_Request r = MPI_REQUEST_NULL;
    if (v == 0 && nonblocking)
      CHECK_MPI(MPI_Ialltoall(out, bytes, MPI_BYTE, in, bytes, MPI_BYTE, MPI_COMM_WORLD, &r));
    else if (v == 0)
      CHECK_MPI(MPI_Alltoall(out, bytes, MPI_BYTE, in, bytes, MPI_BYTE, MPI_COMM_WORLD));
    else if (nonblocking)
      CHECK_MPI(MPI_Ialltoallv(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, MPI_COMM_WORLD, &r));
    else
      CHECK_MPI(MPI_Alltoallv(out, counts, displs, MPI_BYTE, in, counts, displs, MPI_BYTE, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int j = 0; j < size; ++j)
      for (int k = 0; k < bytes; ++k) CHECK(in[displs[j] + k] == byte_of(j, rank, call + v, k));
  }
  free(out), free(in), free(counts), free(displs);
}

/* Every root scatters `ints` ints per rank from a strided buffer (every
 * other int), then scatterv with the root's own block in place. */
static void scatters(int ints, int call, int nonblocking) {
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(ints, 1, 2, MPI_INT, &every_other));
  MPI_Datatype strided;
  CHECK_MPI(MPI_Type_create_resized(every_other, 0, (MPI_Aint)(2 * ints * sizeof(int)), &strided));
  CHECK_MPI(MPI_Type_commit(&strided));
  int *src = malloc(sizeof(int) * 2 * ints * size), *dst = malloc(sizeof(int) * ints * size);
  int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
  for (int root = 0; root < size; ++root) {
    const int c = call + root;
    for (int j = 0; j < size; ++j)
      for (int k = 0; k < ints; ++k) {
        src[2 * (j * ints + k)] = byte_of(root, j, c, k);
        src[2 * (j * ints + k) + 1] = -1;
      }
    memset(dst, 0, sizeof(int) * ints);
    MPI_Request r = MPI_REQUEST_NULL;
    if (nonblocking)
      CHECK_MPI(MPI_Iscatter(src, 1, strided, dst, ints, MPI_INT, root, MPI_COMM_WORLD, &r));
    else
      CHECK_MPI(MPI_Scatter(src, 1, strided, dst, ints, MPI_INT, root, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int k = 0; k < ints; ++k) CHECK(dst[k] == byte_of(root, rank, c, k));
    /* scatterv, blocks in reverse order in a packed buffer, root in place */
    for (int j = 0; j < size; ++j) {
      counts[j] = ints;
      displs[j] = (size - 1 - j) * ints;
      for (int k = 0; k < ints; ++k) dst[displs[j] + k] = byte_of(root, j, c + 1, k);
    }
    int *mine = rank == root ? dst + displs[rank] : malloc(sizeof(int) * ints);
    if (rank != root) memset(mine, 0, sizeof(int) * ints);
    void *recv = rank == root ? MPI_IN_PLACE : (void *)mine;
    if (nonblocking)
      CHECK_MPI(MPI_Iscatterv(dst, counts, displs, MPI_INT, recv, ints, MPI_INT, root, MPI_COMM_WORLD, &r));
    else
      CHECK_MPI(MPI_Scatterv(dst, counts, displs, MPI_INT, recv, ints, MPI_INT, root, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int k = 0; k < ints; ++k) CHECK(mine[k] == byte_of(root, rank, c + 1, k));
    if (rank != root) free(mine);
  }
  free(src), free(dst), free(counts), free(displs);
  MPI_Type_free(&strided);
  MPI_Type_free(&every_other);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int small[] = {1, 3, 4, 13, 32}; /* bytes per block: through the slots */
  for (int nb = 0; nb < 2; ++nb) {
    const long long a0 = counter_total("seg_alltoall"), s0 = counter_total("seg_scatter"),
                    copy0 = counter_total("seg_single_copy");
    for (int i = 0; i < 5; ++i) alltoalls(small[i], 100 * i, nb);
    for (int ints = 1; ints <= 8; ints *= 2) scatters(ints, 1000 * ints, nb);
    const long long a1 = counter_total("seg_alltoall"), s1 = counter_total("seg_scatter"),
                    copy1 = counter_total("seg_single_copy");
    if (size > 2) { /* two ranks take messages for blocks this small */
      CHECK(a1 - a0 == 10LL * size);
      CHECK(s1 - s0 == 4LL * 2 * size * size);
      CHECK(copy1 == copy0); /* nothing read from another rank's buffer */
    }
  }
  /* Larger blocks, which may go by address here: the data still arrives. */
  alltoalls(64, 7, 0);
  alltoalls(200, 8, 1);
  scatters(50, 9, 0);
  MPI_Finalize();
  return 0;
}
