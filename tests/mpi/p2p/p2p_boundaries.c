/* Every message size around every protocol boundary of the point-to-point
 * engine (docs/design/p2p-protocols.md): each power of two and its two
 * neighbours from 1 KiB to 256 KiB, a few small sizes, and each boundary the
 * environment sets (RINGMPI_EAGER_LIMIT, RINGMPI_SPLIT_MIN, RINGMPI_CHUNK)
 * with its neighbours. At each size, every byte is checked:
 *   1. a ring exchange (each rank sends to the next, receives from the
 *      previous), posted first and unexpected (sent before the receive is
 *      posted), standard and synchronous mode;
 *   2. MPI_ANY_SOURCE receives: rank 0 takes one message of the size from
 *      every other rank and checks status and bytes per source;
 *   3. truncation: the receive is one byte short (and, above 2 bytes, half
 *      as long), named source and MPI_ANY_SOURCE: MPI_ERR_TRUNCATE, the
 *      fitting prefix delivered, nothing written past the buffer, and the
 *      sender's side completes normally;
 *   4. the unsafe pattern many programs rely on up to the eager limit: every
 *      rank MPI_Sends to the next before it receives (an offered rendezvous
 *      is taken back and sent eagerly; with a core per rank and single copy
 *      working, the rndv_taken_back counter shows that it was).
 * Meson runs it with the default tunables and with variants that move the
 * boundaries onto odd sizes or force the copy fallback. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "counter.h"

#define MAX_SIZES 64
#define GUARD 64

static long sizes[MAX_SIZES];
static int nsizes;

static void add_size(long s) {
  if (s < 0 || s > (512L << 10)) return;
  for (int i = 0; i < nsizes; ++i)
    if (sizes[i] == s) return;
  CHECK(nsizes < MAX_SIZES);
  sizes[nsizes++] = s;
}

static void add_around(long s) {
  add_size(s - 1);
  add_size(s);
  add_size(s + 1);
}

static void add_env(const char *name) {
  const char *v = getenv(name);
  if (v && *v) add_around(atol(v));
}

/* The byte at offset i of the message `seq` from `src` of `size` bytes. */
static unsigned char pattern(int src, long size, int seq, long i) {
  uint32_t x = (uint32_t)(i * 2654435761u) ^ (uint32_t)(src * 40503 + seq * 977 + size);
  return (unsigned char)(x ^ (x >> 13) ^ (x >> 24));
}

static void fill(unsigned char *buf, int src, long size, int seq) {
  for (long i = 0; i < size; ++i) buf[i] = pattern(src, size, seq, i);
}

/* The first `n` bytes are the message's, then GUARD bytes of 0xEE untouched. */
static void verify(const unsigned char *buf, long n, int src, long size, int seq) {
  for (long i = 0; i < n; ++i)
    if (buf[i] != pattern(src, size, seq, i)) {
      fprintf(stderr, "size %ld from %d seq %d: byte %ld is %u, not %u\n", size, src, seq, i, buf[i],
              pattern(src, size, seq, i));
      CHECK(0);
    }
  for (long i = n; i < n + GUARD; ++i) CHECK(buf[i] == 0xEE);
}

static void check_status(const MPI_Status *st, int src, int tag, long count) {
  int n = -1;
  CHECK(st->MPI_SOURCE == src && st->MPI_TAG == tag);
  CHECK_MPI(MPI_Get_count(st, MPI_BYTE, &n));
  CHECK(n == count);
}

static int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  add_size(0);
  add_size(1);
  add_size(8);
  add_size(64);
  add_size(1000);
  for (int k = 10; k <= 18; ++k) add_around(1L << k);
  add_env("RINGMPI_EAGER_LIMIT");
  add_env("RINGMPI_SPLIT_MIN");
  add_env("RINGMPI_CHUNK");

  long h2h_max = 16384;
  const char *el = getenv("RINGMPI_EAGER_LIMIT");
  if (el && *el && atol(el) < h2h_max) h2h_max = atol(el);

  long max = 0;
  for (int i = 0; i < nsizes; ++i)
    if (sizes[i] > max) max = sizes[i];
  unsigned char *sbuf = malloc((size_t)max + GUARD);
  unsigned char *rbuf = malloc((size_t)max + GUARD);
  CHECK(sbuf && rbuf);
  const int right = (rank + 1) % np, left = (rank + np - 1) % np;

  for (int z = 0; z < nsizes; ++z) {
    const long size = sizes[z];
    const int n = (int)size;
    MPI_Status st;
    MPI_Request rq, sq;

    /* 1. Ring exchange: posted first, then unexpected, in both modes. */
    for (int mode = 0; mode < 4; ++mode) {
      const int unexpected = mode & 1, sync = mode >> 1;
      const int seq = mode;
      fill(sbuf, rank, size, seq);
      memset(rbuf, 0xEE, (size_t)size + GUARD);
      if (!unexpected) CHECK_MPI(MPI_Irecv(rbuf, n, MPI_BYTE, left, seq, MPI_COMM_WORLD, &rq));
      if (sync)
        CHECK_MPI(MPI_Issend(sbuf, n, MPI_BYTE, right, seq, MPI_COMM_WORLD, &sq));
      else
        CHECK_MPI(MPI_Isend(sbuf, n, MPI_BYTE, right, seq, MPI_COMM_WORLD, &sq));
      if (unexpected) {
        /* Every send is out before any receive is posted. */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, left, seq, MPI_COMM_WORLD, &st));
      } else {
        CHECK_MPI(MPI_Wait(&rq, &st));
      }
      CHECK_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
      check_status(&st, left, seq, size);
      verify(rbuf, size, left, size, seq);
    }

    /* 2. MPI_ANY_SOURCE: rank 0 takes one message from every other rank. */
    if (rank == 0) {
      int *seen = calloc((size_t)np, sizeof *seen);
      CHECK(seen);
      for (int k = 1; k < np; ++k) {
        memset(rbuf, 0xEE, (size_t)size + GUARD);
        CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st));
        const int src = st.MPI_SOURCE;
        CHECK(src > 0 && src < np && !seen[src]);
        seen[src] = 1;
        check_status(&st, src, 7, size);
        verify(rbuf, size, src, size, 7);
      }
      free(seen);
    } else {
      fill(sbuf, rank, size, 7);
      CHECK_MPI(MPI_Send(sbuf, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD));
    }

    /* 3. Truncation, named source and MPI_ANY_SOURCE, one byte short and half. */
    if (size >= 1) {
      for (int variant = 0; variant < 4; ++variant) {
        const long room = (variant & 1) ? size / 2 : size - 1;
        if ((variant & 1) && size <= 2) continue;
        const int any = variant >> 1;
        const int seq = 20 + variant;
        fill(sbuf, rank, size, seq);
        memset(rbuf, 0xEE, (size_t)size + GUARD);
        CHECK_MPI(MPI_Isend(sbuf, n, MPI_BYTE, right, seq, MPI_COMM_WORLD, &sq));
        /* With np 2 and more, the left neighbour's message is the only one
         * with this tag on its way to us. */
        const int e = MPI_Recv(rbuf, (int)room, MPI_BYTE, any ? MPI_ANY_SOURCE : left, seq, MPI_COMM_WORLD, &st);
        CHECK(error_class(e) == MPI_ERR_TRUNCATE);
        CHECK(st.MPI_SOURCE == left && st.MPI_TAG == seq);
        CHECK_MPI(MPI_Wait(&sq, MPI_STATUS_IGNORE));
        verify(rbuf, room, left, size, seq);
      }
    }

    /* 4. Send before receive all round, up to the smallest eager limit the
     * library has by default (16 KiB) or the one the environment sets. */
    if (size <= h2h_max) {
      fill(sbuf, rank, size, 30);
      memset(rbuf, 0xEE, (size_t)size + GUARD);
      CHECK_MPI(MPI_Send(sbuf, n, MPI_BYTE, right, 30, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Recv(rbuf, n, MPI_BYTE, left, 30, MPI_COMM_WORLD, &st));
      check_status(&st, left, 30, size);
      verify(rbuf, size, left, size, 30);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  }
  /* Offers happen with a core per rank and single copy working (some
   * rendezvous was read); the head-to-head sends above the offer size must
   * then have been taken back. */
  const long long taken_back = counter_total("rndv_taken_back");
  const long long reads = counter_total("rndv_read");
  const char *rmin = getenv("RINGMPI_RNDV_MIN");
  const long offer_min = rmin && *rmin ? atol(rmin) : 65536;
  if (np > 1 && np <= sysconf(_SC_NPROCESSORS_ONLN) && reads > 0 && offer_min <= h2h_max) CHECK(taken_back > 0);
  free(sbuf);
  free(rbuf);
  if (rank == 0) printf("p2p_boundaries: %d sizes at np %d\n", nsizes, np);
  MPI_Finalize();
  return 0;
}
