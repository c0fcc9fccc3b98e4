/* Every algorithm of every collective family forced, one after the other
 * (docs/guide/collective-algorithms.md): the test writes the family's MPI_T
 * control variable RINGMPI_COLL_<FAMILY> (scope MPI_T_SCOPE_ALL_EQ, every
 * rank the same value) with the enum item "force_<algorithm>", runs the
 * family's calls over several sizes, contiguous and derived datatypes, in
 * place, blocking and nonblocking, on MPI_COMM_WORLD and on a duplicate,
 * and checks for each call:
 *   - every rank got the same result class: MPI_SUCCESS, or
 *     MPI_ERR_UNSUPPORTED_OPERATION where the algorithm cannot run the call;
 *   - a call that ran gave the right data, and moved the per-communicator
 *     performance variable coll_<family>_<algorithm> by one and no other
 *     algorithm's of the family (a silent fallback is caught);
 *   - a refused one moved none;
 *   - the algorithms that must run a call did: messages every blocking
 *     intracommunicator call, schedule every call of its rows, segment
 *     every small contiguous call on two ranks or more, local and
 *     world_counter the barriers (and neighbourhood exchanges, on periodic
 *     rings) they are for; numa_leaders where the ranks span NUMA nodes
 *     (the NUMA_LAYOUT variant).
 * A name that is not in a family's table is refused by MPI_T_cvar_write. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

enum { kFamilies = 11, kAlgos = 6 };
static const char* kFamily[kFamilies] = {"barrier",   "bcast",  "scatter",   "gather",         "allgather",
                                         "alltoall",  "reduce", "allreduce", "reduce_scatter", "scan",
                                         "neighbor"};
static const char* kAlgo[kAlgos] = {"local", "segment", "numa_leaders", "world_counter", "messages", "schedule"};

static int me, np;
static MPI_T_pvar_session session;
static int ran[kFamilies][kAlgos];     /* calls that ran, per algorithm */
static int refused[kFamilies][kAlgos]; /* calls refused */

/* The control variable of family f and the enum value of "force_<a>". */
static int cvar_of(int f) {
  char name[64];
  snprintf(name, sizeof name, "RINGMPI_COLL_%s", kFamily[f]);
  for (char* p = name; *p; ++p) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
  int index;
  CHECK_MPI(MPI_T_cvar_get_index(name, &index));
  return index;
}
static int enum_value(int cvar, const char* item) {
  MPI_T_enum e;
  int verbosity, bind, scope, len = 0, dlen = 0;
  MPI_Datatype dt;
  CHECK_MPI(MPI_T_cvar_get_info(cvar, NULL, &len, &verbosity, &dt, &e, NULL, &dlen, &bind, &scope));
  CHECK(scope == MPI_T_SCOPE_ALL_EQ);
  CHECK(dt == MPI_INT);
  int items;
  char ename[64];
  int elen = sizeof ename;
  CHECK_MPI(MPI_T_enum_get_info(e, &items, ename, &elen));
  for (int i = 0; i < items; ++i) {
    char iname[64];
    int ilen = sizeof iname, value;
    CHECK_MPI(MPI_T_enum_get_item(e, i, &value, iname, &ilen));
    if (strcmp(iname, item) == 0) return value;
  }
  return -1;
}
static int set_cvar(int cvar, int value) {
  MPI_T_cvar_handle h;
  int count;
  CHECK_MPI(MPI_T_cvar_handle_alloc(cvar, NULL, &h, &count));
  const int r = MPI_T_cvar_write(h, &value);
  int back = -1;
  if (r == MPI_SUCCESS) {
    CHECK_MPI(MPI_T_cvar_read(h, &back));
    CHECK(back == value);
  }
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
  return r;
}

/* The counters of family f on comm: per-communicator performance variable
 * handles (each starts at 0) and the process totals (MPIX_Query_counter of
 * the same name); has[a] 0 where the family has no such algorithm. */
typedef struct {
  int has[kAlgos];
  MPI_T_pvar_handle h[kAlgos];
  MPI_Count total[kAlgos];
} Counters;
static void open_counters(MPI_Comm comm, int f, Counters* c) {
  for (int a = 0; a < kAlgos; ++a) {
    char name[96];
    snprintf(name, sizeof name, "coll_%s_%s", kFamily[f], kAlgo[a]);
    int index;
    c->has[a] = MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS;
    if (!c->has[a]) continue;
    int count, bind;
    CHECK_MPI(MPI_T_pvar_get_info(index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bind, NULL, NULL, NULL));
    CHECK(bind == MPI_T_BIND_MPI_COMM);
    CHECK_MPI(MPI_T_pvar_handle_alloc(session, index, &comm, &c->h[a], &count));
    CHECK(count == 1);
    unsigned long long v = 1;
    CHECK_MPI(MPI_T_pvar_read(session, c->h[a], &v));
    CHECK(v == 0); /* a new handle starts at 0 */
    CHECK_MPI(MPIX_Query_counter(name, &c->total[a]));
  }
}
/* The calls each algorithm ran since open_counters (closes the handles):
 * the communicator's count, which the process total must match. */
static void close_counters(int f, Counters* c, long long moved[kAlgos]) {
  for (int a = 0; a < kAlgos; ++a) {
    moved[a] = -1;
    if (!c->has[a]) continue;
    unsigned long long v;
    CHECK_MPI(MPI_T_pvar_read(session, c->h[a], &v));
    CHECK_MPI(MPI_T_pvar_handle_free(session, &c->h[a]));
    char name[96];
    snprintf(name, sizeof name, "coll_%s_%s", kFamily[f], kAlgo[a]);
    MPI_Count total;
    CHECK_MPI(MPIX_Query_counter(name, &total));
    CHECK((long long)(total - c->total[a]) == (long long)v);
    moved[a] = (long long)v;
  }
}

/* Every rank's result class agrees (point-to-point: no collective of the
 * family under test). */
static void agree(int rc) {
  if (me == 0) {
    for (int r = 1; r < np; ++r) {
      int other;
      CHECK_MPI(MPI_Recv(&other, 1, MPI_INT, r, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(other == rc);
    }
  } else {
    CHECK_MPI(MPI_Send(&rc, 1, MPI_INT, 0, 77, MPI_COMM_WORLD));
  }
}

/* One call's checks; `forced` the algorithm under test; `chosen`: whether
 * the call reached the choice (a zero-byte call returns before it). */
static void account(int f, int forced, int rc, int chosen, Counters* c) {
  long long moved[kAlgos];
  close_counters(f, c, moved);
  CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_UNSUPPORTED_OPERATION);
  agree(rc);
  for (int a = 0; a < kAlgos; ++a) {
    if (moved[a] < 0) continue;
    const long long want = rc == MPI_SUCCESS && chosen && a == forced ? 1 : 0;
    if (moved[a] != want)
      fprintf(stderr, "rank %d: %s forced %s: counter %s moved by %lld (rc %d)\n", me, kFamily[f], kAlgo[forced],
              kAlgo[a], moved[a], rc);
    CHECK(moved[a] == want);
  }
  if (rc == MPI_SUCCESS)
    ++ran[f][forced];
  else
    ++refused[f][forced];
}

static int value(int rank, int i) { return rank * 1000 + i % 997; }

/* The family's calls of `count` ints (`stride` 2: a derived vector type of
 * every other int), blocking or not, checked. Returns the result class. */
static int run(MPI_Comm comm, int f, int count, int stride, int nonblocking, int in_place) {
  MPI_Datatype t = MPI_INT;
  if (stride == 2) {
    MPI_Type_vector(count, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
  }
  const int tc = stride == 2 ? 1 : count; /* elements of t per block */
  const size_t span = (size_t)count * (size_t)stride;
  /* np blocks, or two (a neighbourhood exchange on a ring of one or two ranks) */
  int* a = calloc(span * (size_t)(np + 2) + 1, sizeof(int));
  int* b = calloc(span * (size_t)(np + 2) + 1, sizeof(int));
  int* counts = malloc(sizeof(int) * (size_t)np);
  int* displs = malloc(sizeof(int) * (size_t)np);
  for (int r = 0; r < np; ++r) counts[r] = tc;
  if (stride == 2) { /* the vector resized to span ints: block r at r extents */
    for (int r = 0; r < np; ++r) displs[r] = r;
    MPI_Datatype rt;
    MPI_Type_create_resized(t, 0, (MPI_Aint)(2 * count) * (MPI_Aint)sizeof(int), &rt);
    MPI_Type_commit(&rt);
    MPI_Type_free(&t);
    t = rt;
  } else {
    for (int r = 0; r < np; ++r) displs[r] = r * count;
  }
  const int root = np - 1;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Request* rq = nonblocking ? &req : NULL;
  int rc = MPI_SUCCESS;
#define START(blocking, nb) (rq ? (nb) : (blocking))
  switch (f) {
    case 0:
      rc = START(MPI_Barrier(comm), MPI_Ibarrier(comm, rq));
      break;
    case 1:
      for (size_t i = 0; i < span; i += (size_t)stride) a[i] = me == root ? value(root, (int)i) : -1;
      rc = START(MPI_Bcast(a, tc, t, root, comm), MPI_Ibcast(a, tc, t, root, comm, rq));
      break;
    case 2:
      if (me == root)
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)r * span + i] = value(r, (int)i);
      rc = START(MPI_Scatterv(a, counts, displs, t, in_place && me == root ? MPI_IN_PLACE : b, tc, t, root, comm),
                 MPI_Iscatterv(a, counts, displs, t, in_place && me == root ? MPI_IN_PLACE : b, tc, t, root, comm, rq));
      break;
    case 3:
      /* The own block in recvbuf (in place at the root), and in b to send. */
      for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)me * span + i] = b[i] = value(me, (int)i);
      rc = START(MPI_Gather(in_place && me == root ? MPI_IN_PLACE : b, tc, t, a, tc, t, root, comm),
                 MPI_Igather(in_place && me == root ? MPI_IN_PLACE : b, tc, t, a, tc, t, root, comm, rq));
      break;
    case 4:
      /* The own block in recvbuf (in place), and in a to send. */
      for (size_t i = 0; i < span; i += (size_t)stride) b[(size_t)me * span + i] = a[i] = value(me, (int)i);
      rc = START(MPI_Allgatherv(in_place ? MPI_IN_PLACE : a, tc, t, b, counts, displs, t, comm),
                 MPI_Iallgatherv(in_place ? MPI_IN_PLACE : a, tc, t, b, counts, displs, t, comm, rq));
      break;
    case 5:
      for (int r = 0; r < np; ++r)
        for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)r * span + i] = value(me, r * 7 + (int)i);
      rc = START(MPI_Alltoall(a, tc, t, b, tc, t, comm), MPI_Ialltoall(a, tc, t, b, tc, t, comm, rq));
      break;
    default: {
      for (size_t i = 0; i < span; i += (size_t)stride) a[i] = value(me, (int)i);
      void* send = in_place ? MPI_IN_PLACE : a;
      void* recv = in_place ? a : b;
      if (f == 6)
        rc = START(MPI_Reduce(in_place && me != root ? a : send, in_place && me != root ? b : recv, tc, t, MPI_SUM,
                              root, comm),
                   MPI_Ireduce(in_place && me != root ? a : send, in_place && me != root ? b : recv, tc, t, MPI_SUM,
                               root, comm, rq));
      else if (f == 7)
        rc = START(MPI_Allreduce(send, recv, tc, t, MPI_SUM, comm), MPI_Iallreduce(send, recv, tc, t, MPI_SUM, comm, rq));
      else if (f == 10) /* a periodic ring: the left neighbour's block, then the right one's */
        rc = START(MPI_Neighbor_allgather(a, tc, t, b, tc, t, comm),
                   MPI_Ineighbor_allgather(a, tc, t, b, tc, t, comm, rq));
      else if (f == 8) {
        /* count ints in all, split across the ranks (contiguous only) */
        rc = START(MPI_Reduce_scatter_block(a, b, count / np, MPI_INT, MPI_SUM, comm),
                   MPI_Ireduce_scatter_block(a, b, count / np, MPI_INT, MPI_SUM, comm, rq));
      } else
        rc = START(MPI_Scan(send, recv, tc, t, MPI_SUM, comm), MPI_Iscan(send, recv, tc, t, MPI_SUM, comm, rq));
      break;
    }
  }
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;
    MPI_Error_string(rc, text, &len);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_UNSUPPORTED_OPERATION || getenv("COLL_ALGORITHMS_VERBOSE"))
      fprintf(stderr, "rank %d: %s count %d stride %d nb %d in place %d: %s\n", me, kFamily[f], count, stride,
              nonblocking, in_place, text);
    rc = cls;
  }
  if (rc == MPI_SUCCESS && rq) CHECK_MPI(MPI_Wait(rq, MPI_STATUS_IGNORE));
  if (rc == MPI_SUCCESS) {
    const int sum_ranks = np * (np - 1) / 2;
    switch (f) {
      case 1:
        for (size_t i = 0; i < span; i += (size_t)stride) CHECK(a[i] == value(root, (int)i));
        break;
      case 2:
        if (!(in_place && me == root))
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(b[i] == value(me, (int)i));
        break;
      case 3:
        if (me == root)
          for (int r = 0; r < np; ++r)
            for (size_t i = 0; i < span; i += (size_t)stride) CHECK(a[(size_t)r * span + i] == value(r, (int)i));
        break;
      case 4:
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(b[(size_t)r * span + i] == value(r, (int)i));
        break;
      case 5:
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(b[(size_t)r * span + i] == value(r, me * 7 + (int)i));
        break;
      case 6:
      case 7: {
        const int* res = in_place ? a : b;
        if (f == 7 || me == root)
          for (size_t i = 0; i < span; i += (size_t)stride)
            CHECK(res[i] == sum_ranks * 1000 + np * ((int)i % 997));
        break;
      }
      case 8:
        for (int i = 0; i < count / np; ++i) {
          const int at = me * (count / np) + i;
          CHECK(b[i] == sum_ranks * 1000 + np * (at % 997));
        }
        break;
      case 10:
        for (size_t i = 0; i < span; i += (size_t)stride) {
          CHECK(b[i] == value((me + np - 1) % np, (int)i));
          CHECK(b[span + i] == value((me + 1) % np, (int)i));
        }
        break;
      case 9: {
        const int* res = in_place ? a : b;
        const int upto = me * (me + 1) / 2;
        for (size_t i = 0; i < span; i += (size_t)stride) CHECK(res[i] == upto * 1000 + (me + 1) * ((int)i % 997));
        break;
      }
      default: break;
    }
  }
  if (stride == 2) MPI_Type_free(&t);
  free(a);
  free(b);
  free(counts);
  free(displs);
  return rc;
}

/* Whether the shape `count`/`stride`/... must run under algorithm a. */
static int must_run(MPI_Comm comm, int f, int a, int count, int stride, int nonblocking) {
  const char* name = kAlgo[a];
  if (strcmp(name, "schedule") == 0) return f == 0 || f == 9 ? nonblocking : 1;
  if (strcmp(name, "messages") == 0) return !nonblocking;
  if (strcmp(name, "local") == 0 && f == 10) return np == 1 && !nonblocking;
  if (strcmp(name, "local") == 0) return np == 1 && !nonblocking;
  if (strcmp(name, "world_counter") == 0) return comm == MPI_COMM_WORLD && !nonblocking;
  if (strcmp(name, "segment") == 0) return np >= 2 && stride == 1 && count <= 100;
  return 0;
}

/* Which algorithm ran one 4-byte MPI_Bcast on comm under the default choice. */
static int bcast_ran(MPI_Comm comm) {
  Counters c;
  open_counters(comm, 1, &c);
  int v = me == 0 ? 42 : 0;
  CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, 0, comm));
  CHECK(v == 42);
  long long moved[kAlgos];
  close_counters(1, &c, &moved[0]);
  int which = -1;
  for (int a = 0; a < kAlgos; ++a)
    if (moved[a] == 1) which = a;
  CHECK(which >= 0);
  return which;
}

/* A threshold as an MPI_T control variable: RINGMPI_COLL_PAIR_BCAST reads
 * its default (262144), takes a write (scope MPI_T_SCOPE_ALL_EQ), and moves
 * the choice at the next collective: two ranks with a core each broadcast
 * 4 bytes over messages by default, on the segment with the threshold 0. */
static void thresholds(void) {
  int index, verbosity, bind, scope;
  MPI_Datatype dt;
  MPI_T_enum e;
  CHECK_MPI(MPI_T_cvar_get_index("RINGMPI_COLL_PAIR_BCAST", &index));
  CHECK_MPI(MPI_T_cvar_get_info(index, NULL, NULL, &verbosity, &dt, &e, NULL, NULL, &bind, &scope));
  CHECK(scope == MPI_T_SCOPE_ALL_EQ && dt == MPI_UNSIGNED_LONG_LONG && e == MPI_T_ENUM_NULL);
  MPI_T_cvar_handle h;
  int count;
  CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
  unsigned long long old = 0, zero = 0, back = 1;
  CHECK_MPI(MPI_T_cvar_read(h, &old));
  CHECK(old == 262144);
  const int before = bcast_ran(MPI_COMM_WORLD);
  CHECK_MPI(MPI_T_cvar_write(h, &zero));
  CHECK_MPI(MPI_T_cvar_read(h, &back));
  CHECK(back == 0);
  const int after = bcast_ran(MPI_COMM_WORLD);
  if (np == 2 && before == 4) CHECK(after == 1); /* messages by the two-rank rule, then the segment */
  if (np != 2) CHECK(after == before);
  CHECK_MPI(MPI_T_cvar_write(h, &old));
  CHECK(bcast_ran(MPI_COMM_WORLD) == before);
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

/* The calls a counter of this process (MPIX_Query_counter) counted. */
static long long counted(const char *name) {
  MPI_Count v = 0;
  CHECK_MPI(MPIX_Query_counter(name, &v));
  return (long long)v;
}
/* MPI_Allreduce of 5 ints on c, checked; what the segment ran: calls, by blocks. */
static void allreduce5(MPI_Comm c, long long *seg, long long *blocks) {
  int in[5], out[5];
  for (int i = 0; i < 5; ++i) in[i] = me * 10 + i;
  const long long s0 = counted("seg_allreduce"), b0 = counted("seg_by_blocks");
  CHECK_MPI(MPI_Allreduce(in, out, 5, MPI_INT, MPI_SUM, c));
  for (int i = 0; i < 5; ++i) CHECK(out[i] == 10 * np * (np - 1) / 2 + i * np);
  *seg = counted("seg_allreduce") - s0;
  *blocks = counted("seg_by_blocks") - b0;
}

/* A segment size as an MPI_T control variable (issue 34 point 2):
 * RINGMPI_COLL_FOLD_WHOLE_MAX reads its default (2048) and takes a write
 * (MPI_T_SCOPE_ALL_EQ); a communicator whose segment comes after the write
 * reduces 20 bytes by blocks and keeps doing so after the old value is
 * back, one made before folds whole vectors. */
static void segment_sizes(void) {
  int index, scope, count;
  MPI_Datatype dt;
  CHECK_MPI(MPI_T_cvar_get_index("RINGMPI_COLL_FOLD_WHOLE_MAX", &index));
  CHECK_MPI(MPI_T_cvar_get_info(index, NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, &scope));
  CHECK(scope == MPI_T_SCOPE_ALL_EQ && dt == MPI_UNSIGNED_LONG_LONG);
  MPI_T_cvar_handle h;
  CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
  unsigned long long old = 0, zero = 0;
  CHECK_MPI(MPI_T_cvar_read(h, &old));
  CHECK(old == 2048);
  MPI_Comm before, after;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &before));
  long long seg, blocks;
  allreduce5(before, &seg, &blocks);
  CHECK(blocks == 0);
  CHECK_MPI(MPI_T_cvar_write(h, &zero));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &after));
  allreduce5(after, &seg, &blocks);
  if (np >= 3) CHECK(seg == 1); /* the two-rank rule sends 20 bytes at np 2 over messages */
  CHECK(blocks == seg);
  allreduce5(before, &seg, &blocks);
  CHECK(blocks == 0);
  CHECK_MPI(MPI_T_cvar_write(h, &old));
  allreduce5(after, &seg, &blocks);
  CHECK(blocks == seg);
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
  MPI_Comm_free(&before);
  MPI_Comm_free(&after);
}

#ifdef NUMA_LAYOUT
/* As coll_segment.c: each rank describes two NUMA nodes to hwloc and pins
 * itself to PU 0 (the first half of the ranks) or 1. */
static int numa_setup(void) {
  const char *r = getenv("RINGMPI_RANK"), *n = getenv("RINGMPI_SIZE");
  if (!r || !n) return 0;
  const int rank = atoi(r), size = atoi(n);
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  setenv("HWLOC_SYNTHETIC", "node:2 core:1 pu:1", 1);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(rank < (size + 1) / 2 ? 0 : 1, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 && ncpu >= 2;
}
#endif

int main(int argc, char** argv) {
#ifdef NUMA_LAYOUT
  const int numa = numa_setup();
#endif
  int provided;
  CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  CHECK_MPI(MPI_Init(&argc, &argv));
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  CHECK_MPI(MPI_T_pvar_session_create(&session));
  MPI_Comm dup, ring, dup_ring;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  /* The neighbourhood family runs on periodic rings (1-D Cartesian). */
  const int periodic = 1;
  CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &np, &periodic, 0, &ring));
  CHECK_MPI(MPI_Cart_create(dup, 1, &np, &periodic, 0, &dup_ring));
  MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(dup_ring, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  const int counts[] = {0, 1, 100, 3000, 20000};
  for (int f = 0; f < kFamilies; ++f) {
    const int cvar = cvar_of(f);
    for (int a = 0; a < kAlgos; ++a) {
      char item[64];
      snprintf(item, sizeof item, "force_%s", kAlgo[a]);
      const int v = enum_value(cvar, item);
      CHECK(v >= 4);
      char pname[96];
      int pindex;
      snprintf(pname, sizeof pname, "coll_%s_%s", kFamily[f], kAlgo[a]);
      if (MPI_T_pvar_get_index(pname, MPI_T_PVAR_CLASS_COUNTER, &pindex) != MPI_SUCCESS) {
        /* not in this family's table: refused */
        CHECK(set_cvar(cvar, v) == MPI_T_ERR_INVALID);
        continue;
      }
      CHECK_MPI(set_cvar(cvar, v));
      /* A communicator made for this algorithm (its first barrier fixes its
       * segment barrier's kind: segment or numa_leaders), WORLD and the dup
       * made at the start, which keep theirs. */
      MPI_Comm fresh;
      if (f == 10)
        CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &np, &periodic, 0, &fresh));
      else
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &fresh));
      MPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
      for (int c = 0; c < 3; ++c) {
        MPI_Comm comm = c == 2 ? fresh : f == 10 ? (c ? dup_ring : ring) : c ? dup : MPI_COMM_WORLD;
        for (int k = 0; k < (int)(sizeof counts / sizeof counts[0]); ++k)
          for (int stride = 1; stride <= 2; ++stride)
            for (int nb = 0; nb <= 1; ++nb)
              for (int ip = 0; ip <= 1; ++ip) {
                const int count = f == 8 ? counts[k] * np : counts[k];
                if (f == 0 && (k || stride == 2 || ip)) continue; /* a barrier has no data */
                if (f == 8 && (stride == 2 || ip)) continue;
                if ((f == 1 || f == 5 || f == 10) && ip) continue; /* no MPI_IN_PLACE there */
                Counters before;
                open_counters(comm, f, &before);
                const int rc = run(comm, f, count, stride, nb, ip);
                /* Zero-byte calls return before the choice, but scatterv's (a rank
                 * knows only its own count; on two ranks it returns too: each side
                 * knows the other's block) and the neighbourhood ones (allgatherv
                 * with every count 0 returns too: every rank knows every count). */
                const int chosen = count > 0 || f == 0 || (f == 2 && np != 2) || f == 10;
                if (rc != MPI_SUCCESS && must_run(comm, f, a, count, stride, nb))
                  fprintf(stderr, "rank %d: %s forced %s refused count %d stride %d nb %d in place %d\n", me,
                          kFamily[f], kAlgo[a], count, stride, nb, ip);
                CHECK(rc == MPI_SUCCESS || !must_run(comm, f, a, count, stride, nb));
                account(f, a, rc, chosen, &before);
              }
      }
      CHECK_MPI(MPI_Comm_free(&fresh));
    }
    CHECK_MPI(set_cvar(cvar, 0)); /* back to the default choice */
  }
  /* Every algorithm that can run here ran. */
  for (int f = 0; f < kFamilies; ++f) {
    if (np >= 2) CHECK(ran[f][1] > 0); /* segment */
    if (f != 9 && f != 0) CHECK(ran[f][5] > 0);
  }
  CHECK(ran[0][3] > 0); /* world_counter */
  if (np == 1) CHECK(ran[0][0] > 0); /* local */
#ifdef NUMA_LAYOUT
  if (numa && np >= 3) {
    for (int f = 0; f < kFamilies; ++f)
      if (f == 0 || f == 1 || f == 6 || f == 7) {
        if (ran[f][2] == 0) fprintf(stderr, "rank %d: %s: numa_leaders never ran\n", me, kFamily[f]);
        CHECK(ran[f][2] > 0);
      }
  }
#endif
  thresholds();
  segment_sizes();
  CHECK_MPI(MPI_T_pvar_session_free(&session));
  MPI_Comm_free(&dup);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&dup_ring);
  CHECK_MPI(MPI_Finalize());
  CHECK_MPI(MPI_T_finalize());
  if (me == 0) printf("coll_algorithms: ok\n");
  return 0;
}
