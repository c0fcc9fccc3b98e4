/* Windowed streaming shared by bw, msgrate and bibw: a window of W
 * nonblocking sends (all from one buffer, allowed since MPI-3.0) meets W
 * posted receives into distinct slots (pending receives must not overlap),
 * and a zero-byte ack closes each window so the sender cannot run ahead. */
#ifndef RINGMPI_OSU_WINDOW_H
#define RINGMPI_OSU_WINDOW_H

#include "osu_common.h"

typedef struct {
  unsigned char *sbuf;  /* one message, sent W times */
  unsigned char *slots; /* W receive slots, back to back */
  MPI_Request *reqs;    /* 2 * max window */
} osu_bufs;

static inline osu_bufs osu_bufs_alloc(const osu_env *e, const char *name) {
  osu_bufs b;
  long slots = osu_slots_bytes(&e->o);
  b.sbuf = osu_alloc(e->o.max_size);
  osu_need(b.sbuf, name, e->rank, e->o.max_size);
  b.slots = osu_alloc(slots);
  osu_need(b.slots, name, e->rank, slots);
  b.reqs = malloc(sizeof(MPI_Request) * 2 * (size_t)e->o.window);
  osu_need(b.reqs, name, e->rank, (long)(sizeof(MPI_Request) * 2 * (size_t)e->o.window));
  return b;
}

static inline void osu_bufs_free(osu_bufs *b) {
  free(b->sbuf);
  free(b->slots);
  free(b->reqs);
}

/* One window in each direction that `bidir` asks for; with `check`, the
 * payload is filled and verified. Ranks 0 and 1 only. */
static inline void osu_window_once(const osu_env *e, const osu_bufs *b, long size, int w, int bidir, int check,
                                   const char *name) {
  const int peer = 1 - e->rank;
  const int sends = e->rank == 0 || bidir;
  const int recvs = e->rank == 1 || bidir;
  int n = 0;
  if (check && sends) osu_fill(b->sbuf, size, e->rank);
  if (recvs)
    for (int k = 0; k < w; ++k)
      MPI_Irecv(b->slots + (long)k * size, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &b->reqs[n++]);
  if (sends)
    for (int k = 0; k < w; ++k) MPI_Isend(b->sbuf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &b->reqs[n++]);
/* GCC >= 11 takes MPI_STATUSES_IGNORE (a dummy address in every MPI) for a
 * real MPI_Status[] of `n` elements and warns; nothing is written there. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
  MPI_Waitall(n, b->reqs, MPI_STATUSES_IGNORE);
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
  if (check && recvs)
    for (int k = 0; k < w; ++k) {
      long bad = osu_verify(b->slots + (long)k * size, size, peer);
      if (bad >= 0) osu_die(name, e->rank, "window slot carries wrong data", size, bad);
    }
  /* Rank 1 acks: the window is over on both sides when rank 0 sees it. */
  if (e->rank == 0)
    MPI_Recv(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else
    MPI_Send(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
}

/* A checked window, a timed warm-up, then -r batches of at most *iters
 * windows (fewer when a window is slow, see osu_calibrate; *iters is
 * updated); rank 0 gets the best and the mean batch time in seconds. */
static inline void osu_window_run(const osu_env *e, const osu_bufs *b, long size, int w, long *iters, int bidir,
                                  const char *name, double *best, double *mean) {
  *best = 1e300;
  *mean = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (e->rank > 1) return;
  osu_window_once(e, b, size, w, bidir, 1, name);
  const long warm = osu_warmups(*iters);
  double t0 = MPI_Wtime();
  for (long i = 0; i < warm; ++i) osu_window_once(e, b, size, w, bidir, 0, name);
  *iters = osu_calibrate(e, *iters, 2, (MPI_Wtime() - t0) / warm);
  for (int r = 0; r < e->o.reps; ++r) {
    t0 = MPI_Wtime();
    for (long i = 0; i < *iters; ++i) osu_window_once(e, b, size, w, bidir, 0, name);
    double t = MPI_Wtime() - t0;
    if (t < *best) *best = t;
    *mean += t / e->o.reps;
  }
}

#endif
