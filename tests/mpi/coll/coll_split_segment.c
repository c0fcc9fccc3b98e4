/* Communicators made by MPI_Comm_split, MPI_Comm_idup, MPI_Comm_split_type,
 * MPI_Comm_create, MPI_Comm_create_group, the topology constructors and
 * MPI_Cart_sub get their shared segment in the constructor's
 * round (coll/segment.hpp, reserve_offer): a nonblocking collective as
 * their first collective already runs on it. Every rank reserves a segment
 * of its own for the round and gives back what nobody took, so made and
 * freed 30 times over (more than the 8 segments a rank owns), failing on
 * every rank 20 times (a bad colour on one rank), and with 8 kept alive at
 * once (the 8th has no segment left and runs over messages, correctly),
 * every new communicator still gets one. The reservation comes before the
 * round, so a segment whose last member has not yet freed its communicator
 * is not free yet: the loop below frees and makes with different leaders'
 * segments to spare, the kept ones wait for a barrier first. */
#include <stdio.h>

#include "check.h"
#include "counter.h"

/* One MPI_Iallreduce as c's first collective; whether it ran on the segment. */
static int first_on_segment(MPI_Comm c) {
  int n, me;
  MPI_Comm_size(c, &n);
  MPI_Comm_rank(c, &me);
  const long long before = counter("seg_allreduce");
  int x = me + 1, sum = 0;
  MPI_Request r;
  CHECK_MPI(MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, c, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(sum == n * (n + 1) / 2);
  return counter("seg_allreduce") - before == 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Group world_group, odd, even;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int ranks[64], nodd = 0, neven = 0;
  for (int i = 1; i < size; i += 2) ranks[nodd++] = i;
  CHECK_MPI(MPI_Group_incl(world_group, nodd, ranks, &odd));
  for (int i = 0; i < size; i += 2) ranks[neven++] = i;
  CHECK_MPI(MPI_Group_incl(world_group, neven, ranks, &even));
  const int mine = rank % 2 ? nodd : neven; /* size of this rank's half */

  for (int i = 0; i < 30; ++i) {
    MPI_Comm c;
    /* Keys reversed every other time: the new rank 0 is not the lowest old rank. */
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, i % 2 ? -rank : rank, &c));
    CHECK(first_on_segment(c) == (mine > 1));
    CHECK_MPI(MPI_Comm_free(&c));

    {
      MPI_Request q;
      CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &q));
      CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
      CHECK(first_on_segment(c) == (size > 1));
      CHECK_MPI(MPI_Comm_free(&c));
    }

    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &c));
    CHECK(first_on_segment(c) == (size > 1));
    CHECK_MPI(MPI_Comm_free(&c));

    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, rank % 2 ? odd : even, &c));
    CHECK(first_on_segment(c) == (mine > 1));
    CHECK_MPI(MPI_Comm_free(&c));

    CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, rank % 2 ? odd : even, 7, &c));
    CHECK(first_on_segment(c) == (mine > 1));
    CHECK_MPI(MPI_Comm_free(&c));

    /* The topology constructors (one rank left out of the grid) and MPI_Cart_sub. */
    if (size > 1) {
      int dims[1] = {size - 1}, periods[1] = {1};
      CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, i % 2, &c));
      if (rank < size - 1) {
        CHECK(first_on_segment(c) == (size > 2));
        int remain[1] = {1};
        MPI_Comm sub;
        CHECK_MPI(MPI_Cart_sub(c, remain, &sub));
        CHECK(first_on_segment(sub) == (size > 2));
        CHECK_MPI(MPI_Comm_free(&sub));
        CHECK_MPI(MPI_Comm_free(&c));
      } else {
        CHECK(c == MPI_COMM_NULL);
      }
    }
    {
      int src = (rank + size - 1) % size, dst = (rank + 1) % size;
      CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, MPI_UNWEIGHTED, 1, &dst, MPI_UNWEIGHTED,
                                               MPI_INFO_NULL, i % 2, &c));
      CHECK(first_on_segment(c) == (size > 1));
      CHECK_MPI(MPI_Comm_free(&c));
      int index[64], edges[64];
      for (int v = 0; v < size; ++v) {
        index[v] = v + 1;
        edges[v] = (v + 1) % size;
      }
      CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, i % 2, &c));
      CHECK(first_on_segment(c) == (size > 1));
      CHECK_MPI(MPI_Comm_free(&c));
    }

    /* Only the even ranks get a communicator; the odd ones MPI_COMM_NULL. */
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, even, &c));
    if (rank % 2 == 0) {
      CHECK(first_on_segment(c) == (neven > 1));
      CHECK_MPI(MPI_Comm_free(&c));
    } else {
      CHECK(c == MPI_COMM_NULL);
    }
  }

  /* A bad colour on rank 1 fails the call on every rank, 20 times. */
  for (int i = 0; i < 20 && size > 1; ++i) {
    MPI_Comm c = MPI_COMM_NULL;
    const int e = MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? -5 : 0, 0, &c);
    CHECK(e != MPI_SUCCESS && c == MPI_COMM_NULL);
  }

  /* Eight kept at once, world rank 0 the new rank 0 of each: it owns 8
   * segments and MPI_COMM_WORLD has one, so the last one has none. (The
   * barrier: MPI_Comm_free is local, and a segment is free again once every
   * member freed its communicator; rank 0 reserves before the round.) */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Comm kept[8];
  for (int i = 0; i < 8; ++i) {
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &kept[i]));
    CHECK(first_on_segment(kept[i]) == (size > 1 && i < 7));
  }
  for (int i = 0; i < 8; ++i) {
    int x = rank, sum = -1; /* a blocking one on each, the last one over messages */
    CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, kept[i]));
    CHECK(sum == size * (size - 1) / 2);
  }
  for (int i = 0; i < 8; ++i) CHECK_MPI(MPI_Comm_free(&kept[i]));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c));
  CHECK(first_on_segment(c) == (size > 1));
  CHECK_MPI(MPI_Comm_free(&c));

  MPI_Group_free(&odd);
  MPI_Group_free(&even);
  MPI_Group_free(&world_group);
  MPI_Finalize();
  return 0;
}
