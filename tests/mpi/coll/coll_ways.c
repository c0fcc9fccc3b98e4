/* Every way of the shared segment forced, family by family
 * (docs/guide/collective-algorithms.md, "The segment's ways"): the test
 * writes the family's MPI_T control variable RINGMPI_COLL_<FAMILY> with the
 * enum item "force_segment_<way>" for each way the family has (its
 * performance variable coll_<family>_segment_<way> exists), runs the
 * family's blocking calls over several sizes, contiguous and derived
 * datatypes, in place, on MPI_COMM_WORLD and a duplicate, and checks for
 * each call:
 *   - every rank got the same result class: MPI_SUCCESS, or
 *     MPI_ERR_UNSUPPORTED_OPERATION with a message naming the variable and
 *     why, where the way cannot run the call (never a silent fallback);
 *   - a call that ran gave the right data and moved coll_<family>_segment
 *     and coll_<family>_<way> by one, no other way's, messages' or
 *     schedule's counter; a refused one moved none;
 *   - what must run did (a slot way for data that fits a slot region, by
 *     address with single copy, split at np 2, chunks of any contiguous
 *     vector), and what cannot run was refused (a slot way for data larger
 *     than a slot region, split beyond two ranks, reductions of derived
 *     datatypes, by address without single copy, every way at np 1, every
 *     nonblocking call and persistent start).
 * Then the default choice: the way it took is counted beside segment.
 * Under RINGMPI_FORCE_COPY_FALLBACK=1 (coll_ways_fallback) single copy is
 * refused: the by-address ways fail on every rank. A setting given in the
 * environment (coll_ways_env: RINGMPI_COLL_ALLREDUCE=segment_chunks) is
 * forced from the first call. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

enum { kFamilies = 9, kWays = 7, kSlotFits = 120 * 1024 };
static const char* kFamily[kFamilies] = {"bcast",  "scatter",   "gather",         "allgather", "alltoall",
                                         "reduce", "allreduce", "reduce_scatter", "scan"};
static const char* kWay[kWays] = {"segment_slot",   "segment_address", "segment_split", "segment_whole",
                                  "segment_blocks", "segment_chunks",  "segment_chain"};
/* The family's other counters that a forced way must not move. */
static const char* kOther[] = {"numa_leaders", "messages", "schedule"};

static int me, np, single_copy;
static MPI_T_pvar_session session;
static int ran[kFamilies][kWays], refused[kFamilies][kWays];

static int cvar_of(const char* family) {
  char name[64];
  snprintf(name, sizeof name, "RINGMPI_COLL_%s", family);
  for (char* p = name; *p; ++p) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
  int index;
  CHECK_MPI(MPI_T_cvar_get_index(name, &index));
  return index;
}
static int enum_value(int cvar, const char* item) {
  MPI_T_enum e;
  MPI_Datatype dt;
  CHECK_MPI(MPI_T_cvar_get_info(cvar, NULL, NULL, NULL, &dt, &e, NULL, NULL, NULL, NULL));
  int items, elen = 64;
  char ename[64];
  CHECK_MPI(MPI_T_enum_get_info(e, &items, ename, &elen));
  for (int i = 0; i < items; ++i) {
    char iname[64];
    int ilen = sizeof iname, value;
    CHECK_MPI(MPI_T_enum_get_item(e, i, &value, iname, &ilen));
    if (strcmp(iname, item) == 0) return value;
  }
  return -1;
}
static void set_cvar(int cvar, int value) {
  MPI_T_cvar_handle h;
  int count;
  CHECK_MPI(MPI_T_cvar_handle_alloc(cvar, NULL, &h, &count));
  CHECK_MPI(MPI_T_cvar_write(h, &value));
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

/* Per-communicator counters of one family: segment, every way, the others. */
enum { kCounters = 1 + kWays + 3 };
typedef struct {
  int has[kCounters];
  MPI_T_pvar_handle h[kCounters];
} Counters;
static const char* counter_name(int i) { return i == 0 ? "segment" : i <= kWays ? kWay[i - 1] : kOther[i - 1 - kWays]; }
static int pvar_index(int f, const char* algo, int* index) {
  char name[96];
  snprintf(name, sizeof name, "coll_%s_%s", kFamily[f], algo);
  return MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, index) == MPI_SUCCESS;
}
static void open_counters(MPI_Comm comm, int f, Counters* c) {
  for (int i = 0; i < kCounters; ++i) {
    int index, count;
    c->has[i] = pvar_index(f, counter_name(i), &index);
    if (c->has[i]) CHECK_MPI(MPI_T_pvar_handle_alloc(session, index, &comm, &c->h[i], &count));
  }
}
static void close_counters(Counters* c, long long moved[kCounters]) {
  for (int i = 0; i < kCounters; ++i) {
    moved[i] = 0;
    if (!c->has[i]) continue;
    unsigned long long v;
    CHECK_MPI(MPI_T_pvar_read(session, c->h[i], &v));
    CHECK_MPI(MPI_T_pvar_handle_free(session, &c->h[i]));
    moved[i] = (long long)v;
  }
}

/* Every rank's result class agrees (point-to-point, off the family under test). */
static void agree(int rc) {
  if (me == 0) {
    for (int r = 1; r < np; ++r) {
      int other;
      CHECK_MPI(MPI_Recv(&other, 1, MPI_INT, r, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(other == rc);
    }
  } else {
    CHECK_MPI(MPI_Send(&rc, 1, MPI_INT, 0, 78, MPI_COMM_WORLD));
  }
}

/* The error handler: ringmpi passes the call's name and its message after
 * the standard arguments; kept for the checks. */
static char last_message[1024];
static void keep_message(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  (void)code;
  va_list ap;
  va_start(ap, code);
  const char* call = va_arg(ap, const char*);
  const char* message = va_arg(ap, const char*);
  va_end(ap);
  snprintf(last_message, sizeof last_message, "%s: %s", call ? call : "?", message ? message : "?");
}

static int value(int rank, int i) { return rank * 1000 + i % 997; }

/* One blocking call of family f: `count` ints (stride 2: a derived vector
 * of every other int), checked. `exscan`: MPI_Exscan for the scan family;
 * `v`: the v form (scatterv). Returns the result class. */
static int run(MPI_Comm comm, int f, int count, int stride, int in_place, int v) {
  MPI_Datatype t = MPI_INT;
  if (stride == 2) {
    MPI_Datatype vec;
    MPI_Type_vector(count, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * count) * (MPI_Aint)sizeof(int), &t);
    MPI_Type_free(&vec);
    MPI_Type_commit(&t);
  }
  const int tc = stride == 2 ? 1 : count;
  const size_t span = (size_t)count * (size_t)stride;
  int* a = calloc(span * (size_t)np + 1, sizeof(int));
  int* b = calloc(span * (size_t)np + 1, sizeof(int));
  int* counts = malloc(sizeof(int) * (size_t)np);
  int* displs = malloc(sizeof(int) * (size_t)np);
  for (int r = 0; r < np; ++r) {
    counts[r] = tc;
    displs[r] = stride == 2 ? r : r * count;
  }
  const int root = np - 1;
  int rc = MPI_SUCCESS;
  switch (f) {
    case 0:
      for (size_t i = 0; i < span; i += (size_t)stride) a[i] = me == root ? value(root, (int)i) : -1;
      rc = MPI_Bcast(a, tc, t, root, comm);
      break;
    case 1:
      if (me == root)
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)r * span + i] = value(r, (int)i);
      rc = v ? MPI_Scatterv(a, counts, displs, t, in_place && me == root ? MPI_IN_PLACE : b, tc, t, root, comm)
             : MPI_Scatter(a, tc, t, in_place && me == root ? MPI_IN_PLACE : b, tc, t, root, comm);
      break;
    case 2:
      for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)me * span + i] = b[i] = value(me, (int)i);
      rc = MPI_Gather(in_place && me == root ? MPI_IN_PLACE : b, tc, t, a, tc, t, root, comm);
      break;
    case 3:
      for (size_t i = 0; i < span; i += (size_t)stride) b[(size_t)me * span + i] = a[i] = value(me, (int)i);
      rc = MPI_Allgather(in_place ? MPI_IN_PLACE : a, tc, t, b, tc, t, comm);
      break;
    case 4:
      for (int r = 0; r < np; ++r)
        for (size_t i = 0; i < span; i += (size_t)stride) a[(size_t)r * span + i] = value(me, r * 7 + (int)i);
      rc = MPI_Alltoall(in_place ? MPI_IN_PLACE : a, tc, t, in_place ? a : b, tc, t, comm);
      break;
    case 7:
      for (size_t i = 0; i < span * (size_t)np; i += (size_t)stride) a[i] = value(me, (int)i);
      rc = MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : a, in_place ? a : b, tc, t, MPI_SUM, comm);
      break;
    default: {
      for (size_t i = 0; i < span; i += (size_t)stride) a[i] = value(me, (int)i);
      void* send = in_place ? MPI_IN_PLACE : a;
      void* recv = in_place ? a : b;
      if (f == 5)
        rc = MPI_Reduce(in_place && me != root ? a : send, in_place && me != root ? b : recv, tc, t, MPI_SUM, root,
                        comm);
      else if (f == 6)
        rc = MPI_Allreduce(send, recv, tc, t, MPI_SUM, comm);
      else if (v)
        rc = MPI_Exscan(send, recv, tc, t, MPI_SUM, comm);
      else
        rc = MPI_Scan(send, recv, tc, t, MPI_SUM, comm);
      break;
    }
  }
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int len, cls;
    MPI_Error_string(rc, text, &len);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_UNSUPPORTED_OPERATION || getenv("COLL_WAYS_VERBOSE"))
      fprintf(stderr, "rank %d: %s count %d stride %d in place %d v %d: %s: %s\n", me, kFamily[f], count, stride,
              in_place, v, text, last_message);
    if (cls == MPI_ERR_UNSUPPORTED_OPERATION) { /* "RINGMPI_COLL_<FAMILY>=segment_<way> cannot run this call: why" */
      CHECK(strstr(last_message, "RINGMPI_COLL_") != NULL);
      CHECK(strstr(last_message, "=segment_") != NULL);
      CHECK(strstr(last_message, " cannot run this call: ") != NULL);
    }
    rc = cls;
  } else {
    const int sum_ranks = np * (np - 1) / 2;
    const int* res = in_place ? a : b;
    switch (f) {
      case 0:
        for (size_t i = 0; i < span; i += (size_t)stride) CHECK(a[i] == value(root, (int)i));
        break;
      case 1:
        if (!(in_place && me == root))
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(b[i] == value(me, (int)i));
        break;
      case 2:
        if (me == root)
          for (int r = 0; r < np; ++r)
            for (size_t i = 0; i < span; i += (size_t)stride) CHECK(a[(size_t)r * span + i] == value(r, (int)i));
        break;
      case 3:
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(b[(size_t)r * span + i] == value(r, (int)i));
        break;
      case 4:
        for (int r = 0; r < np; ++r)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(res[(size_t)r * span + i] == value(r, me * 7 + (int)i));
        break;
      case 5:
      case 6:
        if (f == 6 || me == root)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(res[i] == sum_ranks * 1000 + np * ((int)i % 997));
        break;
      case 7:
        for (size_t i = 0; i < span; i += (size_t)stride) {
          const int at = me * (int)span + (int)i;
          CHECK(res[i] == sum_ranks * 1000 + np * (at % 997));
        }
        break;
      case 8: {
        const int upto = v ? me * (me - 1) / 2 : me * (me + 1) / 2;
        const int terms = v ? me : me + 1;
        if (!v || me > 0)
          for (size_t i = 0; i < span; i += (size_t)stride) CHECK(res[i] == upto * 1000 + terms * ((int)i % 997));
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

/* 1: way w of family f must run the call, -1: must refuse it, 0: either
 * (sizes near a slot region's, which the test does not know exactly). */
static int expect(int f, int w, int count, int stride, int v) {
  if (np < 2) return -1;
  const int reduction = f >= 5;
  const size_t bytes = (size_t)count * sizeof(int) * (f == 7 ? (size_t)np : 1);  /* reduce_scatter: the vector */
  if (reduction && stride == 2) return -1;  /* contiguous datatypes only */
  const char* way = kWay[w];
  if (strcmp(way, "segment_address") == 0) return single_copy ? 1 : -1;
  if (strcmp(way, "segment_split") == 0) return (np == 2 || f == 8) && single_copy ? 1 : -1; /* bcast: two ranks */
  if (strcmp(way, "segment_chunks") == 0) return 1;
  /* slot, whole, blocks, chain: the data in a slot region (at least 8 KiB, 128 KiB up to 22 ranks) */
  if (v && (f == 1 || f == 2)) return -1; /* scatterv: not every rank knows every block */
  const size_t in_slot = f == 1 || f == 4 ? bytes * (size_t)np + 64 * (size_t)(np + 2) : bytes;
  if (np <= 22 && in_slot > 256 * 1024) return -1;
  if (in_slot <= 4096) return 1;
  return np <= 22 && in_slot <= kSlotFits ? 1 : 0;
}

static void check_call(MPI_Comm comm, int f, int w, int count, int stride, int ip, int v) {
  Counters c;
  open_counters(comm, f, &c);
  last_message[0] = '\0';
  const int rc = run(comm, f, count, stride, ip, v);
  long long moved[kCounters];
  close_counters(&c, moved);
  CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_UNSUPPORTED_OPERATION);
  agree(rc);
  const int want = expect(f, w, count, stride, v);
  if ((want == 1 && rc != MPI_SUCCESS) || (want == -1 && rc == MPI_SUCCESS))
    fprintf(stderr, "rank %d: np %d %s forced %s count %d stride %d in place %d v %d: %s\n", me, np, kFamily[f],
            kWay[w], count, stride, ip, v, rc == MPI_SUCCESS ? "ran, should be refused" : "refused, should run");
  CHECK(want == 0 || (want == 1) == (rc == MPI_SUCCESS));
  for (int i = 0; i < kCounters; ++i) {
    const long long should = rc == MPI_SUCCESS && (i == 0 || i == w + 1) ? 1 : 0;
    if (moved[i] != should)
      fprintf(stderr, "rank %d: %s forced %s: counter %s moved by %lld (rc %d)\n", me, kFamily[f], kWay[w],
              counter_name(i), moved[i], rc);
    CHECK(moved[i] == should);
  }
  if (rc == MPI_SUCCESS)
    ++ran[f][w];
  else
    ++refused[f][w];
}

/* A nonblocking call under a forced way: refused on every rank. */
static void nonblocking_refused(int f) {
  int x = me, y = 0, cls;
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = f == 0 ? MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &req)
                  : MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION);
  CHECK(req == MPI_REQUEST_NULL);
}

/* A persistent bcast under a forced way: its start takes the nonblocking
 * form, which refuses the way, on every rank. */
static void persistent_refused(void) {
  int x = me, cls;
  MPI_Request req;
  CHECK_MPI(MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
  last_message[0] = '\0';
  MPI_Error_class(MPI_Start(&req), &cls);
  CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION);
  CHECK(strstr(last_message, "no nonblocking form") != NULL);
  agree(cls);
  CHECK_MPI(MPI_Request_free(&req));
}

/* The default choice counts the way it took beside segment. */
static void default_counts(MPI_Comm comm) {
  const int f = 6; /* allreduce of 100 ints: whole vectors; of 3000: by blocks through the slots */
  for (int k = 0; k < 2; ++k) {
    Counters c;
    open_counters(comm, f, &c);
    CHECK(run(comm, f, k ? 3000 : 100, 1, 0, 0) == MPI_SUCCESS);
    long long moved[kCounters];
    close_counters(&c, moved);
    long long ways = 0;
    for (int w = 0; w < kWays; ++w) ways += moved[w + 1];
    CHECK(ways == moved[0]); /* one way per segment call (uniform, contiguous) */
    if (np >= 3 && moved[0] == 1) CHECK(moved[k ? 5 : 4] == 1 || moved[2] == 1); /* blocks or whole (or address) */
  }
  Counters c;
  open_counters(comm, 0, &c);
  CHECK(run(comm, 0, 100, 1, 0, 0) == MPI_SUCCESS); /* a bcast of 400 bytes */
  long long moved[kCounters];
  close_counters(&c, moved);
  if (np >= 3) CHECK(moved[0] == 1 && moved[1] == 1);
}

int main(int argc, char** argv) {
  int provided;
  CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  CHECK_MPI(MPI_Init(&argc, &argv));
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  CHECK_MPI(MPI_T_pvar_session_create(&session));
  MPI_Errhandler keep;
  CHECK_MPI(MPI_Comm_create_errhandler(keep_message, &keep));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, keep);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK_MPI(MPI_Barrier(dup)); /* attaches its segment: single copy agreed */
  const char* fallback = getenv("RINGMPI_FORCE_COPY_FALLBACK");
  single_copy = !(fallback && strcmp(fallback, "1") == 0);

  /* A way forced in the environment runs from the first call. */
  const char* env = getenv("RINGMPI_COLL_ALLREDUCE");
  if (env && strcmp(env, "segment_chunks") == 0) {
    Counters c;
    open_counters(MPI_COMM_WORLD, 6, &c);
    const int rc = run(MPI_COMM_WORLD, 6, 40000, 1, 0, 0);
    long long moved[kCounters];
    close_counters(&c, moved);
    CHECK(rc == (np >= 2 ? MPI_SUCCESS : MPI_ERR_UNSUPPORTED_OPERATION));
    if (np >= 2) CHECK(moved[0] == 1 && moved[6] == 1);
  }

  const int counts[] = {1, 100, 3000, 40000};
  for (int f = 0; f < kFamilies; ++f) {
    const int cvar = cvar_of(kFamily[f]);
    for (int w = 0; w < kWays; ++w) {
      int index;
      char item[64];
      snprintf(item, sizeof item, "force_%s", kWay[w]);
      const int value = enum_value(cvar, item);
      CHECK(value > 0);
      if (!pvar_index(f, kWay[w], &index)) continue; /* not a way of this family */
      set_cvar(cvar, value);
      for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 4; ++k)
          for (int stride = 1; stride <= 2; ++stride)
            for (int ip = 0; ip <= 1; ++ip) {
              if (f == 0 && ip) continue; /* no MPI_IN_PLACE */
              if (c == 1 && (k == 0 || stride == 2)) continue; /* the duplicate: a few shapes */
              check_call(c ? dup : MPI_COMM_WORLD, f, w, counts[k], stride, ip, 0);
              /* the v form (scatterv) and MPI_Exscan, once a size */
              if ((f == 1 || f == 8) && stride == 1 && !ip && c == 0) check_call(MPI_COMM_WORLD, f, w, counts[k], 1, 0, 1);
            }
      if (f == 0 || f == 6) nonblocking_refused(f);
      if (f == 0) persistent_refused();
    }
    set_cvar(cvar, 0);
  }
  /* Every way ran somewhere where it can. */
  if (np >= 2)
    for (int f = 0; f < kFamilies; ++f)
      for (int w = 0; w < kWays; ++w) {
        int index;
        if (!pvar_index(f, kWay[w], &index)) continue;
        const int can = strcmp(kWay[w], "segment_split") == 0 ? (np == 2 || f == 8) && single_copy
                        : strcmp(kWay[w], "segment_address") == 0 ? single_copy
                                                                   : 1;
        if (can && ran[f][w] == 0) fprintf(stderr, "rank %d: %s %s never ran\n", me, kFamily[f], kWay[w]);
        CHECK(!can || ran[f][w] > 0);
        CHECK(can || ran[f][w] == 0);
      }
  default_counts(dup);
  CHECK_MPI(MPI_T_pvar_session_free(&session));
  MPI_Comm_free(&dup);
  MPI_Errhandler_free(&keep);
  CHECK_MPI(MPI_Finalize());
  CHECK_MPI(MPI_T_finalize());
  if (me == 0) printf("coll_ways: ok\n");
  return 0;
}
