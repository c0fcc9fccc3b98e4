/* The profiling interface (MPI-3.1 section 14.2). This program defines its
 * own MPI_Send, MPI_Recv, MPI_Bcast and MPI_Allreduce, as a profiling tool
 * does: each counts its calls and forwards to the library's PMPI_ function.
 * Checked: the program's calls reach these definitions (the counts), the
 * forwarded calls do the work (the data), the library's own functions do not
 * call them (MPI_Sendrecv, MPI_Reduce, nonblocking collectives, MPI_Comm_dup
 * leave the counts alone), and PMPI_ functions of several kinds can be called
 * directly (plain, double-valued, variadic, handle conversions, MPIX_). */
#include <mpi.h>
#include <stdio.h>

#include "check.h"

static int n_send, n_recv, n_bcast, n_allreduce;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  n_send++;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  n_recv++;
  return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  n_bcast++;
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  n_allreduce++;
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

enum { kRounds = 5, kBcasts = 7, kAllreduces = 6, kLen = 64 };

/* Rank 0 sends kRounds messages to every other rank, which answers each. */
static void point_to_point(int rank, int size) {
  int buf[kLen];
  for (int r = 0; r < kRounds; r++) {
    if (rank == 0) {
      for (int peer = 1; peer < size; peer++) {
        for (int i = 0; i < kLen; i++) buf[i] = 1000 * peer + 10 * r + i;
        CHECK_MPI(MPI_Send(buf, kLen, MPI_INT, peer, r, MPI_COMM_WORLD));
      }
      for (int peer = 1; peer < size; peer++) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(buf, kLen, MPI_INT, peer, r, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == r);
        for (int i = 0; i < kLen; i++) CHECK(buf[i] == -(1000 * peer + 10 * r + i));
      }
    } else {
      CHECK_MPI(MPI_Recv(buf, kLen, MPI_INT, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      for (int i = 0; i < kLen; i++) CHECK(buf[i] == 1000 * rank + 10 * r + i);
      for (int i = 0; i < kLen; i++) buf[i] = -buf[i];
      CHECK_MPI(MPI_Send(buf, kLen, MPI_INT, 0, r, MPI_COMM_WORLD));
    }
  }
  const int expect = rank == 0 ? kRounds * (size - 1) : kRounds;
  CHECK(n_send == expect);
  CHECK(n_recv == expect);
}

static void collectives(int rank, int size) {
  int buf[kLen];
  for (int b = 0; b < kBcasts; b++) {
    const int root = b % size;
    for (int i = 0; i < kLen; i++) buf[i] = rank == root ? 7 * b + i : -1;
    CHECK_MPI(MPI_Bcast(buf, kLen, MPI_INT, root, MPI_COMM_WORLD));
    for (int i = 0; i < kLen; i++) CHECK(buf[i] == 7 * b + i);
  }
  for (int a = 0; a < kAllreduces; a++) {
    int in[kLen], out[kLen];
    for (int i = 0; i < kLen; i++) in[i] = rank + a * i;
    CHECK_MPI(MPI_Allreduce(in, out, kLen, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < kLen; i++) CHECK(out[i] == size * (size - 1) / 2 + size * a * i);
  }
  CHECK(n_bcast == kBcasts);
  CHECK(n_allreduce == kAllreduces);
}

/* Functions of the library that move data or agree on something: none of
 * them goes through this program's MPI_Send, MPI_Recv, MPI_Bcast or
 * MPI_Allreduce (the library calls its own code directly). */
static void library_calls_are_not_intercepted(int rank, int size) {
  const int before[4] = {n_send, n_recv, n_bcast, n_allreduce};
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = rank, in = -1;
  CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 9, &in, 1, MPI_INT, left, 9, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  CHECK(in == left);
  int sum = -1;
  CHECK_MPI(MPI_Reduce(&out, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0) CHECK(sum == size * (size - 1) / 2);
  MPI_Request req;
  int v = rank == 0 ? 42 : 0;
  CHECK_MPI(MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(v == 42);
  CHECK_MPI(MPI_Iallreduce(&out, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(sum == size - 1);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK_MPI(MPI_Barrier(dup));
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK(n_send == before[0] && n_recv == before[1] && n_bcast == before[2] && n_allreduce == before[3]);
}

/* PMPI_ functions called directly: same results as their MPI_ names, and the
 * program's MPI_ definitions are not involved. */
static void direct_pmpi_calls(int rank, int size) {
  const int before[4] = {n_send, n_recv, n_bcast, n_allreduce};
  int r = -1, s = -1;
  CHECK_MPI(PMPI_Comm_rank(MPI_COMM_WORLD, &r));
  CHECK_MPI(PMPI_Comm_size(MPI_COMM_WORLD, &s));
  CHECK(r == rank && s == size);

  const double t0 = PMPI_Wtime(), t1 = MPI_Wtime();
  CHECK(t0 > 0.0 && t1 >= t0);
  CHECK(PMPI_Wtick() > 0.0 && PMPI_Wtick() == MPI_Wtick());
  CHECK_MPI(PMPI_Pcontrol(1));
  CHECK_MPI(PMPI_Pcontrol(2, "variadic", 3));

  int tsize = -1;
  CHECK_MPI(PMPI_Type_size(MPI_DOUBLE, &tsize));
  CHECK(tsize == (int)sizeof(double));
  MPI_Aint lb = -1, extent = -1;
  CHECK_MPI(PMPI_Type_get_extent(MPI_INT, &lb, &extent));
  CHECK(lb == 0 && extent == (MPI_Aint)sizeof(int));
  CHECK(PMPI_Aint_add(100, 28) == 128 && PMPI_Aint_diff(100, 28) == 72);

  MPI_Fint f = PMPI_Comm_c2f(MPI_COMM_WORLD);
  CHECK(f == MPI_Comm_c2f(MPI_COMM_WORLD));
  CHECK(PMPI_Comm_f2c(f) == MPI_COMM_WORLD);
  CHECK(PMPI_Type_f2c(PMPI_Type_c2f(MPI_INT)) == MPI_INT);

  /* The forwarding targets themselves, uncounted. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = 100 + rank, in = -1;
  MPI_Request req;
  CHECK_MPI(PMPI_Irecv(&in, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &req));
  CHECK_MPI(PMPI_Send(&out, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
  CHECK_MPI(PMPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(in == 100 + left);
  int sum = -1;
  CHECK_MPI(PMPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
  CHECK(sum == 100 * size + size * (size - 1) / 2);
  int v = rank == size - 1 ? 5 : 0;
  CHECK_MPI(PMPI_Bcast(&v, 1, MPI_INT, size - 1, MPI_COMM_WORLD));
  CHECK(v == 5);

#ifdef RINGMPI_HAVE_MPIX_QUERY_COUNTER
  MPI_Count c1 = -1, c2 = -1;
  CHECK_MPI(PMPIX_Query_counter("rndv_read", &c1));
  CHECK_MPI(MPIX_Query_counter("rndv_read", &c2));
  CHECK(c1 >= 0 && c1 == c2);
#endif
  CHECK(n_send == before[0] && n_recv == before[1] && n_bcast == before[2] && n_allreduce == before[3]);
}

int main(int argc, char **argv) {
  CHECK_MPI(PMPI_Init(&argc, &argv));
  int flag = 0;
  CHECK_MPI(PMPI_Initialized(&flag));
  CHECK(flag);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  point_to_point(rank, size);
  collectives(rank, size);
  library_calls_are_not_intercepted(rank, size);
  direct_pmpi_calls(rank, size);

  CHECK_MPI(PMPI_Finalize());
  flag = 0;
  PMPI_Finalized(&flag);
  if (!flag) {
    fprintf(stderr, "PMPI_Finalized: not finalized after PMPI_Finalize\n");
    return 1;
  }
  if (rank == 0) printf("compat_pmpi: %d ranks, counted %d sends, %d bcasts, %d allreduces\n", size, n_send,
                        n_bcast, n_allreduce);
  return 0;
}
