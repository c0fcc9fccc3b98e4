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
