/* The persistent collectives beyond INT_MAX (MPI-4.1 large counts), each
 * path of MPI_*_init_c with a real message, every byte checked:
 *  - MPI_Gatherv_init_c of 2^31 + 7 MPI_CHARs from rank 1 to rank 0 (the v
 *    forms' blocks, made at _init, one element of a contiguous type), started
 *    twice with other data;
 *  - MPI_Neighbor_alltoall_init_c of 2^31 + 7 MPI_CHARs from rank 0 to rank 1
 *    over a one-way distributed graph (a uniform count beyond INT_MAX);
 *  - MPI_Gather_init_c of 2^30 + 4 MPI_CHARs per rank to rank 0 in place, whose
 *    receive side (2^31 + 8 bytes) passes the int form's uniform displacements
 *    (count x ranks beyond INT_MAX).
 * np 2 only: one buffer of about 2 GiB per rank, 4.3 GB in all. */
#include "bigcount_pattern.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 2);
  unsigned char* buf = malloc((size_t)kHuge + 1); /* the gather's 2 x (2^30 + 4) bytes */
  CHECK(buf != NULL);
  MPI_Request r;

  const MPI_Count counts[2] = {0, kHuge};
  const MPI_Aint displs[2] = {0, 0};
  CHECK_MPI(MPI_Gatherv_init_c(rank == 1 ? buf : MPI_IN_PLACE, rank == 1 ? kHuge : 0, MPI_CHAR, buf, counts, displs,
                               MPI_CHAR, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int round = 0; round < 2; ++round) {
    if (rank == 1) huge_fill(buf, kHuge, 11 + round);
    else memset(buf, 0, (size_t)kHuge);
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    huge_verify_all(buf, kHuge, 11 + round);
  }
  CHECK_MPI(MPI_Request_free(&r));

  /* 0 -> 1 only: rank 0 sends one block, rank 1 receives one. */
  MPI_Comm graph;
  const int peer = 1 - rank;
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, rank == 1, &peer, MPI_UNWEIGHTED, rank == 0, &peer,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph));
  CHECK_MPI(MPI_Neighbor_alltoall_init_c(buf, kHuge, MPI_CHAR, buf, kHuge, MPI_CHAR, graph, MPI_INFO_NULL, &r));
  if (rank == 0) huge_fill(buf, kHuge, 21);
  else memset(buf, 0, (size_t)kHuge);
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  huge_verify_all(buf, kHuge, 21);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Comm_free(&graph));

  const MPI_Count half = (kHuge + 1) / 2; /* 2^30 + 4: 2 x half > INT_MAX */
  CHECK_MPI(MPI_Gather_init_c(rank == 0 ? MPI_IN_PLACE : buf, half, MPI_CHAR, buf, half, MPI_CHAR, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &r));
  if (rank == 0) {
    huge_fill(buf, half, 31);
    memset(buf + half, 0, (size_t)half);
  } else {
    huge_fill(buf, half, 32);
  }
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  if (rank == 0) {
    huge_verify_all(buf, half, 31);        /* its own block, in place */
    huge_verify_all(buf + half, half, 32); /* rank 1's */
  }
  CHECK_MPI(MPI_Request_free(&r));
  free(buf);
  MPI_Finalize();
  return 0;
}
