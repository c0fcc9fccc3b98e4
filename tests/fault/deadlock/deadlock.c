/* Programs for the deadlock detector's tests (deadlock.py). argv[1] picks one:
 *   recv_cycle   ranks 0 and 1 each receive from the other first; the rest wait
 *                in MPI_Barrier: a real deadlock.
 *   finalized    rank 0 receives from rank 1, which goes straight to
 *                MPI_Finalize: a real deadlock.
 *   slow_compute rank 0 computes for 3 s (not in MPI) while the others wait in
 *                MPI_Recv and MPI_Barrier; then everything matches: correct.
 *   slow_sleep   the same, rank 0 sleeping in nanosleep: correct.
 *   token_ring   a token goes round the ring 100 times, with a barrier every
 *                round: correct, lots of sleeping and waking when oversubscribed.
 *   wait_cycle   on a duplicate of MPI_COMM_WORLD named "grid", rank r posts
 *                MPI_Irecv of 2 doubles from rank r+1 (tag 5) and waits for it
 *                in MPI_Wait: a cycle through every rank.
 *   bcast_wait   rank 0 receives from MPI_ANY_SOURCE, the others wait in
 *                MPI_Bcast for root 0: a deadlock without a cycle. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* c = argc > 1 ? argv[1] : "";
  int v = rank, got = -1;
  if (!strcmp(c, "recv_cycle")) {
    if (rank < 2) {
      MPI_Recv(&got, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&v, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(c, "finalized")) {
    if (rank == 0) MPI_Recv(&got, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (!strcmp(c, "slow_compute") || !strcmp(c, "slow_sleep")) {
    if (rank == 0) {
      if (!strcmp(c, "slow_sleep")) {
        struct timespec ts = {3, 0};
        nanosleep(&ts, NULL);
      } else {
        volatile double x = 0;
        for (const double end = now() + 3.0; now() < end;)
          for (int i = 0; i < 100000; ++i) x = x + 1e-9 * i;
      }
      for (int r = 1; r < size; ++r) MPI_Send(&v, 1, MPI_INT, r, 1, MPI_COMM_WORLD);
    } else {
      MPI_Recv(&got, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (got != 0) {
        printf("rank %d: got %d, want 0\n", rank, got);
        MPI_Abort(MPI_COMM_WORLD, 3);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(c, "token_ring")) {
    int token = 0;
    for (int round = 0; round < 100; ++round) {
      if (rank == 0) {
        token = round;
        if (size > 1) {
          MPI_Send(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
          MPI_Recv(&token, 1, MPI_INT, size - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (token != round + size - 1) {
          printf("round %d: token %d, want %d\n", round, token, round + size - 1);
          MPI_Abort(MPI_COMM_WORLD, 4);
        }
      } else {
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ++token;
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else if (!strcmp(c, "wait_cycle")) {
    MPI_Comm grid;
    MPI_Comm_dup(MPI_COMM_WORLD, &grid);
    MPI_Comm_set_name(grid, "grid");
    double in[2];
    MPI_Request req;
    MPI_Irecv(in, 2, MPI_DOUBLE, (rank + 1) % size, 5, grid, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&grid);
  } else if (!strcmp(c, "bcast_wait")) {
    if (rank == 0)
      MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    printf("unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) printf("done %s\n", c);
  MPI_Finalize();
  return 0;
}
