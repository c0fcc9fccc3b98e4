/* Partitioned point-to-point (MPI-4.0 chapter 4): data over a ring with
 * equal and with different partition counts on the two sides, a derived
 * datatype, several epochs, every completion form; early arrival made
 * deterministic with a handshake (the receiver sees partition 0 arrive
 * while the sender, blocked in MPI_Recv, has not readied the last one);
 * MPI_Pready from several threads at MPI_THREAD_MULTIPLE; MPI_PROC_NULL;
 * bad input reported with the standard's error classes (MPI_ERRORS_RETURN). */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size, provided;

static void complete(MPI_Request *r, int how, MPI_Status *st) {
  int flag = 0, idx, n = 0, ind[1];
  switch (how % 5) {
    case 0: CHECK_MPI(MPI_Wait(r, st)); break;
    case 1: while (!flag) CHECK_MPI(MPI_Test(r, &flag, st)); break;
    case 2: CHECK_MPI(MPI_Waitany(1, r, &idx, st)); break;
    case 3: while (!n) CHECK_MPI(MPI_Testsome(1, r, &n, ind, st)); break;
    case 4: while (!flag) CHECK_MPI(MPI_Testall(1, r, &flag, st)); break;
  }
  CHECK(*r != MPI_REQUEST_NULL);
}

/* Ring: send `sp` partitions of `sc` elements to the next rank, receive `rp`
 * partitions of `rc` elements from the previous one (sp*sc == rp*rc). */
static void ring(int sp, int sc, int rp, int rc, int tag) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size, n = sp * sc;
  double *sb = calloc((size_t)n, sizeof(double)), *rb = calloc((size_t)n, sizeof(double));
  MPI_Request rq[2];
  CHECK_MPI(MPI_Precv_init(rb, rp, rc, MPI_DOUBLE, prev, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]));
  CHECK_MPI(MPI_Psend_init(sb, sp, sc, MPI_DOUBLE, next, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[1]));
  for (int e = 0; e < 4; ++e) {
    for (int i = 0; i < n; ++i) sb[i] = rank * 1e6 + e * 1e4 + i;
    memset(rb, 0, sizeof(double) * (size_t)n);
    if (e % 2)
      CHECK_MPI(MPI_Startall(2, rq));
    else {
      CHECK_MPI(MPI_Start(&rq[0]));
      CHECK_MPI(MPI_Start(&rq[1]));
    }
    /* Ready in a different way each epoch: reverse singles, a range, a list. */
    if (e == 0)
      for (int p = sp - 1; p >= 0; --p) CHECK_MPI(MPI_Pready(p, rq[1]));
    else if (e == 1)
      CHECK_MPI(MPI_Pready_range(0, sp - 1, rq[1]));
    else {
      int *list = malloc(sizeof(int) * (size_t)sp), k = 0;
      for (int p = 0; p < sp; p += 2) list[k++] = p;
      for (int p = 1; p < sp; p += 2) list[k++] = p;
      CHECK_MPI(MPI_Pready_list(sp, list, rq[1]));
      free(list);
    }
    MPI_Status st;
    complete(&rq[1], e, &st);
    complete(&rq[0], e + 1, &st);
    int count;
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == tag);
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
    CHECK(count == n);
    for (int i = 0; i < n; ++i) CHECK(rb[i] == prev * 1e6 + e * 1e4 + i);
    int flag = 0;
    CHECK_MPI(MPI_Parrived(rq[0], rp - 1, &flag)); /* inactive: true */
    CHECK(flag);
  }
  CHECK_MPI(MPI_Request_free(&rq[0]));
  CHECK_MPI(MPI_Request_free(&rq[1]));
  free(sb);
  free(rb);
}

/* A strided send type (every other int) into a contiguous receive. */
static void derived(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int sb[3 * 2 * 8], rb[24];
  MPI_Request s, r;
  CHECK_MPI(MPI_Psend_init(sb, 3, 2, every_other, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Type_free(&every_other)); /* the request keeps it */
  CHECK_MPI(MPI_Precv_init(rb, 2, 12, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 3; ++e) {
    /* Element k of the vector type holds ints 7k, 7k+2, 7k+4, 7k+6 (extent 7 ints). */
    for (int i = 0; i < 48; ++i) sb[i] = -1;
    for (int k = 0; k < 6; ++k)
      for (int j = 0; j < 4; ++j) sb[7 * k + 2 * j] = 1000 * rank + 100 * e + 4 * k + j;
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    CHECK_MPI(MPI_Pready_range(0, 2, s));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < 24; ++i) CHECK(rb[i] == 1000 * prev + 100 * e + i);
  }
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  /* And the other way round: contiguous sends (4 x 6 ints) into the strided
   * type on the receiving side (3 x 2 elements of 4 ints), unpacked there. */
  int cb[24];
  CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Psend_init(cb, 4, 6, MPI_INT, next, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(sb, 3, 2, every_other, prev, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Type_free(&every_other));
  for (int e = 0; e < 3; ++e) {
    for (int i = 0; i < 24; ++i) cb[i] = 1000 * rank + 100 * e + i;
    for (int i = 0; i < 48; ++i) sb[i] = -1;
    CHECK_MPI(MPI_Start(&s));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Pready_range(0, 3, s));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    for (int k = 0; k < 6; ++k)
      for (int j = 0; j < 4; ++j) {
        CHECK(sb[7 * k + 2 * j] == 1000 * prev + 100 * e + 4 * k + j);
        if (j < 3) CHECK(sb[7 * k + 2 * j + 1] == -1); /* the gaps stay untouched */
      }
  }
  MPI_Request_free(&s);
  MPI_Request_free(&r);
}

/* Early arrival, in pairs (2k sends to 2k+1): the sender readies partition 0
 * only, then blocks in MPI_Recv for the receiver's "go", which the receiver
 * sends only after MPI_Parrived said partition 0 is there, and while the last
 * one cannot be (the sender has not readied it). */
static void early(int part_elems) {
  if (size < 2 || (size % 2 && rank == size - 1)) return;
  const int parts = 4, n = parts * part_elems, peer = rank ^ 1;
  char *buf = calloc((size_t)n, 1);
  MPI_Request r;
  if (rank % 2 == 0)
    CHECK_MPI(MPI_Psend_init(buf, parts, part_elems, MPI_CHAR, peer, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  else
    CHECK_MPI(MPI_Precv_init(buf, parts, part_elems, MPI_CHAR, peer, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 3; ++e) {
    int go = 0;
    if (rank % 2 == 0) {
      for (int i = 0; i < n; ++i) buf[i] = (char)(i / part_elems + 3 * e + 1);
      CHECK_MPI(MPI_Start(&r));
      CHECK_MPI(MPI_Pready(0, r));
      CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(go == e + 1);
      CHECK_MPI(MPI_Pready_range(1, parts - 1, r));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
      memset(buf, 0, (size_t)n);
      CHECK_MPI(MPI_Start(&r));
      int flag = 0, last = 1;
      while (!flag) CHECK_MPI(MPI_Parrived(r, 0, &flag));
      CHECK_MPI(MPI_Parrived(r, parts - 1, &last));
      CHECK(!last); /* not readied yet: the sender waits for our "go" */
      for (int i = 0; i < part_elems; ++i) CHECK(buf[i] == (char)(3 * e + 1));
      go = e + 1;
      CHECK_MPI(MPI_Send(&go, 1, MPI_INT, peer, 12, MPI_COMM_WORLD));
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
      for (int i = 0; i < n; ++i) CHECK(buf[i] == (char)(i / part_elems + 3 * e + 1));
    }
  }
  CHECK_MPI(MPI_Request_free(&r));
  free(buf);
}

/* MPI_Pready from 4 threads at MPI_THREAD_MULTIPLE. */
#define THREADS 4
#define TPARTS 16
struct worker {
  MPI_Request req;
  int *buf, id, epoch;
};
static void *produce(void *arg) {
  struct worker *w = arg;
  for (int p = w->id; p < TPARTS; p += THREADS) {
    for (int i = 0; i < 64; ++i) w->buf[p * 64 + i] = 10000 * rank + 100 * w->epoch + p;
    if (MPI_Pready(p, w->req) != MPI_SUCCESS) abort();
  }
  return NULL;
}
static void threaded(void) {
  if (provided != MPI_THREAD_MULTIPLE) return;
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int *sb = calloc(TPARTS * 64, sizeof(int)), *rb = calloc(TPARTS * 64, sizeof(int));
  MPI_Request s, r;
  CHECK_MPI(MPI_Psend_init(sb, TPARTS, 64, MPI_INT, next, 21, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(rb, TPARTS / 2, 128, MPI_INT, prev, 21, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  for (int e = 0; e < 3; ++e) {
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Start(&s));
    pthread_t t[THREADS];
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; ++i) {
      w[i] = (struct worker){s, sb, i, e};
      CHECK(pthread_create(&t[i], NULL, produce, &w[i]) == 0);
    }
    for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
    MPI_Request both[2] = {s, r};
    CHECK_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
    for (int p = 0; p < TPARTS; ++p)
      for (int i = 0; i < 64; ++i) CHECK(rb[p * 64 + i] == 10000 * prev + 100 * e + p);
  }
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  free(sb);
  free(rb);
}

static void proc_null(void) {
  int b[4] = {1, 2, 3, 4};
  MPI_Request s, r;
  MPI_Status st;
  CHECK_MPI(MPI_Psend_init(b, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(b, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Pready_range(0, 1, s));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
  CHECK(b[0] == 1 && b[3] == 4);
  MPI_Request_free(&s);
  MPI_Request_free(&r);
}

/* Over an intercommunicator (even ranks / odd ranks): local rank i of the
 * even group sends to remote rank i of the odd group, 3 partitions against 2. */
static void inter(void) {
  if (size < 2) return;
  MPI_Comm local, ic;
  const int color = rank % 2;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local));
  CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 41, &ic));
  int lr, rs;
  MPI_Comm_rank(local, &lr);
  MPI_Comm_remote_size(ic, &rs);
  if (lr < rs) {
    int b[12];
    MPI_Request r;
    if (color == 0)
      CHECK_MPI(MPI_Psend_init(b, 3, 4, MPI_INT, lr, 6, ic, MPI_INFO_NULL, &r));
    else
      CHECK_MPI(MPI_Precv_init(b, 2, 6, MPI_INT, lr, 6, ic, MPI_INFO_NULL, &r));
    for (int e = 0; e < 3; ++e) {
      for (int i = 0; i < 12; ++i) b[i] = color == 0 ? 100 * lr + 10 * e + i : -1;
      CHECK_MPI(MPI_Start(&r));
      if (color == 0) CHECK_MPI(MPI_Pready_list(3, (int[]){2, 0, 1}, r));
      MPI_Status st;
      CHECK_MPI(MPI_Wait(&r, &st));
      if (color == 1) {
        CHECK(st.MPI_SOURCE == lr && st.MPI_TAG == 6);
        for (int i = 0; i < 12; ++i) CHECK(b[i] == 100 * lr + 10 * e + i);
      }
    }
    CHECK_MPI(MPI_Request_free(&r));
  }
  CHECK_MPI(MPI_Comm_free(&ic));
  CHECK_MPI(MPI_Comm_free(&local));
}

static int cls_of(int err) {
  int c;
  MPI_Error_class(err, &c);
  return c;
}

static void bad_input(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  int b[8], flag = 0;
  MPI_Request s, r, plain;
  CHECK_MPI(MPI_Psend_init(b, 4, 2, MPI_INT, next, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(b, 4, 2, MPI_INT, prev, 31, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK(cls_of(MPI_Pready(0, s)) == MPI_ERR_REQUEST); /* inactive */
  CHECK(cls_of(MPI_Pready_range(0, 1, s)) == MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Parrived(r, 0, &flag)); /* inactive: flag true */
  CHECK(flag);
  CHECK(cls_of(MPI_Parrived(s, 0, &flag)) == MPI_ERR_REQUEST); /* a send request */
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Start(&s));
  CHECK(cls_of(MPI_Pready(4, s)) == MPI_ERR_ARG);  /* out of range */
  CHECK(cls_of(MPI_Pready(-1, s)) == MPI_ERR_ARG);
  CHECK(cls_of(MPI_Pready(0, r)) == MPI_ERR_REQUEST); /* a receive request */
  CHECK(cls_of(MPI_Parrived(r, 4, &flag)) == MPI_ERR_ARG);
  CHECK(cls_of(MPI_Pready_range(2, 1, s)) == MPI_ERR_ARG);
  int bad_list[2] = {1, 9};
  CHECK(cls_of(MPI_Pready_list(2, bad_list, s)) == MPI_ERR_ARG); /* partition 1 readied, 9 refused */
  CHECK_MPI(MPI_Pready(0, s));
  CHECK(cls_of(MPI_Pready(0, s)) == MPI_ERR_ARG); /* twice in one epoch */
  CHECK(cls_of(MPI_Pready(1, s)) == MPI_ERR_ARG); /* readied by the list above */
  CHECK_MPI(MPI_Pready_range(2, 3, s));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(cls_of(MPI_Pready(0, s)) == MPI_ERR_REQUEST); /* inactive again */
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  CHECK(cls_of(MPI_Precv_init(b, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r)) == MPI_ERR_RANK);
  CHECK(cls_of(MPI_Precv_init(b, 1, 1, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r)) == MPI_ERR_TAG);
  CHECK(cls_of(MPI_Psend_init(b, -1, 1, MPI_INT, next, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s)) == MPI_ERR_ARG);
  CHECK(cls_of(MPI_Psend_init(b, 1, -1, MPI_INT, next, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s)) == MPI_ERR_COUNT);
  CHECK(cls_of(MPI_Psend_init(b, 1, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s)) == MPI_ERR_RANK);
  CHECK(cls_of(MPI_Psend_init(b, 1, 1, MPI_DATATYPE_NULL, next, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s)) ==
        MPI_ERR_TYPE);
  CHECK(cls_of(MPI_Psend_init(b, 1, 1, MPI_INT, next, 0, MPI_COMM_WORLD, (MPI_Info)0x5eed, &s)) == MPI_ERR_INFO);
  /* Totals that differ (6 ints sent, 4 expected): the receive fails with
   * MPI_ERR_TRUNCATE, the send completes, and MPI_Parrived does not hang. */
  CHECK_MPI(MPI_Psend_init(b, 2, 3, MPI_INT, next, 32, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(b + 6, 2, 1, MPI_INT, prev, 32, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Pready_range(0, 1, s));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK(cls_of(MPI_Wait(&r, MPI_STATUS_IGNORE)) == MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Parrived(r, 0, &flag)); /* inactive again */
  CHECK(flag);
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  /* A request that is not partitioned. */
  CHECK_MPI(MPI_Irecv(b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &plain));
  CHECK(cls_of(MPI_Pready(0, plain)) == MPI_ERR_REQUEST);
  CHECK(cls_of(MPI_Parrived(plain, 0, &flag)) == MPI_ERR_REQUEST);
  CHECK_MPI(MPI_Wait(&plain, MPI_STATUS_IGNORE));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ring(8, 16, 8, 16, 1);       /* equal partitions */
  ring(6, 10, 4, 15, 2);       /* fewer, larger receive partitions */
  ring(3, 20, 12, 5, 3);       /* more, smaller receive partitions */
  ring(4, 16384, 2, 32768, 4); /* 128 KiB partitions: rendezvous */
  derived();
  early(100);   /* eager partitions */
  early(65536); /* rendezvous partitions */
  threaded();
  inter();
  proc_null();
  bad_input();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
