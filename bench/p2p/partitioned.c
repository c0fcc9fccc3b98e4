/* Partitioned communication (MPI-4.0 chapter 4), ranks 0 -> 1, in standard
 * MPI C (builds against any MPI-4 library):
 *
 *   partitioned [PARTS [BYTES_PER_PART [ITERS]]]     (defaults 8, 4096, 2000)
 *
 * Per epoch: both start; the sender readies every partition but the last;
 * the receiver polls MPI_Parrived on partition 0 until it says true or
 * EARLY_WAIT seconds (1 ms) have passed (early arrival: the last partition
 * is not readied yet, so a library that sends only once all partitions are
 * ready never says true here), then answers with a 1-int message; the
 * sender then takes t0 = MPI_Wtime() and readies the last partition; the
 * receiver takes t1 at its MPI_Wait's return. Printed: the median and the
 * minimum of t1 - t0 ("last MPI_Pready to the receiver's completion"; both
 * clocks are the node's), the fraction of epochs in which partition 0 had
 * arrived before the last was readied, and the median time from the
 * receiver's start to partition 0's arrival where it arrived early. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define EARLY_WAIT 1e-3

static int cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int parts = argc > 1 ? atoi(argv[1]) : 8;
  const int bytes = argc > 2 ? atoi(argv[2]) : 4096;
  const int iters = argc > 3 ? atoi(argv[3]) : 2000;
  if (size < 2 || parts < 2) {
    if (rank == 0) fprintf(stderr, "partitioned: needs 2 ranks and at least 2 partitions\n");
    MPI_Finalize();
    return 2;
  }
  char *buf = calloc((size_t)parts, (size_t)bytes);
  double *lat = calloc((size_t)iters, sizeof(double));
  double *arr = calloc((size_t)iters + 10, sizeof(double));
  int early_n = 0;
  MPI_Request r;
  int early = 0;
  if (rank == 0) MPI_Psend_init(buf, parts, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  if (rank == 1) MPI_Precv_init(buf, parts, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  for (int i = 0; i < iters + 10 && rank < 2; ++i) {
    int go = 0;
    double t0 = 0, t1;
    MPI_Start(&r);
    if (rank == 0) {
      MPI_Pready_range(0, parts - 2, r);
      MPI_Recv(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      t0 = MPI_Wtime();
      MPI_Pready(parts - 1, r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      MPI_Send(&t0, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    } else {
      int flag = 0, last = 0;
      const double ts = MPI_Wtime();
      while (!flag && MPI_Wtime() - ts < EARLY_WAIT) MPI_Parrived(r, 0, &flag);
      const double seen = MPI_Wtime() - ts;
      MPI_Parrived(r, parts - 1, &last);
      if (flag && !last) {
        if (i >= 10) arr[early_n++] = seen;
        early += 1;
      }
      MPI_Send(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      t1 = MPI_Wtime();
      MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (i >= 10) lat[i - 10] = t1 - t0;
    }
  }
  if (rank == 1) {
    qsort(lat, (size_t)iters, sizeof(double), cmp);
    qsort(arr, (size_t)early_n, sizeof(double), cmp);
    printf("partitioned parts %d bytes/part %d: last Pready -> receiver complete median %.3f us, min %.3f us; "
           "partition 0 early in %.2f of epochs (receiver's start -> partition 0 seen: median %.3f us)\n",
           parts, bytes, lat[iters / 2] * 1e6, lat[0] * 1e6, (double)early / (iters + 10),
           early_n ? arr[early_n / 2] * 1e6 : -1.0);
  }
  if (rank < 2) MPI_Request_free(&r);
  free(buf);
  free(lat);
  free(arr);
  MPI_Finalize();
  return 0;
}
