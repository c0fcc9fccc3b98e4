/* Deterministic randomized stress test of the collective engine.
 *
 * A fixed-seed PRNG (the same sequence on every rank, reseeded from a
 * constant plus the step number) picks, for each of 600-1000 steps:
 * a communicator (MPI_COMM_WORLD, a dup, a split into two halves with the
 * rank order reversed, a dup made after a third of the steps ran and
 * replaced after two thirds, freed and made with collectives pending), a
 * collective (Bcast, Scatter(v), Gather(v), Allgather(v), Alltoall(v),
 * Reduce, Allreduce, Reduce_scatter_block, Scan, Exscan, Barrier), blocking
 * or nonblocking, a count (0, 1, 7, 1000, 10000 or 40000 ints per block:
 * slot rings, the >= 32 KiB rooted by-address path and past half a slot),
 * a root, MPI_IN_PLACE where the standard allows it, and for the movement
 * collectives a layout chosen per rank and per side (type signatures still
 * match): contiguous ints, strided (MPI_Type_vector stride 2) or reversed (an
 * indexed block type whose type map runs backwards through memory). Reductions use MPI_SUM on int or
 * a non-commutative user operation (the 3x3 unit upper triangular integer
 * matrices, the Heisenberg group: (a,b,c)(a',b',c') = (a+a', b+b', c+c'+ab')),
 * whose result shows the order the contributions were combined in.
 *
 * Nonblocking collectives stay outstanding in a window of up to 16 requests
 * (and ~40 MB of buffers) and are completed in an order drawn per rank
 * (MPI_Wait, Waitall, Waitany, Test, Testany, Testsome, Testall), so blocking
 * collectives on the same and other communicators (and now and then a
 * point-to-point ring exchange) run while they are in flight. Bursts of
 * 70-150 small rooted collectives let the members that need nobody run past
 * the slot rings' depth; ranks lag behind at random (usleep, sched_yield).
 * The dups and the split are freed at the end with collectives pending.
 *
 * Every buffer is allocated with a guard zone. After completion the send
 * buffer must be unchanged, and the receive buffer (gaps between strided
 * elements and v-form blocks, and the guard, included) must equal an image
 * computed locally (values from val(step, owner, dest, index); reductions
 * folded in rank order); then both are scribbled over before being freed,
 * so a reader still copying from a completed operation's buffer shows.
 *
 * On a mismatch the failing step is described (rank, step, operation, count,
 * root, layout) and the job aborts. Arguments (optional): steps (default
 * 1000, 600 above 4 ranks), seed, window size (default 16, at most 128).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define WINDOW_MAX 128 /* the window: 16 requests unless the third argument says */
#define GUARD 16
#define SENT ((int)0xdeadbeefu) /* negative: values are always >= 0 */
#define BUDGET ((size_t)40 << 20)

enum {
  K_BCAST,
  K_SCATTER,
  K_SCATTERV,
  K_GATHER,
  K_GATHERV,
  K_ALLGATHER,
  K_ALLGATHERV,
  K_ALLTOALL,
  K_ALLTOALLV,
  K_REDUCE,
  K_ALLREDUCE,
  K_RSB,
  K_SCAN,
  K_EXSCAN,
  K_BARRIER,
  K_COUNT
};
static const char *const kname[K_COUNT] = {
    "bcast",     "scatter", "scatterv",  "gather",               "gatherv",
    "allgather", "allgatherv", "alltoall", "alltoallv",           "reduce",
    "allreduce", "reduce_scatter_block",   "scan",                "exscan",
    "barrier"};

/* Counts (ints per block; elements for reductions) and their weights. */
static const int kCounts[] = {0, 1, 7, 1000, 10000, 40000};
static const int kWeights[] = {2, 3, 3, 3, 2, 2};
#define NCOUNTS 6

static const char *const kCommName[4] = {"world", "dup", "half", "late_dup"};

/* ---- PRNG: xorshift64* ---- */
static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z ? z : 1;
}
static uint64_t rng_next(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x * 0x2545F4914F6CDD1Dull;
}
static unsigned rnd(uint64_t *s, unsigned n) { return (unsigned)((rng_next(s) >> 32) % n); }

/* The value element i of the block that owner sends to dest (-1: to all). */
static int val(int step, int owner, int dest, int i) {
  uint32_t h = (uint32_t)step * 0x9E3779B1u;
  h ^= (uint32_t)(owner + 3) * 0x85EBCA6Bu;
  h = (h << 13) | (h >> 19);
  h ^= (uint32_t)(dest + 5) * 0xC2B2AE35u;
  h = (h << 11) | (h >> 21);
  h += (uint32_t)i * 0x27D4EB2Fu;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return (int)(h & 0x3fffffff);
}

/* ---- the non-commutative user operation: inout = in * inout ---- */
static void heis_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const int *a = in;
  int *b = inout;
  for (int k = 0; k < *len; ++k, a += 3, b += 3) {
    const int c = a[2] + b[2] + a[0] * b[1];
    b[0] += a[0];
    b[1] += a[1];
    b[2] = c;
  }
}

static MPI_Datatype g_heis_type;
static MPI_Op g_heis_op;
static MPI_Datatype g_vec[NCOUNTS]; /* MPI_Type_vector(n, 1, 2, MPI_INT) */
static MPI_Datatype g_rev[NCOUNTS]; /* n ints in reverse memory order (indexed block) */

/* A block layout: the MPI type and count describing n ints, and where int i
 * of block b lies in the buffer: b * span + i * stride, or
 * b * span + (n - 1 - i) for the reversed one (stride -1). */
typedef struct {
  MPI_Datatype t;
  int cnt, stride, span;
} Lay;

/* kind: 0 contiguous, 1 strided, 2 reversed (type map order opposite to
 * memory order), 3 strided. */
static Lay lay(int kind, int ci) {
  const int n = kCounts[ci];
  Lay l;
  if (kind % 2 == 1 && n > 0) {
    l.t = g_vec[ci];
    l.cnt = 1;
    l.stride = 2;
    l.span = 2 * n - 1;
  } else if (kind == 2 && n > 1) {
    l.t = g_rev[ci];
    l.cnt = 1;
    l.stride = -1;
    l.span = n;
  } else {
    l.t = MPI_INT;
    l.cnt = n;
    l.stride = 1;
    l.span = n;
  }
  return l;
}
static const char *lay_name(const Lay *l) {
  return l->stride == 2 ? "strided" : l->stride == -1 ? "reversed" : "contiguous";
}

typedef struct {
  int kind, step, nb, ip, root, n, ci, heis, e; /* e: ints per reduction element */
  int sub;                                      /* index in a burst */
  int comm_index;
  MPI_Comm comm;
  int P, me;
  Lay sl, rl;
  int has_s, has_r;
  size_t sn, rn; /* ints in the send / receive buffers (without the guard) */
  int *sbuf, *rbuf;
  int sc, rc; /* v-forms: my own send / receive count */
  int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Request req;
  size_t bytes;
  char desc[256];
} Op;

static int g_wrank;

/* v-form block sizes: 0, 1..7, n or n/2. */
static int vcnt(int step, int a, int b, int n) {
  const uint32_t h = (uint32_t)val(step, a + 100, b + 100, 77);
  switch (h % 4) {
    case 0:
      return 0;
    case 1:
      return 1 + (int)((h >> 3) % 7);
    case 2:
      return n;
    default:
      return n / 2;
  }
}

static void put_block(int *img, const Lay *l, int b, int n, int step, int owner, int dest) {
  int *p = img + (size_t)b * (size_t)l->span;
  if (l->stride < 0)
    for (int i = 0; i < n; ++i) p[n - 1 - i] = val(step, owner, dest, i);
  else
    for (int i = 0; i < n; ++i) p[(size_t)i * (size_t)l->stride] = val(step, owner, dest, i);
}
static void put_v(int *img, int displ, int cnt, int step, int owner, int dest) {
  for (int i = 0; i < cnt; ++i) img[(size_t)displ + (size_t)i] = val(step, owner, dest, i);
}

static void contrib(const Op *o, int r, int j, int x[3]) {
  const int v = val(o->step, r, -1, j);
  if (!o->heis) {
    x[0] = v & 0xffff;
  } else {
    x[0] = v & 15;
    x[1] = (v >> 4) & 15;
    x[2] = (v >> 8) & 15;
  }
}
/* Contributions of rank r, elements j0 .. j0+cnt-1. */
static void put_contrib(int *img, const Op *o, int r, int j0, int cnt) {
  int x[3];
  for (int i = 0; i < cnt; ++i) {
    contrib(o, r, j0 + i, x);
    memcpy(img + (size_t)i * (size_t)o->e, x, sizeof(int) * (size_t)o->e);
  }
}
/* The fold, in rank order, of ranks rlo .. rhi-1 on elements j0 .. j0+cnt-1. */
static void put_fold(int *img, const Op *o, int rlo, int rhi, int j0, int cnt) {
  int x[3], acc[3];
  for (int i = 0; i < cnt; ++i) {
    contrib(o, rlo, j0 + i, acc);
    for (int r = rlo + 1; r < rhi; ++r) {
      contrib(o, r, j0 + i, x);
      if (!o->heis) {
        acc[0] += x[0];
      } else {
        acc[2] += x[2] + acc[0] * x[1];
        acc[0] += x[0];
        acc[1] += x[1];
      }
    }
    memcpy(img + (size_t)i * (size_t)o->e, acc, sizeof(int) * (size_t)o->e);
  }
}

enum { G_SEND, G_RINIT, G_REXP };

/* Writes into img (prefilled with SENT) the send buffer, the receive
 * buffer's initial contents, or its expected contents after completion
 * (positions whose value the standard leaves undefined are copied from
 * actual). */
static void gen(const Op *o, int which, int *img, const int *actual) {
  const int P = o->P, me = o->me, R = o->root, n = o->n, s = o->step;
  switch (o->kind) {
    case K_BCAST:
      if (which == G_REXP || (which == G_RINIT && me == R)) put_block(img, &o->rl, 0, n, s, R, -1);
      break;
    case K_SCATTER:
      if (which == G_SEND)
        for (int b = 0; b < P; ++b) put_block(img, &o->sl, b, n, s, R, b);
      else if (which == G_REXP)
        put_block(img, &o->rl, 0, n, s, R, me);
      break;
    case K_GATHER:
    case K_ALLGATHER: {
      const int dest = o->kind == K_GATHER ? R : -1;
      if (which == G_SEND)
        put_block(img, &o->sl, 0, n, s, me, dest);
      else if (which == G_RINIT) {
        if (o->ip) put_block(img, &o->rl, me, n, s, me, dest);
      } else {
        for (int b = 0; b < P; ++b) put_block(img, &o->rl, b, n, s, b, dest);
      }
      break;
    }
    case K_ALLTOALL:
      if (which == G_SEND) {
        for (int b = 0; b < P; ++b) put_block(img, &o->sl, b, n, s, me, b);
      } else if (which == G_RINIT) {
        if (o->ip)
          for (int b = 0; b < P; ++b) put_block(img, &o->rl, b, n, s, me, b);
      } else {
        for (int b = 0; b < P; ++b) put_block(img, &o->rl, b, n, s, b, me);
      }
      break;
    case K_SCATTERV:
      if (which == G_SEND)
        for (int b = 0; b < P; ++b) put_v(img, o->sdispls[b], o->scounts[b], s, R, b);
      else if (which == G_REXP)
        put_v(img, 0, o->rc, s, R, me);
      break;
    case K_GATHERV:
    case K_ALLGATHERV: {
      const int dest = o->kind == K_GATHERV ? R : -1;
      if (which == G_SEND)
        put_v(img, 0, o->sc, s, me, dest);
      else if (which == G_RINIT) {
        if (o->ip) put_v(img, o->rdispls[me], o->rcounts[me], s, me, dest);
      } else {
        for (int b = 0; b < P; ++b) put_v(img, o->rdispls[b], o->rcounts[b], s, b, dest);
      }
      break;
    }
    case K_ALLTOALLV:
      if (which == G_SEND) {
        for (int b = 0; b < P; ++b) put_v(img, o->sdispls[b], o->scounts[b], s, me, b);
      } else if (which == G_RINIT) {
        if (o->ip)
          for (int b = 0; b < P; ++b) put_v(img, o->rdispls[b], o->rcounts[b], s, me, b);
      } else {
        for (int b = 0; b < P; ++b) put_v(img, o->rdispls[b], o->rcounts[b], s, b, me);
      }
      break;
    case K_REDUCE:
    case K_ALLREDUCE:
    case K_SCAN:
    case K_EXSCAN:
      if (which == G_SEND || (which == G_RINIT && o->ip)) {
        put_contrib(img, o, me, 0, n);
      } else if (which == G_REXP) {
        if (o->kind == K_SCAN)
          put_fold(img, o, 0, me + 1, 0, n);
        else if (o->kind != K_EXSCAN)
          put_fold(img, o, 0, P, 0, n);
        else if (me > 0)
          put_fold(img, o, 0, me, 0, n);
        else if (o->ip) /* MPI-3.1 5.11.2: in place, rank 0's buffer is not changed */
          put_contrib(img, o, me, 0, n);
        else
          memcpy(img, actual, sizeof(int) * (size_t)n * (size_t)o->e); /* undefined at rank 0 */
      }
      break;
    case K_RSB:
      if (which == G_SEND || (which == G_RINIT && o->ip)) {
        put_contrib(img, o, me, 0, P * n);
      } else if (which == G_REXP) {
        put_fold(img, o, 0, P, me * n, n);
        if (o->ip) /* the rest of the in-place buffer: undefined */
          memcpy(img + (size_t)n * (size_t)o->e, actual + (size_t)n * (size_t)o->e,
                 sizeof(int) * (size_t)(P - 1) * (size_t)n * (size_t)o->e);
      }
      break;
    default:
      break;
  }
}

static int *alloc_ints(size_t n) {
  int *p = malloc(sizeof(int) * (n + GUARD));
  CHECK(p != NULL);
  for (size_t i = 0; i < n + GUARD; ++i) p[i] = SENT;
  return p;
}

/* Reverse rank order with a gap of `gap` ints between blocks. */
static size_t displs_reverse(int P, const int *counts, int *displs, int gap) {
  size_t off = 0;
  for (int b = P - 1; b >= 0; --b) {
    displs[b] = (int)off;
    off += (size_t)counts[b] + (size_t)gap;
  }
  return off;
}
static size_t displs_forward(int P, const int *counts, int *displs, int gap) {
  size_t off = 1;
  for (int b = 0; b < P; ++b) {
    displs[b] = (int)off;
    off += (size_t)counts[b] + (size_t)gap;
  }
  return off;
}

static Op *make_op(int step, int sub, int comm_index, MPI_Comm comm, int kind, int nb, int ci, int root_draw, int ip,
                   int heis, unsigned smask, unsigned rmask) {
  Op *o = calloc(1, sizeof *o);
  CHECK(o != NULL);
  o->kind = kind;
  o->step = step * 1024 + sub; /* what the values derive from */
  o->nb = nb;
  o->ci = ci;
  o->n = kCounts[ci];
  o->comm_index = comm_index;
  o->comm = comm;
  o->req = MPI_REQUEST_NULL;
  MPI_Comm_size(comm, &o->P);
  MPI_Comm_rank(comm, &o->me);
  const int P = o->P, me = o->me, n = o->n;
  step = o->step;
  o->sub = sub;
  o->root = root_draw % P;
  const int R = o->root;
  o->sl = lay((int)(smask >> (2 * me % 30)) & 3, ci);
  o->rl = lay((int)(rmask >> (2 * me % 30)) & 3, ci);
  o->heis = heis;
  o->e = heis ? 3 : 1;
  o->scounts = calloc((size_t)P, sizeof(int));
  o->sdispls = calloc((size_t)P, sizeof(int));
  o->rcounts = calloc((size_t)P, sizeof(int));
  o->rdispls = calloc((size_t)P, sizeof(int));
  CHECK(o->scounts && o->sdispls && o->rcounts && o->rdispls);
  /* MPI_IN_PLACE only where the standard allows it (not bcast). */
  if (kind == K_BCAST || kind == K_BARRIER) ip = 0;
  o->ip = ip;
  const int root_ip = ip && me == R;
  switch (kind) {
    case K_BCAST:
      o->has_r = 1;
      o->rn = (size_t)o->rl.span;
      break;
    case K_SCATTER:
      o->has_s = me == R;
      o->sn = (size_t)P * (size_t)o->sl.span;
      o->has_r = !root_ip;
      o->rn = (size_t)o->rl.span;
      break;
    case K_GATHER:
      o->has_s = !root_ip;
      o->sn = (size_t)o->sl.span;
      o->has_r = me == R;
      o->rn = (size_t)P * (size_t)o->rl.span;
      break;
    case K_ALLGATHER:
      o->has_s = !ip;
      o->sn = (size_t)o->sl.span;
      o->has_r = 1;
      o->rn = (size_t)P * (size_t)o->rl.span;
      break;
    case K_ALLTOALL:
      o->has_s = !ip;
      o->sn = (size_t)P * (size_t)o->sl.span;
      o->has_r = 1;
      o->rn = (size_t)P * (size_t)o->rl.span;
      break;
    case K_SCATTERV:
      if (me == R) {
        for (int b = 0; b < P; ++b) o->scounts[b] = vcnt(step, R, b, n);
        o->sn = displs_reverse(P, o->scounts, o->sdispls, 2);
        o->has_s = 1;
      }
      o->rc = vcnt(step, R, me, n);
      o->has_r = !root_ip;
      o->rn = (size_t)o->rc;
      break;
    case K_GATHERV:
      o->sc = vcnt(step, me, R, n);
      o->has_s = !root_ip;
      o->sn = (size_t)o->sc;
      if (me == R) {
        for (int b = 0; b < P; ++b) o->rcounts[b] = vcnt(step, b, R, n);
        o->rn = displs_reverse(P, o->rcounts, o->rdispls, 2);
        o->has_r = 1;
      }
      break;
    case K_ALLGATHERV:
      o->sc = vcnt(step, me, -1, n);
      o->has_s = !ip;
      o->sn = (size_t)o->sc;
      for (int b = 0; b < P; ++b) o->rcounts[b] = vcnt(step, b, -1, n);
      o->rn = displs_reverse(P, o->rcounts, o->rdispls, 2);
      o->has_r = 1;
      break;
    case K_ALLTOALLV:
      /* In place needs the same count both ways between each pair. */
      for (int b = 0; b < P; ++b) {
        o->scounts[b] = ip ? vcnt(step, me < b ? me : b, me < b ? b : me, n) : vcnt(step, me, b, n);
        o->rcounts[b] = ip ? o->scounts[b] : vcnt(step, b, me, n);
      }
      o->sn = displs_forward(P, o->scounts, o->sdispls, 1);
      o->has_s = !ip;
      o->rn = displs_reverse(P, o->rcounts, o->rdispls, 2);
      o->has_r = 1;
      break;
    case K_REDUCE:
      o->has_s = !root_ip;
      o->sn = (size_t)n * (size_t)o->e;
      o->has_r = me == R;
      o->rn = (size_t)n * (size_t)o->e;
      break;
    case K_ALLREDUCE:
    case K_SCAN:
    case K_EXSCAN:
      o->has_s = !ip;
      o->sn = (size_t)n * (size_t)o->e;
      o->has_r = 1;
      o->rn = (size_t)n * (size_t)o->e;
      break;
    case K_RSB:
      o->has_s = !ip;
      o->sn = (size_t)P * (size_t)n * (size_t)o->e;
      o->has_r = 1;
      o->rn = (ip ? (size_t)P : 1u) * (size_t)n * (size_t)o->e;
      break;
    default:
      break;
  }
  if (!o->has_s) o->sn = 0;
  if (!o->has_r) o->rn = 0;
  if (o->has_s) {
    o->sbuf = alloc_ints(o->sn);
    gen(o, G_SEND, o->sbuf, NULL);
  }
  if (o->has_r) {
    o->rbuf = alloc_ints(o->rn);
    gen(o, G_RINIT, o->rbuf, NULL);
  }
  o->bytes = sizeof(int) * (o->sn + o->rn + 2 * GUARD) + 4 * sizeof(int) * (size_t)P + sizeof *o;
  const int layouts = kind == K_BCAST || kind == K_SCATTER || kind == K_GATHER || kind == K_ALLGATHER ||
                      kind == K_ALLTOALL;
  snprintf(o->desc, sizeof o->desc,
           "step %d.%d %s%s on %s (size %d, rank %d) count %d root %d in_place %d%s%s%s%s%s",
           step / 1024, sub, nb ? "i" : "", kname[kind], kCommName[comm_index], P, me, n, R, ip,
           (kind >= K_REDUCE && kind <= K_EXSCAN) ? (heis ? " op heisenberg" : " op sum") : "",
           layouts ? " send " : "", layouts ? lay_name(&o->sl) : "", layouts ? " recv " : "",
           layouts ? lay_name(&o->rl) : "");
  return o;
}

static void start_op(Op *o) {
  const int R = o->root, n = o->n;
  const MPI_Comm c = o->comm;
  MPI_Request *q = &o->req;
  void *sb = o->has_s ? (void *)o->sbuf : NULL;
  void *rb = o->has_r ? (void *)o->rbuf : NULL;
  const int root_ip = o->ip && o->me == R;
  switch (o->kind) {
    case K_SCATTER:
    case K_SCATTERV:
      if (root_ip) rb = MPI_IN_PLACE;
      break;
    case K_GATHER:
    case K_GATHERV:
    case K_REDUCE:
      if (root_ip) sb = MPI_IN_PLACE;
      break;
    default:
      if (o->ip) sb = MPI_IN_PLACE;
  }
  const MPI_Datatype et = o->heis ? g_heis_type : MPI_INT;
  const MPI_Op op = o->heis ? g_heis_op : MPI_SUM;
  const Lay *sl = &o->sl, *rl = &o->rl;
  int rc = MPI_SUCCESS;
#define GO(blocking, nonblocking) rc = o->nb ? (nonblocking) : (blocking)
  switch (o->kind) {
    case K_BCAST:
      GO(MPI_Bcast(rb, rl->cnt, rl->t, R, c), MPI_Ibcast(rb, rl->cnt, rl->t, R, c, q));
      break;
    case K_SCATTER:
      GO(MPI_Scatter(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, R, c),
         MPI_Iscatter(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, R, c, q));
      break;
    case K_GATHER:
      GO(MPI_Gather(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, R, c),
         MPI_Igather(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, R, c, q));
      break;
    case K_ALLGATHER:
      GO(MPI_Allgather(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, c),
         MPI_Iallgather(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, c, q));
      break;
    case K_ALLTOALL:
      GO(MPI_Alltoall(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, c),
         MPI_Ialltoall(sb, sl->cnt, sl->t, rb, rl->cnt, rl->t, c, q));
      break;
    case K_SCATTERV:
      GO(MPI_Scatterv(sb, o->scounts, o->sdispls, MPI_INT, rb, o->rc, MPI_INT, R, c),
         MPI_Iscatterv(sb, o->scounts, o->sdispls, MPI_INT, rb, o->rc, MPI_INT, R, c, q));
      break;
    case K_GATHERV:
      GO(MPI_Gatherv(sb, o->sc, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, R, c),
         MPI_Igatherv(sb, o->sc, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, R, c, q));
      break;
    case K_ALLGATHERV:
      GO(MPI_Allgatherv(sb, o->sc, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, c),
         MPI_Iallgatherv(sb, o->sc, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, c, q));
      break;
    case K_ALLTOALLV:
      GO(MPI_Alltoallv(sb, o->scounts, o->sdispls, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, c),
         MPI_Ialltoallv(sb, o->scounts, o->sdispls, MPI_INT, rb, o->rcounts, o->rdispls, MPI_INT, c, q));
      break;
    case K_REDUCE:
      GO(MPI_Reduce(sb, rb, n, et, op, R, c), MPI_Ireduce(sb, rb, n, et, op, R, c, q));
      break;
    case K_ALLREDUCE:
      GO(MPI_Allreduce(sb, rb, n, et, op, c), MPI_Iallreduce(sb, rb, n, et, op, c, q));
      break;
    case K_RSB:
      GO(MPI_Reduce_scatter_block(sb, rb, n, et, op, c), MPI_Ireduce_scatter_block(sb, rb, n, et, op, c, q));
      break;
    case K_SCAN:
      GO(MPI_Scan(sb, rb, n, et, op, c), MPI_Iscan(sb, rb, n, et, op, c, q));
      break;
    case K_EXSCAN:
      GO(MPI_Exscan(sb, rb, n, et, op, c), MPI_Iexscan(sb, rb, n, et, op, c, q));
      break;
    case K_BARRIER:
      GO(MPI_Barrier(c), MPI_Ibarrier(c, q));
      break;
    default:
      break;
  }
#undef GO
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "coll_random: world rank %d: %s returned %d\n", g_wrank, o->desc, rc);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  if (o->nb) CHECK(o->req != MPI_REQUEST_NULL);
}

static void compare(const Op *o, const char *what, const int *got, const int *want, size_t len) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < len; ++i)
    if (got[i] != want[i]) {
      if (!bad) first = i;
      ++bad;
    }
  if (!bad) return;
  fprintf(stderr,
          "coll_random: MISMATCH on world rank %d: %s: %s buffer (%zu ints + %d guard): %zu wrong, first at "
          "index %zu: got %d expected %d\n",
          g_wrank, o->desc, what, len - GUARD, GUARD, bad, first, got[first], want[first]);
  for (size_t i = first, shown = 0; i < len && shown < 8; ++i)
    if (got[i] != want[i]) {
      fprintf(stderr, "  [%zu] got %d expected %d\n", i, got[i], want[i]);
      ++shown;
    }
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void check_op(const Op *o) {
  const size_t len = (o->sn > o->rn ? o->sn : o->rn) + GUARD;
  int *img = malloc(sizeof(int) * len);
  CHECK(img != NULL);
  if (o->has_s) {
    for (size_t i = 0; i < len; ++i) img[i] = SENT;
    gen(o, G_SEND, img, NULL);
    compare(o, "send", o->sbuf, img, o->sn + GUARD);
  }
  if (o->has_r) {
    for (size_t i = 0; i < len; ++i) img[i] = SENT;
    gen(o, G_REXP, img, o->rbuf);
    compare(o, "receive", o->rbuf, img, o->rn + GUARD);
  }
  free(img);
}

/* After the check: scribble over both buffers before freeing them, so that
 * a reader still copying from them (a request completed too early) reads
 * garbage. */
static void free_op(Op *o) {
  if (o->sbuf) memset(o->sbuf, 0xA5, sizeof(int) * o->sn);
  if (o->rbuf) memset(o->rbuf, 0x5A, sizeof(int) * o->rn);
  free(o->sbuf);
  free(o->rbuf);
  free(o->scounts);
  free(o->sdispls);
  free(o->rcounts);
  free(o->rdispls);
  free(o);
}

/* ---- the window of outstanding nonblocking collectives ---- */
static Op *g_win[WINDOW_MAX];
static int g_nwin, g_window = 16;
static size_t g_winbytes;
static long g_completions[7];

/* Checks and drops every completed entry (highest index first, so the
 * swap-remove only moves entries already looked at). */
static void sweep(void) {
  for (int k = g_nwin - 1; k >= 0; --k) {
    Op *o = g_win[k];
    if (o->req != MPI_REQUEST_NULL) continue;
    check_op(o);
    g_winbytes -= o->bytes;
    free_op(o);
    g_win[k] = g_win[--g_nwin];
  }
}

/* Completes at least one outstanding request (all of them when all is set),
 * by a method drawn from the rank's own generator. */
static void complete(uint64_t *lr, int all) {
  while (g_nwin > 0) {
    MPI_Request r[WINDOW_MAX];
    const int method = (int)rnd(lr, 7);
    ++g_completions[method];
    const int k = (int)rnd(lr, (unsigned)g_nwin);
    switch (method) {
      case 0: /* MPI_Wait on one */
        CHECK_MPI(MPI_Wait(&g_win[k]->req, MPI_STATUS_IGNORE));
        break;
      case 1: /* MPI_Waitall */
        for (int i = 0; i < g_nwin; ++i) r[i] = g_win[i]->req;
        CHECK_MPI(MPI_Waitall(g_nwin, r, MPI_STATUSES_IGNORE));
        for (int i = 0; i < g_nwin; ++i) g_win[i]->req = r[i];
        break;
      case 2: { /* MPI_Waitany */
        int idx = MPI_UNDEFINED;
        for (int i = 0; i < g_nwin; ++i) r[i] = g_win[i]->req;
        CHECK_MPI(MPI_Waitany(g_nwin, r, &idx, MPI_STATUS_IGNORE));
        CHECK(idx >= 0 && idx < g_nwin && r[idx] == MPI_REQUEST_NULL);
        for (int i = 0; i < g_nwin; ++i) g_win[i]->req = r[i];
        break;
      }
      case 3: { /* MPI_Test loop on one */
        int flag = 0;
        while (!flag) CHECK_MPI(MPI_Test(&g_win[k]->req, &flag, MPI_STATUS_IGNORE));
        break;
      }
      case 4: { /* MPI_Testany loop */
        int flag = 0, idx = MPI_UNDEFINED;
        for (int i = 0; i < g_nwin; ++i) r[i] = g_win[i]->req;
        while (!flag) CHECK_MPI(MPI_Testany(g_nwin, r, &idx, &flag, MPI_STATUS_IGNORE));
        CHECK(idx >= 0 && idx < g_nwin && r[idx] == MPI_REQUEST_NULL);
        for (int i = 0; i < g_nwin; ++i) g_win[i]->req = r[i];
        break;
      }
      case 5: { /* MPI_Testsome loop */
        int out = 0, idx[WINDOW_MAX];
        for (int i = 0; i < g_nwin; ++i) r[i] = g_win[i]->req;
        while (out == 0) CHECK_MPI(MPI_Testsome(g_nwin, r, &out, idx, MPI_STATUSES_IGNORE));
        CHECK(out > 0 && out <= g_nwin);
        for (int i = 0; i < g_nwin; ++i) g_win[i]->req = r[i];
        break;
      }
      default: { /* MPI_Testall loop */
        int flag = 0;
        for (int i = 0; i < g_nwin; ++i) r[i] = g_win[i]->req;
        while (!flag) CHECK_MPI(MPI_Testall(g_nwin, r, &flag, MPI_STATUSES_IGNORE));
        for (int i = 0; i < g_nwin; ++i) g_win[i]->req = r[i];
        break;
      }
    }
    sweep();
    if (!all) return;
  }
}

/* Runs a blocking collective and checks it, or starts a nonblocking one
 * into the window (completing older ones first where it is full). */
static void run_op(Op *o, uint64_t *local) {
  if (o->nb) {
    while (g_nwin == g_window || (g_nwin > 0 && g_winbytes + o->bytes > BUDGET)) complete(local, 0);
    start_op(o);
    g_win[g_nwin++] = o;
    g_winbytes += o->bytes;
  } else {
    start_op(o);
    check_op(o);
    free_op(o);
  }
}

/* COLL_RANDOM_NUMA=1 (halves) or 2 (alternating ranks): describe two NUMA
 * nodes to hwloc and pin each rank to one, as coll_segment.c's NUMA_LAYOUT
 * (for manual runs with RINGMPI_COLL_*=3: the two-level paths). */
static void numa_setup(void) {
  const char *layout = getenv("COLL_RANDOM_NUMA"), *r = getenv("RINGMPI_RANK"), *n = getenv("RINGMPI_SIZE");
  if (!layout || !r || !n) return;
  const int me = atoi(r), np = atoi(n), mode = atoi(layout);
  const int cpu = mode == 2 ? me % 2 : (me < (np + 1) / 2 ? 0 : 1);
  setenv("HWLOC_SYNTHETIC", "node:2 core:1 pu:1", 1);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) fprintf(stderr, "coll_random: pinning failed\n");
}

int main(int argc, char **argv) {
  numa_setup();
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* About 5 s on a loaded 2-core machine at 8 ranks. */
  const int nsteps = argc > 1 ? atoi(argv[1]) : size <= 4 ? 1000 : 600;
  const uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5EED2026ull;
  if (argc > 3) g_window = atoi(argv[3]);
  CHECK(g_window >= 1 && g_window <= WINDOW_MAX);

  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &g_heis_type));
  CHECK_MPI(MPI_Type_commit(&g_heis_type));
  CHECK_MPI(MPI_Op_create(heis_op, 0, &g_heis_op));
  for (int c = 0; c < NCOUNTS; ++c) {
    const int n = kCounts[c];
    g_vec[c] = g_rev[c] = MPI_DATATYPE_NULL;
    if (n > 0) {
      CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &g_vec[c]));
      CHECK_MPI(MPI_Type_commit(&g_vec[c]));
      int *displs = malloc(sizeof(int) * (size_t)n);
      CHECK(displs != NULL);
      for (int i = 0; i < n; ++i) displs[i] = n - 1 - i;
      CHECK_MPI(MPI_Type_create_indexed_block(n, 1, displs, MPI_INT, &g_rev[c]));
      CHECK_MPI(MPI_Type_commit(&g_rev[c]));
      free(displs);
    }
  }

  MPI_Comm comms[4];
  comms[0] = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, g_wrank < size / 2 ? 0 : 1, size - g_wrank, &comms[2]));
  comms[3] = MPI_COMM_NULL;
  int ncomms = 3;

  int wsum = 0;
  for (int c = 0; c < NCOUNTS; ++c) wsum += kWeights[c];

  uint64_t local = mix64(seed ^ (0x1000003ull * (uint64_t)(unsigned)(g_wrank + 1)));
  long nb_started = 0, blocking_run = 0, max_window = 0, bursts = 0, ring_exchanges = 0;
  for (int step = 0; step < nsteps; ++step) {
    if (step == nsteps / 3 || step == 2 * nsteps / 3) {
      /* A communicator made after collectives already ran on its parent
       * (world, then the dup), with nonblocking ones still pending there;
       * the second time the previous one is freed first, with collectives
       * still pending on it (they complete normally, MPI-3.1 6.4.1). */
      if (comms[3] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comms[3]));
      CHECK_MPI(MPI_Comm_dup(comms[step == nsteps / 3 ? 0 : 1], &comms[3]));
      ncomms = 4;
    }
    uint64_t s = mix64(seed + (uint64_t)step);
    const int comm_index = (int)rnd(&s, (unsigned)ncomms);
    const int kind = (int)rnd(&s, K_COUNT);
    const int nb = (int)rnd(&s, 3) != 0; /* two thirds nonblocking */
    int w = (int)rnd(&s, (unsigned)wsum), ci = 0;
    while (w >= kWeights[ci]) w -= kWeights[ci++];
    const int root_draw = (int)rnd(&s, 1u << 16);
    const int ip = rnd(&s, 4) == 0;
    const int heis = (int)rnd(&s, 2);
    /* Strided layouts: for half of the steps, per rank and per side. */
    unsigned smask = (unsigned)rnd(&s, 1u << 30), rmask = (unsigned)rnd(&s, 1u << 30);
    if (rnd(&s, 2)) smask = rmask = 0;

    if (rnd(&s, 25) == 0) {
      /* A burst of small rooted collectives from one root on one
       * communicator, 3/4 of them blocking: the members that need nobody
       * (bcast root, reduce and gather senders, scatter root) run far ahead
       * of the others, past the slot rings' depth. */
      static const int kBurst[4] = {K_BCAST, K_REDUCE, K_GATHER, K_SCATTER};
      const int bkind = kBurst[rnd(&s, 4)], len = 70 + (int)rnd(&s, 80);
      for (int j = 0; j < len; ++j) {
        const int bnb = rnd(&s, 4) == 0;
        Op *o = make_op(step, j + 1, comm_index, comms[comm_index], bkind, bnb, 1 + (int)rnd(&s, 2), root_draw,
                        0, heis, 0, 0);
        run_op(o, &local);
        if (bnb) ++nb_started; else ++blocking_run;
      }
      ++bursts;
    }
    Op *o = make_op(step, 0, comm_index, comms[comm_index], kind, nb, ci, root_draw, ip, heis, smask, rmask);
    run_op(o, &local);
    if (nb) ++nb_started; else ++blocking_run;
    if (g_nwin > max_window) max_window = g_nwin;
    /* Point-to-point traffic on the same communicator now and then, while
     * collectives are in flight on it (never matched by them). */
    if (rnd(&s, 16) == 0) {
      MPI_Comm c = comms[comm_index];
      int cp, cr, token[2] = {step, g_wrank}, got[2] = {-1, -1};
      MPI_Comm_size(c, &cp);
      MPI_Comm_rank(c, &cr);
      CHECK_MPI(MPI_Sendrecv(token, 2, MPI_INT, (cr + 1) % cp, step % 32768, got, 2, MPI_INT, (cr + cp - 1) % cp,
                             step % 32768, c, MPI_STATUS_IGNORE));
      CHECK(got[0] == step);
      ++ring_exchanges;
    }
    /* Per-rank timing noise: some ranks fall behind the others now and then. */
    const unsigned lag = rnd(&local, 32);
    if (lag == 0)
      usleep(50 + rnd(&local, 400));
    else if (lag < 3)
      sched_yield();
    /* Completions at random moments, drawn per rank. */
    const unsigned d = rnd(&local, 16);
    if (d == 0)
      complete(&local, 1);
    else if (d < 4)
      complete(&local, 0);
  }
  /* Freeing a communicator with collectives still pending on it is allowed:
   * they complete normally (MPI-3.1 6.4.1). A few nonblocking ones on each
   * of them, then the frees, then their completion. */
  {
    uint64_t s = mix64(seed + (uint64_t)nsteps);
    for (int j = 0; j < 12; ++j) {
      const int comm_index = 1 + j % 3;
      const int kind = (int)rnd(&s, K_COUNT);
      const int ci = (int)rnd(&s, NCOUNTS), root_draw = (int)rnd(&s, 1u << 16), ip = rnd(&s, 4) == 0;
      const int heis = (int)rnd(&s, 2);
      run_op(make_op(nsteps, j, comm_index, comms[comm_index], kind, 1, ci, root_draw, ip, heis, 0, 0), &local);
    }
  }
  CHECK_MPI(MPI_Comm_free(&comms[1]));
  CHECK_MPI(MPI_Comm_free(&comms[2]));
  if (comms[3] != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comms[3]));
  const int pending_at_free = g_nwin;
  complete(&local, 1);

  MPI_Count seg = 0, msgs = 0, single = 0, blocks = 0, two = 0;
  MPIX_Query_counter("seg_single_copy", &single);
  MPIX_Query_counter("seg_by_blocks", &blocks);
  MPIX_Query_counter("seg_two_level", &two);
  MPIX_Query_counter("coll_messages", &msgs);
  MPIX_Query_counter("seg_allreduce", &seg);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (g_wrank == 0)
    printf("coll_random: %d steps OK on %d ranks (rank 0: %ld nonblocking, %ld blocking, %ld bursts, %ld p2p rings, window max %ld, %d pending at MPI_Comm_free; "
           "completions wait %ld waitall %ld waitany %ld test %ld testany %ld testsome %ld testall %ld; "
           "counters seg_single_copy %lld seg_by_blocks %lld seg_two_level %lld seg_allreduce %lld coll_messages %lld)\n",
           nsteps, size, nb_started, blocking_run, bursts, ring_exchanges, max_window, pending_at_free, g_completions[0], g_completions[1],
           g_completions[2], g_completions[3], g_completions[4], g_completions[5], g_completions[6],
           (long long)single, (long long)blocks, (long long)two, (long long)seg, (long long)msgs);

  for (int c = 0; c < NCOUNTS; ++c)
    if (g_vec[c] != MPI_DATATYPE_NULL) {
      MPI_Type_free(&g_vec[c]);
      MPI_Type_free(&g_rev[c]);
    }
  MPI_Type_free(&g_heis_type);
  MPI_Op_free(&g_heis_op);
  MPI_Finalize();
  return 0;
}
