/* The topology constructors take the new communicator's context id in their
 * agreement round (no comm::split round of their own). Here the ranks hold
 * different communicators when they call them (the even ranks one more, and
 * one freed in between on rank 0 only), so the ids free on each differ;
 * each new communicator must still be one communicator: an exchange on it
 * and one on every older communicator, same tag and MPI_ANY_SOURCE, posted
 * together, each get their own message. Cart_create (reorder 0 and 1,
 * a rank left out), Graph_create and both Dist_graph constructors. */
#include <stdlib.h>

#include "check.h"

static int rank, size;

/* A ring exchange on each of the n communicators at once, same tag, any
 * source; message i carries 1000 * id[i] + the sender's rank in comms[i]
 * (id: the same communicator has the same id on every rank). */
static void distinct(const MPI_Comm* comms, const int* id, int n) {
  int send[8], recv[8];
  MPI_Request r[16];
  int k = 0;
  for (int i = 0; i < n; ++i) {
    int me, sz;
    MPI_Comm_rank(comms[i], &me);
    MPI_Comm_size(comms[i], &sz);
    send[i] = 1000 * id[i] + me;
    recv[i] = -1;
    CHECK_MPI(MPI_Irecv(&recv[i], 1, MPI_INT, MPI_ANY_SOURCE, 7, comms[i], &r[k++]));
    CHECK_MPI(MPI_Isend(&send[i], 1, MPI_INT, (me + 1) % sz, 7, comms[i], &r[k++]));
  }
  CHECK_MPI(MPI_Waitall(k, r, MPI_STATUSES_IGNORE));
  for (int i = 0; i < n; ++i) {
    int me, sz;
    MPI_Comm_rank(comms[i], &me);
    MPI_Comm_size(comms[i], &sz);
    CHECK(recv[i] == 1000 * id[i] + (me + sz - 1) % sz);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half, extra = MPI_COMM_NULL, gone;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  if (rank % 2 == 0) CHECK_MPI(MPI_Comm_dup(half, &extra));
  if (rank == 0) {
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &gone));
    CHECK_MPI(MPI_Comm_free(&gone));
  }
  /* world, half, then extra where this rank has it */
  MPI_Comm all[6] = {MPI_COMM_WORLD, half};
  int id[6] = {0, 1};
  int nold = 2;
  if (extra != MPI_COMM_NULL) {
    all[nold] = extra;
    id[nold++] = 2;
  }

  for (int reorder = 0; reorder < 2; ++reorder) {
    /* A ring of size - 1 (every rank when alone): the last rank is left out. */
    int dims[1] = {size > 1 ? size - 1 : 1}, periods[1] = {1};
    MPI_Comm cart;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, reorder, &cart));
    CHECK((cart == MPI_COMM_NULL) == (rank >= dims[0]));
    int n = nold;
    if (cart != MPI_COMM_NULL) {
      all[n] = cart;
      id[n++] = 3;
    }
    distinct(all, id, n);
    if (cart != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&cart));
  }

  /* A ring as a graph, and as both distributed graphs. */
  int* index = malloc(sizeof(int) * (size_t)size);
  int* edges = malloc(sizeof(int) * 2 * (size_t)size);
  for (int i = 0; i < size; ++i) {
    index[i] = 2 * (i + 1);
    edges[2 * i] = (i + size - 1) % size;
    edges[2 * i + 1] = (i + 1) % size;
  }
  MPI_Comm g[3];
  CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g[0]));
  const int nb[2] = {(rank + size - 1) % size, (rank + 1) % size};
  CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, MPI_UNWEIGHTED, 2, nb, MPI_UNWEIGHTED,
                                           MPI_INFO_NULL, 1, &g[1]));
  const int src = rank, deg = 2;
  CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, nb, MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g[2]));
  for (int i = 0; i < 3; ++i) {
    all[nold + i] = g[i];
    id[nold + i] = 4 + i;
  }
  distinct(all, id, nold + 3);
  for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Comm_free(&g[i]));
  free(index);
  free(edges);
  if (extra != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&extra));
  CHECK_MPI(MPI_Comm_free(&half));
  MPI_Finalize();
  return 0;
}
