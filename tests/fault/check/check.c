/* Programs for the mpiexec --check tests (check.py). argv[1] picks one:
 *   bcast_root     rank r passes root r % 2 to MPI_Bcast.
 *   reduce_count   rank 0 passes count 4 of MPI_INT to MPI_Reduce, the others 5.
 *   allreduce_op   rank 0 passes MPI_SUM to MPI_Allreduce, the others MPI_MAX.
 *   call           rank 0 calls MPI_Bcast, the others MPI_Allreduce.
 *   gather_count   the root (0) receives 4 MPI_INT per rank, the last rank sends 3.
 *   recv_type      rank 0 sends 4 MPI_INT, rank 1 receives 2 MPI_DOUBLE (eager,
 *                  the receive posted first).
 *   recv_late      the same with a message already waiting (unexpected) when
 *                  rank 1 posts its receive.
 *   recv_large     rank 0 sends 100000 MPI_INT, rank 1 receives 50000 MPI_DOUBLE
 *                  (rendezvous).
 *   scatterv_count the root (0) sends sendcounts[i]=4 MPI_INT to every rank, rank 2
 *                  expects 5 (np 3).
 *   gatherv_type   rank 1 sends 2 MPI_DOUBLE, the root (0) expects recvcounts[1]=2 MPI_INT.
 *   alltoallv_count rank 1 sends sendcounts[2]=2 MPI_INT to rank 2, which expects
 *                  recvcounts[1]=3 (np 3; every other pair sends and expects 1).
 *   reduce_scatter_counts  rank 2 passes recvcounts {1, 1, 2}, the others {1, 2, 1}.
 *   ibcast_root    rank r passes root r % 2 to MPI_Ibcast (then MPI_Wait).
 *   mixed_call     rank 0 calls MPI_Bcast, the others MPI_Ibcast and MPI_Wait.
 *   iallgatherv_count  MPI_Iallgatherv, rank 0 expects recvcounts[1]=3, rank 1 sends 2,
 *                  with a point-to-point message outstanding across the call.
 *   inter_root     an intercommunicator of the even and the odd ranks (np 4):
 *                  the even group's rank 0 passes MPI_ROOT, its rank 1 MPI_PROC_NULL,
 *                  the odd group names rank 1 of the even group as the root.
 *   neighbor_count a non-periodic 1-D grid of 2: rank 0 sends 2 MPI_INT to rank 1 in
 *                  MPI_Neighbor_alltoall, rank 1 expects 3.
 *   ineighbor_type the same with MPI_Ineighbor_alltoall, rank 1 expecting 2 MPI_FLOAT.
 *   nb_p2p         correct: nonblocking collectives outstanding across blocking
 *                  point-to-point that orders the ranks (rank 0 starts MPI_Ibarrier and
 *                  MPI_Iallreduce, then sends to rank 1, which receives before it
 *                  starts them); prints "done nb_p2p".
 *   correct        a correct program using every checked call with matching
 *                  signatures written differently (contiguous(4, MPI_INT) against
 *                  4 x MPI_INT, a receive longer than the message, MPI_BYTE,
 *                  MPI_IN_PLACE); prints "done correct" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      printf("rank %d: check failed line %d: %s\n", rank, __LINE__, #cond); \
      MPI_Abort(MPI_COMM_WORLD, 3);                                          \
    }                                                                        \
  } while (0)

static int rank, size;

static void correct(void) {
  int four[4] = {1, 2, 3, 4}, got[4] = {0};
  MPI_Datatype quad;
  MPI_Type_contiguous(4, MPI_INT, &quad);
  MPI_Type_commit(&quad);
  /* Bcast: the root passes 1 x quad, the others 4 x MPI_INT. */
  if (rank == 0)
    MPI_Bcast(four, 1, quad, 0, MPI_COMM_WORLD);
  else
    MPI_Bcast(got, 4, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) CHECK(got[3] == 4);
  int one = rank + 1, sum = 0;
  MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD);
  if (rank == size - 1) CHECK(sum == size * (size + 1) / 2);
  MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(one == size);
  int mine[4] = {rank, rank, rank, rank}, all[4 * 8];
  /* Gather: the root receives 1 x quad per rank, the others send 4 x MPI_INT. */
  if (rank == 0)
    MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, quad, 0, MPI_COMM_WORLD);
  else
    MPI_Gather(mine, 4, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
  if (rank == 0 && size > 1) CHECK(all[4 * (size - 1)] == size - 1);
  MPI_Scatter(all, 4, MPI_INT, got, 1, quad, 0, MPI_COMM_WORLD);
  MPI_Allgather(mine, 1, quad, all, 4, MPI_INT, MPI_COMM_WORLD);
  CHECK(all[4 * (size - 1)] == size - 1);
  int to[8], from[8];
  for (int i = 0; i < size; ++i) to[i] = rank;
  MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
  CHECK(from[size - 1] == size - 1);
  int pre = 0;
  MPI_Scan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&one, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (size > 1) {
    /* p2p: a receive longer than the message; contiguous against basic; MPI_BYTE. */
    int ten[10];
    if (rank == 0) {
      MPI_Send(four, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
      MPI_Send(four, 1, quad, 1, 2, MPI_COMM_WORLD);
      MPI_Send(four, (int)sizeof four, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Status st;
      int n;
      MPI_Recv(ten, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_INT, &n);
      CHECK(n == 4);
      MPI_Recv(ten, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(ten, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      CHECK(ten[3] == 4);
    }
    double x = rank;
    MPI_Sendrecv_replace(&x, 1, MPI_DOUBLE, (rank + 1) % size, 4, (rank + size - 1) % size, 4, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    CHECK(x == (double)((rank + size - 1) % size));
  }
  MPI_Type_free(&quad);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* c = argc > 1 ? argv[1] : "";
  int buf[128];
  static int big[100000];
  static double dbig[50000];
  double d[2];
  memset(buf, 0, sizeof buf);
  if (!strcmp(c, "bcast_root")) {
    MPI_Bcast(buf, 1, MPI_INT, rank % 2, MPI_COMM_WORLD);
  } else if (!strcmp(c, "reduce_count")) {
    MPI_Reduce(buf, buf + 8, rank == 0 ? 4 : 5, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  } else if (!strcmp(c, "allreduce_op")) {
    MPI_Allreduce(buf, buf + 8, 1, MPI_INT, rank == 0 ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);
  } else if (!strcmp(c, "call")) {
    if (rank == 0)
      MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
      MPI_Allreduce(buf, buf + 8, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(c, "gather_count")) {
    MPI_Gather(buf, rank == size - 1 ? 3 : 4, MPI_INT, buf + 64, 4, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (!strcmp(c, "recv_type") || !strcmp(c, "recv_late")) {
    const int late = !strcmp(c, "recv_late");
    if (rank == 0) {
      if (!late) sleep(1);
      MPI_Send(buf, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else if (rank == 1) {
      if (late) sleep(1);
      MPI_Recv(d, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(c, "recv_large")) {
    if (rank == 0)
      MPI_Send(big, 100000, MPI_INT, 1, 8, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(dbig, 50000, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(c, "scatterv_count")) {
    int counts[8] = {4, 4, 4, 4, 4, 4, 4, 4}, displs[8] = {0, 4, 8, 12, 16, 20, 24, 28};
    MPI_Scatterv(buf, counts, displs, MPI_INT, buf + 64, rank == 2 ? 5 : 4, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (!strcmp(c, "gatherv_type")) {
    int counts[8] = {2, 2, 2, 2, 2, 2, 2, 2}, displs[8] = {0, 2, 4, 6, 8, 10, 12, 14};
    double two[2] = {0, 0};
    if (rank == 1)
      MPI_Gatherv(two, 2, MPI_DOUBLE, NULL, NULL, NULL, MPI_INT, 0, MPI_COMM_WORLD);
    else
      MPI_Gatherv(buf, 2, MPI_INT, buf + 64, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (!strcmp(c, "alltoallv_count")) {
    int sc[8], rc[8], sd[8], rd[8];
    for (int i = 0; i < size; ++i) sc[i] = rc[i] = 1, sd[i] = rd[i] = 4 * i;
    if (rank == 1) sc[2] = 2;
    if (rank == 2) rc[1] = 3;
    MPI_Alltoallv(buf, sc, sd, MPI_INT, buf + 64, rc, rd, MPI_INT, MPI_COMM_WORLD);
  } else if (!strcmp(c, "reduce_scatter_counts")) {
    int counts[3] = {1, rank == 2 ? 1 : 2, rank == 2 ? 2 : 1};
    MPI_Reduce_scatter(buf, buf + 64, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else if (!strcmp(c, "ibcast_root")) {
    MPI_Request r;
    MPI_Ibcast(buf, 1, MPI_INT, rank % 2, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (!strcmp(c, "mixed_call")) {
    if (rank == 0) {
      MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
      MPI_Request r;
      MPI_Ibcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(c, "iallgatherv_count")) {
    int counts[2] = {2, rank == 0 ? 3 : 2}, displs[2] = {0, 4};
    MPI_Request r, p;
    MPI_Irecv(buf + 100, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD, &p);
    MPI_Iallgatherv(buf, 2, MPI_INT, buf + 64, counts, displs, MPI_INT, MPI_COMM_WORLD, &r);
    MPI_Send(buf, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD);
    MPI_Wait(&p, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else if (!strcmp(c, "inter_root")) {
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - rank % 2, 5, &inter);
    MPI_Comm_set_name(inter, "halves");
    int hr;
    MPI_Comm_rank(half, &hr);
    const int root = rank % 2 == 0 ? (hr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 1;
    MPI_Bcast(buf, 2, MPI_INT, root, inter);
  } else if (!strcmp(c, "neighbor_count") || !strcmp(c, "ineighbor_type")) {
    MPI_Comm line;
    int dims[1] = {2}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    MPI_Comm_set_name(line, "line");
    const int nb = !strcmp(c, "ineighbor_type");
    float f[4];
    if (rank == 0 || !nb) {
      int rcount = rank == 1 ? 3 : 2;
      if (nb) {
        MPI_Request r;
        MPI_Ineighbor_alltoall(buf, 2, MPI_INT, buf + 64, rcount, MPI_INT, line, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      } else {
        MPI_Neighbor_alltoall(buf, 2, MPI_INT, buf + 64, rcount, MPI_INT, line);
      }
    } else {
      MPI_Request r;
      MPI_Ineighbor_alltoall(buf, 2, MPI_INT, f, 2, MPI_FLOAT, line, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
  } else if (!strcmp(c, "nb_p2p")) {
    if (size >= 2) {
      MPI_Request r[2];
      int one = 1, sum = 0, token = 5;
      if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
        MPI_Send(&token, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
      } else {
        if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
      }
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
      CHECK(sum == size && token == 5);
      /* A rooted one whose root waits for a message sent after the others started. */
      int v = rank == size - 1 ? 42 : 0;
      MPI_Request b;
      MPI_Ibcast(&v, 1, MPI_INT, size - 1, MPI_COMM_WORLD, &b);
      if (rank == 0) MPI_Send(&token, 1, MPI_INT, size - 1, 12, MPI_COMM_WORLD);
      if (rank == size - 1) MPI_Recv(&token, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&b, MPI_STATUS_IGNORE);
      CHECK(v == 42);
    }
  } else if (!strcmp(c, "correct")) {
    correct();
  } else {
    printf("unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) printf("done %s\n", c);
  MPI_Finalize();
  return 0;
}
