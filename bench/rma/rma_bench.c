/* One-sided communication speed, standard MPI C (run with 2 ranks; compare.py
 * builds it against MPICH and Open MPI too). Rank 0 is the origin, rank 1 the
 * target. Prints one line per figure: "<name> <bytes> <value> <unit>".
 *   put_lat_fence / get_lat_fence   one 8-byte op + MPI_Win_fence, per iteration (us)
 *   put_lat_flush / get_lat_flush   one 8-byte op + MPI_Win_flush under a shared lock (us)
 *   fop_lat                         MPI_Fetch_and_op + MPI_Win_flush (us)
 *   put_bw_flush / get_bw_flush     16 ops of `bytes` then a flush (MB/s)
 *   put_bw_fence / get_bw_fence     16 ops of `bytes` then a fence (MB/s)
 *   shm_ping                        half round trip through loads and stores on a
 *                                   MPI_Win_allocate_shared window (us)
 *   acc_lat_flush / put_lat_large   osu_acc_latency's figure: one MPI_Accumulate
 *                                   (MPI_DOUBLE, MPI_SUM) of `bytes` + MPI_Win_flush,
 *                                   and one MPI_Put of the same size + flush (us),
 *                                   at 64 KiB and 1 MiB
 * Options: -i ITERS (latency iterations, default 20000), -m MAXBYTES (4 MiB). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 16

static int rank;

static void report(const char* name, long bytes, double value, const char* unit) {
  if (rank == 0) printf("%s %ld %.3f %s\n", name, bytes, value, unit);
}

static double lat_fence(MPI_Win win, int iters, int get) {
  long long v = 1;
  MPI_Win_fence(0, win);
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i) {
    if (rank == 0) {
      if (get)
        MPI_Get(&v, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
      else
        MPI_Put(&v, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
    }
    MPI_Win_fence(0, win);
  }
  return (MPI_Wtime() - t0) * 1e6 / iters;
}

static double lat_flush(MPI_Win win, int iters, int kind) {
  long long v = 1, r;
  double us = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (kind == 0) MPI_Put(&v, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
      if (kind == 1) MPI_Get(&v, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
      if (kind == 2) MPI_Fetch_and_op(&v, &r, MPI_LONG_LONG, 1, 0, MPI_SUM, win);
      MPI_Win_flush(1, win);
    }
    us = (MPI_Wtime() - t0) * 1e6 / iters;
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return us;
}

static double bw(MPI_Win win, char* buf, long bytes, int iters, int get, int fence) {
  double t0 = 0, t = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (fence) {
    MPI_Win_fence(0, win);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (rank == 0)
        for (int w = 0; w < WINDOW; ++w) {
          if (get)
            MPI_Get(buf, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
          else
            MPI_Put(buf, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
        }
      MPI_Win_fence(0, win);
    }
    t = MPI_Wtime() - t0;
  } else if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      for (int w = 0; w < WINDOW; ++w) {
        if (get)
          MPI_Get(buf, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
        else
          MPI_Put(buf, (int)bytes, MPI_BYTE, 1, 0, (int)bytes, MPI_BYTE, win);
      }
      MPI_Win_flush(1, win);
    }
    t = MPI_Wtime() - t0;
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return t > 0 ? (double)bytes * WINDOW * iters / t / 1e6 : 0;
}

/* One accumulate (or put) of `bytes` of doubles + a flush, per iteration (us). */
static double lat_large(MPI_Win win, double* buf, long bytes, int iters, int acc) {
  const int n = (int)(bytes / sizeof(double));
  double us = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) {
      if (acc)
        MPI_Accumulate(buf, n, MPI_DOUBLE, 1, 0, n, MPI_DOUBLE, MPI_SUM, win);
      else
        MPI_Put(buf, n, MPI_DOUBLE, 1, 0, n, MPI_DOUBLE, win);
      MPI_Win_flush(1, win);
    }
    us = (MPI_Wtime() - t0) * 1e6 / iters;
    MPI_Win_unlock(1, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return us;
}

static double shm_ping(int iters) {
  MPI_Win win;
  volatile long long* mine;
  MPI_Win_allocate_shared(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, (void*)&mine, &win);
  MPI_Aint sz;
  int du;
  long long* word;
  MPI_Win_shared_query(win, 0, &sz, &du, &word);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  if (rank == 0) *word = 0;
  MPI_Win_sync(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(win);
  double t0 = MPI_Wtime();
  for (long long i = 0; i < iters; ++i) {
    const long long want = 2 * i + rank;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != want) {
    }
    __atomic_store_n(word, want + 1, __ATOMIC_RELEASE);
  }
  double us = (MPI_Wtime() - t0) * 1e6 / iters / 2;
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  return us;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = 20000;
  long maxbytes = 4L << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-i")) iters = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "-m")) maxbytes = atol(argv[i + 1]);
  }
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "rma_bench: run with 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  char* mem;
  MPI_Win win;
  MPI_Win_allocate(maxbytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  memset(mem, 0, maxbytes);
  char* buf = malloc(maxbytes);
  memset(buf, 1, maxbytes);
  lat_fence(win, iters / 10, 0); /* warm-up */
  report("put_lat_fence", 8, lat_fence(win, iters, 0), "us");
  report("get_lat_fence", 8, lat_fence(win, iters, 1), "us");
  report("put_lat_flush", 8, lat_flush(win, iters, 0), "us");
  report("get_lat_flush", 8, lat_flush(win, iters, 1), "us");
  report("fop_lat", 8, lat_flush(win, iters, 2), "us");
  for (long b = 8; b <= maxbytes; b *= 8) {
    int it = (int)(((64L << 20) / (b * WINDOW)) + 1);
    if (it > 200) it = 200;
    report("put_bw_flush", b, bw(win, buf, b, it, 0, 0), "MB/s");
    report("get_bw_flush", b, bw(win, buf, b, it, 1, 0), "MB/s");
    report("put_bw_fence", b, bw(win, buf, b, it, 0, 1), "MB/s");
    report("get_bw_fence", b, bw(win, buf, b, it, 1, 1), "MB/s");
  }
  for (long b = 64L << 10; b <= (1L << 20) && b <= maxbytes; b *= 16) {
    int it = (int)((256L << 20) / b);
    if (it > iters) it = iters;
    memset(buf, 0, b); /* doubles of value 0: the sums stay finite */
    lat_large(win, (double*)buf, b, it / 10 + 1, 1); /* warm-up */
    report("acc_lat_flush", b, lat_large(win, (double*)buf, b, it, 1), "us");
    report("put_lat_large", b, lat_large(win, (double*)buf, b, it, 0), "us");
  }
  MPI_Win_free(&win);
  free(buf);
  report("shm_ping", 8, shm_ping(iters), "us");
  MPI_Finalize();
  return 0;
}
