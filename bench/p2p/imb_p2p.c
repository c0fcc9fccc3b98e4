/* The point-to-point patterns of the Intel MPI Benchmarks (IMB-MPI1
 * PingPong, PingPing, Sendrecv, Exchange), written again in plain MPI C so
 * that the same file builds against ringmpi, MPICH and Open MPI (IMB itself
 * is not installed here). What IMB does by default is kept: separate send
 * and receive buffers, receives from MPI_ANY_SOURCE with MPI_ANY_TAG (IMB's
 * select_source = select_tag = 0; -s names the source and tag instead),
 * 1000 iterations per size, fewer for large sizes (at most 40 MB moved per
 * sample), and the time of the slowest rank.
 *
 *   imb_p2p [-b pingpong|pingping|sendrecv|exchange|all] [-m maxlog]
 *           [-n minlog] [-r reps] [-s] [-l] [-k]
 *
 * Prints "benchmark size_bytes best_us median_us" per size: the time per
 * iteration (PingPong: half a round trip), best and median of -r samples.
 * With -k also the sizes halfway between powers of two (1.5 * 2^k), where
 * a protocol boundary may sit. With -l also rank 0's median time of a single iteration (a loaded
 * machine's descheduled ranks stretch some iterations; their median leaves
 * that out). Sizes 0 and 2^minlog .. 2^maxlog bytes (default 0..20). Meant for np 2;
 * Sendrecv and Exchange run on a ring of any size. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PINGPONG, PINGPING, SENDRECV, EXCHANGE, NBENCH };
static const char *NAMES[NBENCH] = {"PingPong", "PingPing", "Sendrecv", "Exchange"};
static const char *ARGS[NBENCH] = {"pingpong", "pingping", "sendrecv", "exchange"};

static int g_src_any = 1;

/* `iters` iterations; with `lap` non-null, each one's own time (seconds). */
static void run(int b, int rank, int np, char *sbuf, char *rbuf, int n, long iters, double *lap) {
  const int right = (rank + 1) % np, left = (rank + np - 1) % np;
  const int rtag = g_src_any ? MPI_ANY_TAG : 1;
  MPI_Request req[2];
  MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: GCC's -Wstringop-overflow misreads it with MPICH's header */
  for (long i = 0; i < iters; ++i) {
    const double t0 = lap ? MPI_Wtime() : 0;
    switch (b) {
      case PINGPONG:
        if (rank == 0) {
          MPI_Send(sbuf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
          MPI_Recv(rbuf, n, MPI_BYTE, g_src_any ? MPI_ANY_SOURCE : 1, rtag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
          MPI_Recv(rbuf, n, MPI_BYTE, g_src_any ? MPI_ANY_SOURCE : 0, rtag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(sbuf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
        break;
      case PINGPING:
        if (rank < 2) {
          const int peer = 1 - rank;
          MPI_Isend(sbuf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[0]);
          MPI_Recv(rbuf, n, MPI_BYTE, g_src_any ? MPI_ANY_SOURCE : peer, rtag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
        break;
      case SENDRECV:
        MPI_Sendrecv(sbuf, n, MPI_BYTE, right, 1, rbuf, n, MPI_BYTE, g_src_any ? MPI_ANY_SOURCE : left, rtag,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
      case EXCHANGE:
        MPI_Isend(sbuf, n, MPI_BYTE, right, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(sbuf + n, n, MPI_BYTE, left, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Recv(rbuf, n, MPI_BYTE, left, rtag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(rbuf + n, n, MPI_BYTE, right, rtag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, req, st);
        break;
    }
    if (lap) lap[i] = MPI_Wtime() - t0;
  }
}

static int cmp_sort(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int minlog = 0, maxlog = 20, reps = 5, which = -1, laps = 0, halves = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-b") && i + 1 < argc) {
      ++i;
      for (int b = 0; b < NBENCH; ++b)
        if (!strcmp(argv[i], ARGS[b])) which = b;
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      maxlog = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      minlog = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-k")) {
      halves = 1;
    } else if (!strcmp(argv[i], "-l")) {
      laps = 1;
    } else if (!strcmp(argv[i], "-s")) {
      g_src_any = 0;
    }
  }
  if (np < 2 || reps < 1 || reps > 100 || maxlog < 0 || maxlog > 26) {
    if (rank == 0) fprintf(stderr, "imb_p2p: needs np >= 2, 1 <= -r <= 100, 0 <= -m <= 26\n");
    MPI_Finalize();
    return 2;
  }
  const long max = 1L << maxlog;
  char *sbuf = malloc(2 * (size_t)max + 1), *rbuf = malloc(2 * (size_t)max + 1);
  if (!sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(sbuf, 'a' + rank, 2 * (size_t)max + 1);
  memset(rbuf, 0, 2 * (size_t)max + 1);
  double samples[100];
  double *lap = laps ? malloc(100 * 1000 * sizeof *lap) : NULL;
  if (laps && !lap) MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0)
    printf("# benchmark size_bytes best_us median_us%s (np %d)\n", laps ? " lap_median_us" : "", np);
  for (int b = 0; b < NBENCH; ++b) {
    if (which >= 0 && b != which) continue;
    for (long size = 0, pow = 0; size <= max;) {
      long iters = 1000;
      if (size > 0 && 40L * 1000 * 1000 / size < iters) iters = 40L * 1000 * 1000 / size;
      if (iters < 2) iters = 2;
      MPI_Barrier(MPI_COMM_WORLD);
      run(b, rank, np, sbuf, rbuf, (int)size, iters / 10 + 1, NULL); /* warm-up */
      for (int r = 0; r < reps; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        run(b, rank, np, sbuf, rbuf, (int)size, iters, lap ? lap + r * iters : NULL);
        double t = (MPI_Wtime() - t0) * 1e6 / (double)iters, tmax = 0;
        if (b == PINGPONG) t /= 2;
        if (b == PINGPONG || b == PINGPING) t = rank < 2 ? t : 0;
        MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        samples[r] = tmax;
      }
      qsort(samples, (size_t)reps, sizeof samples[0], cmp_sort);
      if (rank == 0) {
        printf("%s %ld %.3f %.3f", NAMES[b], size, samples[0], samples[reps / 2]);
        if (lap) {
          /* Rank 0's iterations one by one: on a loaded machine their median
           * leaves out the iterations a descheduled rank stretched. */
          const long all = reps * iters;
          qsort(lap, (size_t)all, sizeof lap[0], cmp_sort);
          printf(" %.3f", lap[all / 2] * 1e6 / (b == PINGPONG ? 2 : 1));
        }
        printf("\n");
      }
      fflush(stdout);
      /* Next: 2^minlog after 0, then powers of two (with -k also 1.5 times each). */
      if (size == 0) {
        pow = size = 1L << minlog;
      } else if (halves && size == pow && pow >= 4) {
        size = pow + pow / 2;
      } else {
        pow *= 2;
        size = pow;
      }
    }
  }
  free(lap);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
