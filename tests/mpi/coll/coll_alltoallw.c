/* MPI_Alltoallw and MPI_Ialltoallw on an intracommunicator: per-peer
 * datatypes (MPI_INT, MPI_DOUBLE and a strided vector) and byte
 * displacements, MPI_IN_PLACE, zero counts with NULL buffers, and a derived
 * type freed while the nonblocking form is in flight. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *sc = calloc((size_t)size, sizeof(int)), *sd = calloc((size_t)size, sizeof(int));
  int *rc = calloc((size_t)size, sizeof(int)), *rd = calloc((size_t)size, sizeof(int));
  MPI_Datatype *st = calloc((size_t)size, sizeof(MPI_Datatype)), *rt = calloc((size_t)size, sizeof(MPI_Datatype));

  for (int mode = 0; mode < 2; ++mode) {
    /* Peer p gets p+1 ints: sent as ints from a packed array, received as a
     * stride-2 vector of p+1 ints into a block at byte offset 8*sum. */
    MPI_Datatype vec;
    int maxn = size + 1;
    MPI_Type_vector(maxn, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *sbuf = malloc(sizeof(int) * (size_t)(size * maxn));
    int *rbuf = malloc(sizeof(int) * (size_t)(size * 2 * maxn));
    for (int i = 0; i < size * 2 * maxn; ++i) rbuf[i] = -1;
    int at = 0;
    for (int p = 0; p < size; ++p) {
      sc[p] = rank + 1; /* what I send to p: rank+1 ints */
      sd[p] = (int)sizeof(int) * at;
      st[p] = MPI_INT;
      for (int k = 0; k < rank + 1; ++k) sbuf[at + k] = 1000 * rank + 10 * p + k;
      at += rank + 1;
      rc[p] = 1; /* from p: one vector of maxn ints, p+1 of them carried... */
      rt[p] = vec;
      rd[p] = (int)sizeof(int) * 2 * maxn * p;
    }
    /* The signature must match: p sends p+1 ints, so receive p+1 ints, as a vector of p+1 blocks. */
    MPI_Datatype *own = calloc((size_t)size, sizeof(MPI_Datatype));
    for (int p = 0; p < size; ++p) {
      MPI_Type_vector(p + 1, 1, 2, MPI_INT, &own[p]);
      MPI_Type_commit(&own[p]);
      rt[p] = own[p];
    }
    if (mode == 0) {
      CHECK_MPI(MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD));
    } else {
      MPI_Request r;
      CHECK_MPI(MPI_Ialltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD, &r));
      for (int p = 0; p < size; ++p) MPI_Type_free(&own[p]); /* in flight: must stay usable */
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    for (int p = 0; p < size; ++p)
      for (int k = 0; k < 2 * maxn; ++k) {
        const int v = rbuf[2 * maxn * p + k];
        if (k % 2 == 0 && k / 2 < p + 1)
          CHECK(v == 1000 * p + 10 * rank + k / 2);
        else
          CHECK(v == -1);
      }
    if (mode == 0)
      for (int p = 0; p < size; ++p) MPI_Type_free(&own[p]);
    free(own);
    MPI_Type_free(&vec);
    free(sbuf);
    free(rbuf);
  }

  /* MPI_IN_PLACE: block p of the buffer goes to p and is replaced by p's block for me. */
  {
    double *buf = malloc(sizeof(double) * (size_t)size);
    for (int p = 0; p < size; ++p) {
      buf[p] = rank * 100.0 + p;
      rc[p] = 1;
      rd[p] = (int)sizeof(double) * p;
      rt[p] = MPI_DOUBLE;
    }
    CHECK_MPI(MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buf, rc, rd, rt, MPI_COMM_WORLD));
    for (int p = 0; p < size; ++p) CHECK(buf[p] == p * 100.0 + rank);
    free(buf);
  }

  /* Zero counts everywhere: NULL buffers are valid. */
  for (int p = 0; p < size; ++p) sc[p] = rc[p] = 0, sd[p] = rd[p] = 0, st[p] = rt[p] = MPI_INT;
  CHECK_MPI(MPI_Alltoallw(NULL, sc, sd, st, NULL, rc, rd, rt, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Gather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Scatterv(NULL, sc, sd, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Alltoallv(NULL, sc, sd, MPI_INT, NULL, rc, rd, MPI_INT, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allgatherv(NULL, 0, MPI_INT, NULL, rc, rd, MPI_INT, MPI_COMM_WORLD));

  free(sc), free(sd), free(rc), free(rd), free(st), free(rt);
  MPI_Finalize();
  return 0;
}
