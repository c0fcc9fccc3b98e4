/* Halo exchange on a 2-D periodic grid, standard MPI C (compare.py builds it
 * against ringmpi, MPICH and Open MPI). MPI_Dims_create + MPI_Cart_create
 * (reorder = 1), then each iteration sends one block of `bytes` to each of
 * the 4 neighbours and receives one from each with MPI_Neighbor_alltoall.
 * Prints one line per figure, "<name> <bytes> <value> <unit>":
 *   neighbor_alltoall  time per exchange, the slowest rank's mean (us)
 *   sendrecv_halo      the same exchange with 2 x 2 MPI_Sendrecv (us), for scale
 *   cart_create        MPI_Cart_create + MPI_Comm_free (us)
 * Options: -i ITERS for 8-byte blocks (default 20000; 64 KiB uses ITERS / 20). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

static void report(const char *name, long bytes, double value, const char *unit) {
  if (rank == 0) printf("%s %ld %.3f %s\n", name, bytes, value, unit);
}

/* The slowest rank's mean time per iteration, in microseconds. */
static double slowest(double seconds, int iters, MPI_Comm c) {
  double us = seconds * 1e6 / iters, max = 0;
  MPI_Allreduce(&us, &max, 1, MPI_DOUBLE, MPI_MAX, c);
  return max;
}

static double neighbor(MPI_Comm cart, char *s, char *r, int bytes, int iters) {
  for (int i = 0; i < iters / 10 + 1; ++i) MPI_Neighbor_alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, cart);
  MPI_Barrier(cart);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) MPI_Neighbor_alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, cart);
  return slowest(MPI_Wtime() - t0, iters, cart);
}

/* Block order of MPI_Neighbor_alltoall on a Cartesian grid: per dimension
 * the negative, then the positive neighbour. */
static void halo_sendrecv(MPI_Comm cart, char *s, char *r, int bytes) {
  for (int d = 0; d < 2; ++d) {
    int lo, hi;
    MPI_Cart_shift(cart, d, 1, &lo, &hi);
    MPI_Sendrecv(s + (2 * d + 1) * bytes, bytes, MPI_BYTE, hi, d, r + 2 * d * bytes, bytes, MPI_BYTE, lo, d, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(s + 2 * d * bytes, bytes, MPI_BYTE, lo, 2 + d, r + (2 * d + 1) * bytes, bytes, MPI_BYTE, hi, 2 + d,
                 cart, MPI_STATUS_IGNORE);
  }
}

static double sendrecv(MPI_Comm cart, char *s, char *r, int bytes, int iters) {
  for (int i = 0; i < iters / 10 + 1; ++i) halo_sendrecv(cart, s, r, bytes);
  MPI_Barrier(cart);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) halo_sendrecv(cart, s, r, bytes);
  return slowest(MPI_Wtime() - t0, iters, cart);
}

int main(int argc, char **argv) {
  int iters = 20000, size;
  for (int i = 1; i + 1 < argc; ++i)
    if (!strcmp(argv[i], "-i")) iters = atoi(argv[++i]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);

  const int creates = 200;
  MPI_Comm cart;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < creates; ++i) {
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
    MPI_Comm_free(&cart);
  }
  report("cart_create", 0, slowest(MPI_Wtime() - t0, creates, MPI_COMM_WORLD), "us");

  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  const int sizes[2] = {8, 65536};
  for (int k = 0; k < 2; ++k) {
    const int bytes = sizes[k], n = bytes > 4096 ? iters / 20 + 1 : iters;
    char *s = malloc(4 * (size_t)bytes), *r = malloc(4 * (size_t)bytes), *want = malloc(4 * (size_t)bytes);
    for (int i = 0; i < 4 * bytes; ++i) s[i] = (char)(rank * 7 + i);
    /* Check once that both exchanges deliver the same blocks. */
    MPI_Neighbor_alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, cart);
    halo_sendrecv(cart, s, want, bytes);
    if (memcmp(r, want, 4 * (size_t)bytes) != 0) {
      fprintf(stderr, "topo_bench: rank %d: Neighbor_alltoall and Sendrecv disagree\n", rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    report("neighbor_alltoall", bytes, neighbor(cart, s, r, bytes, n), "us");
    report("sendrecv_halo", bytes, sendrecv(cart, s, r, bytes, n), "us");
    free(s);
    free(r);
    free(want);
  }
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
