/* The plan's entry memo (coll/plan.hpp Plan::Quick, issue 36): a call whose
 * key matches the last call of its family on the communicator takes that
 * call's algorithm without choosing again. The test checks that the memo
 * never answers what a fresh choice would not:
 *   1. fresh: each call and size once on a new duplicate of MPI_COMM_WORLD
 *      (freed at once, so the next duplicate may get its address, context
 *      and plan: a memo that outlived its communicator would show), the
 *      algorithm it ran read from the process counters coll_<family>_<algo>
 *      (exactly one of them moves by one per call, alike on every rank);
 *   2. mixed: the same calls on one long-lived duplicate in changing orders
 *      of sizes, roots and calls (the same family at other sizes, the v and
 *      uniform forms of a family, blocking and nonblocking), each with
 *      checked data, must run the fresh algorithm and count one call;
 *   3. settings: after an MPI_T write of RINGMPI_COLL_PAIR_BCAST and
 *      RINGMPI_COLL_PAIR_MAX (0: at np 2 the small calls leave messages for
 *      the segment) and of RINGMPI_COLL_ALLGATHER (force_schedule), the
 *      long-lived communicator's calls follow the fresh choice under the new
 *      settings, and again after the old values are written back. */
#include <stdlib.h>
#include <string.h>

#include "../check.h"

enum { kAlgos = 6, kSizes = 6, kMaxCount = 40000 };
static const char* kAlgo[kAlgos] = {"local", "segment", "numa_leaders", "world_counter", "messages", "schedule"};
static const int kCount[kSizes] = {1, 64, 600, 3000, 9000, kMaxCount};

enum Op {
  BCAST, SCATTER, SCATTERV, GATHER, GATHERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV,
  REDUCE, ALLREDUCE, RSB, SCAN, EXSCAN, IBCAST, IALLGATHER, IALLREDUCE, kOps
};
static const char* kFamilyOf[kOps] = {"bcast",     "scatter",   "scatter",        "gather",   "gather",  "allgather",
                                      "allgather", "alltoall",  "alltoall",       "reduce",   "allreduce",
                                      "reduce_scatter", "scan", "scan",           "bcast",    "allgather",
                                      "allreduce"};

static int me, np;
static int *sbuf, *rbuf, *counts, *displs;

static void counters(int op, long long v[kAlgos]) {
  for (int a = 0; a < kAlgos; ++a) {
    char name[96];
    snprintf(name, sizeof name, "coll_%s_%s", kFamilyOf[op], kAlgo[a]);
    MPI_Count c = 0;
    v[a] = MPIX_Query_counter(name, &c) == MPI_SUCCESS ? (long long)c : 0;
  }
}

static int val(int rank, int i, int salt) { return rank * 1000003 + i * 7 + salt; }

/* Runs op with n ints per block (root `root`) on comm, checks the data,
 * returns the algorithm that ran (the same on every rank). */
static int run(int op, int n, int root, MPI_Comm comm, int salt) {
  long long before[kAlgos], after[kAlgos];
  const size_t total = (size_t)np * (size_t)n;
  for (size_t i = 0; i < total; ++i) sbuf[i] = val(me, (int)i, salt);
  memset(rbuf, 0xff, total * sizeof(int));
  for (int i = 0; i < np; ++i) {
    counts[i] = n;
    displs[i] = i * n;
  }
  MPI_Request q = MPI_REQUEST_NULL;
  counters(op, before);
  switch (op) {
    case BCAST: CHECK_MPI(MPI_Bcast(me == root ? sbuf : rbuf, n, MPI_INT, root, comm)); break;
    case IBCAST: CHECK_MPI(MPI_Ibcast(me == root ? sbuf : rbuf, n, MPI_INT, root, comm, &q)); break;
    case SCATTER: CHECK_MPI(MPI_Scatter(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, comm)); break;
    case SCATTERV: CHECK_MPI(MPI_Scatterv(sbuf, counts, displs, MPI_INT, rbuf, n, MPI_INT, root, comm)); break;
    case GATHER: CHECK_MPI(MPI_Gather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, comm)); break;
    case GATHERV: CHECK_MPI(MPI_Gatherv(sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, root, comm)); break;
    case ALLGATHER: CHECK_MPI(MPI_Allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm)); break;
    case IALLGATHER: CHECK_MPI(MPI_Iallgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm, &q)); break;
    case ALLGATHERV: CHECK_MPI(MPI_Allgatherv(sbuf, n, MPI_INT, rbuf, counts, displs, MPI_INT, comm)); break;
    case ALLTOALL: CHECK_MPI(MPI_Alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, comm)); break;
    case ALLTOALLV:
      CHECK_MPI(MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, comm));
      break;
    case REDUCE: CHECK_MPI(MPI_Reduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, root, comm)); break;
    case ALLREDUCE: CHECK_MPI(MPI_Allreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, comm)); break;
    case IALLREDUCE: CHECK_MPI(MPI_Iallreduce(sbuf, rbuf, n, MPI_INT, MPI_SUM, comm, &q)); break;
    case RSB: CHECK_MPI(MPI_Reduce_scatter_block(sbuf, rbuf, n, MPI_INT, MPI_SUM, comm)); break;
    case SCAN: CHECK_MPI(MPI_Scan(sbuf, rbuf, n, MPI_INT, MPI_SUM, comm)); break;
    case EXSCAN: CHECK_MPI(MPI_Exscan(sbuf, rbuf, n, MPI_INT, MPI_SUM, comm)); break;
  }
  counters(op, after);
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  int which = -1, moved = 0;
  for (int a = 0; a < kAlgos; ++a) {
    CHECK(after[a] - before[a] == 0 || after[a] - before[a] == 1);
    if (after[a] != before[a]) {
      which = a;
      ++moved;
    }
  }
  CHECK(moved == 1);
  /* The data. */
  long long sum_below = 0;
  for (int i = 0; i < n; ++i) {
    switch (op) {
      case BCAST:
      case IBCAST:
        if (me != root) CHECK(rbuf[i] == val(root, i, salt));
        break;
      case SCATTER:
      case SCATTERV: CHECK(rbuf[i] == val(root, me * n + i, salt)); break;
      case GATHER:
      case GATHERV:
        if (me == root)
          for (int r = 0; r < np; ++r) CHECK(rbuf[r * n + i] == val(r, i, salt));
        break;
      case ALLGATHER:
      case IALLGATHER:
      case ALLGATHERV:
        for (int r = 0; r < np; ++r) CHECK(rbuf[r * n + i] == val(r, i, salt));
        break;
      case ALLTOALL:
      case ALLTOALLV:
        for (int r = 0; r < np; ++r) CHECK(rbuf[r * n + i] == val(r, me * n + i, salt));
        break;
      default: {
        int want = 0;
        const int upto = op == SCAN ? me : op == EXSCAN ? me - 1 : np - 1;
        const int idx = op == RSB ? me * n + i : i;
        for (int r = 0; r <= upto; ++r) want += val(r, idx, salt);
        if (op == REDUCE && me != root) break;
        if (op == EXSCAN && me == 0) break;
        CHECK(rbuf[i] == want);
      }
    }
  }
  (void)sum_below;
  /* Every rank ran the same algorithm. */
  int* all = malloc(sizeof(int) * (size_t)np);
  CHECK_MPI(MPI_Allgather(&which, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
  for (int r = 0; r < np; ++r) CHECK(all[r] == which);
  free(all);
  return which;
}

static int fresh[kOps][kSizes];

static void fresh_choices(void) {
  for (int op = 0; op < kOps; ++op)
    for (int s = 0; s < kSizes; ++s) {
      MPI_Comm d;
      CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
      fresh[op][s] = run(op, kCount[s], 0, d, op + s);
      CHECK_MPI(MPI_Comm_free(&d));
    }
}

/* The long-lived communicator: orders that change the key of a family
 * between calls, and repeat it. */
static void mixed(MPI_Comm comm, int rounds, int max_size) {
  static const int order[][kSizes] = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {0, 0, 5, 5, 1, 4},
                                      {2, 3, 2, 3, 0, 1}};
  for (int r = 0; r < rounds; ++r)
    for (int o = 0; o < 4; ++o)
      for (int k = 0; k < kSizes; ++k) {
        const int s = order[o][k];
        if (s >= max_size) continue;
        for (int op = 0; op < kOps; ++op) {
          const int which = run(op, kCount[s], (r + k + op) % np, comm, r * 31 + k);
          if (which != fresh[op][s] && me == 0)
            fprintf(stderr, "op %d size %d: ran %s, fresh %s\n", op, kCount[s], kAlgo[which], kAlgo[fresh[op][s]]);
          CHECK(which == fresh[op][s]);
        }
      }
}

/* Every call at the smallest size on comm, against fresh: run right before
 * and right after a settings change, so that each family's memo holds the
 * very key the next call brings. */
static void smallest(MPI_Comm comm) {
  for (int op = 0; op < kOps; ++op) {
    const int which = run(op, kCount[0], op % np, comm, op);
    if (which != fresh[op][0] && me == 0)
      fprintf(stderr, "op %d size %d: ran %s, fresh %s\n", op, kCount[0], kAlgo[which], kAlgo[fresh[op][0]]);
    CHECK(which == fresh[op][0]);
  }
}

static void write_ull(const char* name, unsigned long long v, unsigned long long* old) {
  int index, count;
  MPI_T_cvar_handle h;
  CHECK_MPI(MPI_T_cvar_get_index(name, &index));
  CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
  if (old) CHECK_MPI(MPI_T_cvar_read(h, old));
  CHECK_MPI(MPI_T_cvar_write(h, &v));
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

/* RINGMPI_COLL_ALLGATHER's enum value `item` ("force_schedule", "auto"). */
static void write_enum(const char* name, const char* item) {
  int index, count, verbosity, bind, scope, len = 0, dlen = 0, items, value = -1;
  MPI_Datatype dt;
  MPI_T_enum e;
  CHECK_MPI(MPI_T_cvar_get_index(name, &index));
  CHECK_MPI(MPI_T_cvar_get_info(index, NULL, &len, &verbosity, &dt, &e, NULL, &dlen, &bind, &scope));
  char ename[64];
  int elen = sizeof ename;
  CHECK_MPI(MPI_T_enum_get_info(e, &items, ename, &elen));
  for (int i = 0; i < items; ++i) {
    char iname[64];
    int ilen = sizeof iname, v;
    CHECK_MPI(MPI_T_enum_get_item(e, i, &v, iname, &ilen));
    if (strcmp(iname, item) == 0) value = v;
  }
  CHECK(value >= 0);
  MPI_T_cvar_handle h;
  CHECK_MPI(MPI_T_cvar_handle_alloc(index, NULL, &h, &count));
  CHECK_MPI(MPI_T_cvar_write(h, &value));
  CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

int main(int argc, char** argv) {
  int provided;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &np));
  /* (A family without an algorithm has no counter of it: MPIX_Query_counter returns an error.) */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  const size_t total = (size_t)np * kMaxCount;
  sbuf = malloc(total * sizeof(int));
  rbuf = malloc(total * sizeof(int));
  counts = malloc((size_t)np * sizeof(int));
  displs = malloc((size_t)np * sizeof(int));
  CHECK(sbuf && rbuf && counts && displs);

  fresh_choices();
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  mixed(comm, 2, kSizes);

  /* New settings, then the old ones again. */
  smallest(comm);
  unsigned long long old_bcast, old_max;
  write_ull("RINGMPI_COLL_PAIR_BCAST", 0, &old_bcast);
  write_ull("RINGMPI_COLL_PAIR_MAX", 0, &old_max);
  write_enum("RINGMPI_COLL_ALLGATHER", "force_schedule");
  fresh_choices();
  for (int s = 0; s < kSizes; ++s) CHECK(fresh[ALLGATHER][s] == 5 && fresh[IALLGATHER][s] == 5);
  smallest(comm);
  mixed(comm, 1, 3);
  smallest(comm);
  write_ull("RINGMPI_COLL_PAIR_BCAST", old_bcast, NULL);
  write_ull("RINGMPI_COLL_PAIR_MAX", old_max, NULL);
  write_enum("RINGMPI_COLL_ALLGATHER", "auto");
  fresh_choices();
  smallest(comm);
  mixed(comm, 1, 3);

  CHECK_MPI(MPI_Comm_free(&comm));
  free(sbuf);
  free(rbuf);
  free(counts);
  free(displs);
  CHECK_MPI(MPI_T_finalize());
  if (me == 0) printf("coll_entry_memo: ok\n");
  CHECK_MPI(MPI_Finalize());
  return 0;
}
