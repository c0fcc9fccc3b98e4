/* The tool information interface (MPI-3.1 §14.3), written from the standard:
 * - MPI_T_init_thread before MPI_Init, reference-counted, every call outside
 *   it MPI_T_ERR_NOT_INITIALIZED (§14.3.4);
 * - the string protocol (§14.3.3) and get_index round trips of every control
 *   variable, performance variable and category; every control variable
 *   read; the items of an enumeration (§14.3.5);
 * - a performance variable session whose counter grows by the MPI_Barrier
 *   calls this program makes, forced onto messages by RINGMPI_COLL_BARRIER=2
 *   (meson.build), with per-handle starting values (§14.3.7);
 * - every error class a wrong call gets, returned and never handed to the
 *   (default, fatal) error handler (§14.3.9);
 * - MPI_T after MPI_Finalize, and again after a last MPI_T_finalize.
 * Portable source: it compiles against Open MPI and MPICH too (-Wall -Werror),
 * the checks of ringmpi's own variables are under #ifdef RINGMPI. Run under
 * Open MPI 4.1 it stops at the error checks, where that library answers
 * MPI_T_ERR_INVALID for an out-of-range index (MPI-3.1: _INVALID_INDEX) and
 * crashes on MPI_T_CVAR_HANDLE_NULL; tool_only.c runs there unchanged. */
#include "tool_common.h"

static int ncvar, npvar, ncat;

/* §14.3.3 on the name of control variable 0. */
static void check_string_protocol(void) {
  int len = 0;
  TCHECK_OK(MPI_T_cvar_get_info(0, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  TCHECK(len > 1);
  char *full = tool_fetch_string(tool_cvar_name, 0, NULL);
  char buf[8];
  /* Length 0: only the length comes back; the buffer is not touched. */
  memset(buf, 'z', sizeof buf);
  int n = 0;
  TCHECK_OK(MPI_T_cvar_get_info(0, buf, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  TCHECK(n == len && buf[0] == 'z');
  /* A NULL length: nothing comes back. */
  TCHECK_OK(MPI_T_cvar_get_info(0, buf, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  TCHECK(buf[0] == 'z');
  if (len > 4) {
    /* Truncated to n - 1 characters and a NUL; "the length of the string plus
     * one" comes back (Open MPI 4.1 returns the truncated length: not checked there). */
    n = 4;
    TCHECK_OK(MPI_T_cvar_get_info(0, buf, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    TCHECK(strlen(buf) == 3 && strncmp(buf, full, 3) == 0 && buf[4] == 'z');
#ifdef RINGMPI
    TCHECK(n == len);
#endif
    /* Length 1: just the NUL. */
    n = 1;
    TCHECK_OK(MPI_T_cvar_get_info(0, buf, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    TCHECK(buf[0] == '\0');
#ifdef RINGMPI
    TCHECK(n == len);
#endif
  }
#ifdef RINGMPI
  n = -1;
  EXPECT(MPI_T_cvar_get_info(0, buf, &n, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID);
#endif
  free(full);
}

static void check_enum(MPI_T_enum e, int value) {
  int num = -1, len = -1;
  TCHECK_OK(MPI_T_enum_get_info(e, &num, NULL, &len));
  TCHECK(num >= 1 && len >= 1);
  char *name = (char *)malloc((size_t)len);
  TCHECK_OK(MPI_T_enum_get_info(e, &num, name, &len));
  TCHECK((int)strlen(name) == len - 1);
  int found = 0;
  (void)found;
  for (int k = 0; k < num; ++k) {
    char *item = tool_fetch_string(tool_enum_item, k, &e);
    int v = -1;
    TCHECK_OK(MPI_T_enum_get_item(e, k, &v, NULL, NULL));
    if (v == value) found = 1;
#ifdef RINGMPI
    TCHECK(v == k);
    if (k == 0) TCHECK(strcmp(item, "auto") == 0);
    if (k == 2) TCHECK(strcmp(item, "messages") == 0);
#endif
    free(item);
  }
#ifdef RINGMPI
  TCHECK(found); /* the variable's value is one of the enumeration's (Open MPI has flag sets) */
  /* 0..3 the modes; the families' variables then force_<algorithm> (4..9)
   * and force_segment_<way> (10..16). */
  TCHECK(num == 4 || num == 17);
  EXPECT(MPI_T_enum_get_item(e, num, NULL, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
  EXPECT(MPI_T_enum_get_item(e, -1, NULL, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
#endif
  free(name);
}

static void check_cvars(void) {
  TCHECK_OK(MPI_T_cvar_get_num(&ncvar));
  TCHECK(ncvar >= 0);
  int enums_seen = 0;
#ifdef RINGMPI
  int thresholds_seen = 0;
#endif
  for (int i = 0; i < ncvar; ++i) {
    char *name = tool_fetch_string(tool_cvar_name, i, NULL);
    char *desc = tool_fetch_string(tool_cvar_desc, i, NULL);
    int verbosity = -1, bind = -1, scope = -1;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum e = MPI_T_ENUM_NULL;
    TCHECK_OK(MPI_T_cvar_get_info(i, NULL, NULL, &verbosity, &type, &e, NULL, NULL, &bind, &scope));
    TCHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL);
    TCHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ);
    int j = -1;
    TCHECK_OK(MPI_T_cvar_get_index(name, &j));
    TCHECK(j == i);
    union {
      int i;
      unsigned long long u;
      char bytes[4096];
    } v;
    const MPI_Datatype read_as = tool_read_cvar(i, &v, sizeof v);
    if (e != MPI_T_ENUM_NULL && read_as == MPI_INT) {
      check_enum(e, v.i);
      ++enums_seen;
    }
#ifdef RINGMPI
    TCHECK(strncmp(name, "RINGMPI_", 8) == 0 && strlen(desc) > 10);
    TCHECK(bind == MPI_T_BIND_NO_OBJECT);
    TCHECK(scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_READONLY || scope == MPI_T_SCOPE_ALL_EQ);
    TCHECK(read_as == MPI_INT || read_as == MPI_UNSIGNED_LONG_LONG);
    /* The collective thresholds (RINGMPI_COLL_PAIR_*, _SCHEDULE_MIN,
     * _SCAN_CHAIN_MAX, and the segment and schedule sizes _SPLIT_MIN,
     * _FOLD_WHOLE_MAX, _SINGLE_COPY_MIN, _NONBLOCKING_SINGLE_COPY_MIN,
     * _BLOCK_REDUCTION_MIN, _ALLTOALL_REDUCE_RANKS) are numbers; the
     * algorithm variables enumerations. */
    const int threshold = strncmp(name, "RINGMPI_COLL_PAIR_", 18) == 0 ||
                          strcmp(name, "RINGMPI_COLL_SCHEDULE_MIN") == 0 ||
                          strcmp(name, "RINGMPI_COLL_SCAN_CHAIN_MAX") == 0 ||
                          strcmp(name, "RINGMPI_COLL_SPLIT_MIN") == 0 ||
                          strcmp(name, "RINGMPI_COLL_FOLD_WHOLE_MAX") == 0 ||
                          strcmp(name, "RINGMPI_COLL_SINGLE_COPY_MIN") == 0 ||
                          strcmp(name, "RINGMPI_COLL_NONBLOCKING_SINGLE_COPY_MIN") == 0 ||
                          strcmp(name, "RINGMPI_COLL_BLOCK_REDUCTION_MIN") == 0 ||
                          strcmp(name, "RINGMPI_COLL_ALLTOALL_REDUCE_RANKS") == 0;
    if (threshold) ++thresholds_seen;
    TCHECK((strncmp(name, "RINGMPI_COLL_", 13) == 0 && !threshold) == (e != MPI_T_ENUM_NULL));
    /* Fixed for the whole run: MPI_T_ERR_CVAR_SET_NEVER; the collective
     * algorithm settings (MPI_T_SCOPE_ALL_EQ) take their own value back. */
    MPI_T_cvar_handle h;
    int count = 0;
    TCHECK_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
    TCHECK(count == 1);
    TCHECK((scope == MPI_T_SCOPE_ALL_EQ) == (strncmp(name, "RINGMPI_COLL_", 13) == 0));
    EXPECT(MPI_T_cvar_write(h, &v), scope == MPI_T_SCOPE_ALL_EQ ? MPI_SUCCESS : MPI_T_ERR_CVAR_SET_NEVER);
    TCHECK_OK(MPI_T_cvar_handle_free(&h));
#endif
    free(name);
    free(desc);
  }
#ifdef RINGMPI
  TCHECK(enums_seen == 11); /* RINGMPI_COLL_BARRIER .. RINGMPI_COLL_NEIGHBOR */
  TCHECK(thresholds_seen == 12); /* RINGMPI_COLL_PAIR_BCAST .. RINGMPI_COLL_ALLTOALL_REDUCE_RANKS */
  /* meson.build sets these four; the rest keep their defaults. */
  TCHECK(tool_cvar_number("RINGMPI_COLL_BARRIER") == 2);
  TCHECK(tool_cvar_number("RINGMPI_SPLIT_MIN") == 123456);
  TCHECK(tool_cvar_number("RINGMPI_COLL_SPLIT_MIN") == 4096);
  TCHECK(tool_cvar_number("RINGMPI_COLL_SINGLE_COPY_MIN") == 0);
  TCHECK(tool_cvar_number("RINGMPI_COLL_FOLD_WHOLE_MAX") == 2048);
  TCHECK(tool_cvar_number("RINGMPI_COLL_NONBLOCKING_SINGLE_COPY_MIN") == 16384);
  TCHECK(tool_cvar_number("RINGMPI_COLL_BLOCK_REDUCTION_MIN") == 32768);
  TCHECK(tool_cvar_number("RINGMPI_COLL_ALLTOALL_REDUCE_RANKS") == 16);
  TCHECK(tool_cvar_number("RINGMPI_COLL_BCAST") == 0);
  TCHECK(tool_cvar_number("RINGMPI_INTERNAL_EAGER_SAFE") == 4096);
  int i;
  TCHECK_OK(MPI_T_cvar_get_index("RINGMPI_SPLIT_MIN", &i));
  MPI_Datatype t;
  int scope;
  TCHECK_OK(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &t, NULL, NULL, NULL, NULL, &scope));
  TCHECK(t == MPI_UNSIGNED_LONG_LONG && scope == MPI_T_SCOPE_CONSTANT); /* its range passes INT_MAX */
#endif
}

static void check_pvars(void) {
  TCHECK_OK(MPI_T_pvar_get_num(&npvar));
  TCHECK(npvar >= 0);
  for (int i = 0; i < npvar; ++i) {
    char *name = tool_fetch_string(tool_pvar_name, i, NULL);
    char *desc = tool_fetch_string(tool_pvar_desc, i, NULL);
    int verbosity = -1, var_class = -1, bind = -1, readonly = -1, continuous = -1, atomic = -1;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum e;
    TCHECK_OK(MPI_T_pvar_get_info(i, NULL, NULL, &verbosity, &var_class, &type, &e, NULL, NULL, &bind, &readonly,
                                  &continuous, &atomic));
    TCHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL);
    int j = -1;
    TCHECK_OK(MPI_T_pvar_get_index(name, var_class, &j));
    TCHECK(j == i);
#ifdef RINGMPI
    TCHECK(var_class == MPI_T_PVAR_CLASS_COUNTER && type == MPI_UNSIGNED_LONG_LONG && e == MPI_T_ENUM_NULL);
    /* The collective algorithms' counters are per communicator (coll_<family>_<algorithm>). */
    TCHECK(bind == MPI_T_BIND_NO_OBJECT || (bind == MPI_T_BIND_MPI_COMM && strncmp(name, "coll_", 5) == 0));
    TCHECK(readonly == 1 && continuous == 1 && atomic == 0);
    TCHECK(strlen(desc) > 10);
    /* The name and the class together name a variable. */
    EXPECT(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_TIMER, &j), MPI_T_ERR_INVALID_NAME);
#endif
    free(name);
    free(desc);
  }
}

static void check_categories(void) {
  int stamp = -1, stamp2 = -2;
  TCHECK_OK(MPI_T_category_changed(&stamp));
  TCHECK_OK(MPI_T_category_get_num(&ncat));
  int *cvar_seen = (int *)calloc((size_t)ncvar + 1, sizeof(int));
  int *pvar_seen = (int *)calloc((size_t)npvar + 1, sizeof(int));
  for (int c = 0; c < ncat; ++c) {
    char *name = tool_fetch_string(tool_cat_name, c, NULL);
    char *desc = tool_fetch_string(tool_cat_desc, c, NULL);
    int nc = -1, np = -1, nk = -1;
    TCHECK_OK(MPI_T_category_get_info(c, NULL, NULL, NULL, NULL, &nc, &np, &nk));
    int j = -1;
    TCHECK_OK(MPI_T_category_get_index(name, &j));
    TCHECK(j == c);
    int *idx = (int *)malloc(sizeof(int) * (size_t)(nc + np + nk + 1));
    TCHECK_OK(MPI_T_category_get_cvars(c, nc, idx));
    for (int k = 0; k < nc; ++k) {
      TCHECK(idx[k] >= 0 && idx[k] < ncvar);
      cvar_seen[idx[k]] = 1;
    }
    TCHECK_OK(MPI_T_category_get_pvars(c, np, idx));
    for (int k = 0; k < np; ++k) {
      TCHECK(idx[k] >= 0 && idx[k] < npvar);
      pvar_seen[idx[k]] = 1;
    }
    TCHECK_OK(MPI_T_category_get_categories(c, nk, idx));
    for (int k = 0; k < nk; ++k) TCHECK(idx[k] >= 0 && idx[k] < ncat && idx[k] != c);
    /* len below the count: only the first len; len 0 with no array is fine. */
    if (nc >= 2) {
      int first[2] = {-1, -1}, again = -7;
      TCHECK_OK(MPI_T_category_get_cvars(c, 2, first));
      TCHECK_OK(MPI_T_category_get_cvars(c, 1, &again));
      TCHECK(again == first[0]);
    }
    TCHECK_OK(MPI_T_category_get_pvars(c, 0, NULL));
#ifdef RINGMPI
    EXPECT(MPI_T_category_get_cvars(c, -1, idx), MPI_T_ERR_INVALID);
    if (strcmp(name, "ringmpi") == 0) TCHECK(nk == 3 && nc == 0 && np == 0);
#endif
    free(idx);
    free(name);
    free(desc);
  }
#ifdef RINGMPI
  TCHECK(ncat == 4);
  /* Every variable is in a category. */
  for (int i = 0; i < ncvar; ++i) TCHECK(cvar_seen[i]);
  for (int i = 0; i < npvar; ++i) TCHECK(pvar_seen[i]);
#endif
  TCHECK_OK(MPI_T_category_changed(&stamp2));
  TCHECK(stamp2 == stamp);
  free(cvar_seen);
  free(pvar_seen);
}

/* Calls that must fail with exactly one class, whatever the variable. */
static void check_index_and_name_errors(void) {
  char buf[64];
  int len = sizeof buf, x = 0, count = 0;
  MPI_T_cvar_handle ch;
  EXPECT(MPI_T_cvar_get_info(-1, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_cvar_get_info(ncvar, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_cvar_handle_alloc(ncvar, NULL, &ch, &count), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_pvar_get_info(npvar, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
         MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_category_get_info(ncat, buf, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_category_get_cvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_category_get_pvars(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_category_get_categories(ncat, 0, NULL), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_cvar_get_index("no such variable", &x), MPI_T_ERR_INVALID_NAME);
  EXPECT(MPI_T_pvar_get_index("no such variable", MPI_T_PVAR_CLASS_COUNTER, &x), MPI_T_ERR_INVALID_NAME);
  EXPECT(MPI_T_category_get_index("no such category", &x), MPI_T_ERR_INVALID_NAME);

  /* Control variable handles: freed, NULL. */
  if (ncvar > 0) {
    TCHECK_OK(MPI_T_cvar_handle_alloc(0, NULL, &ch, &count));
    MPI_T_cvar_handle old = ch;
    TCHECK_OK(MPI_T_cvar_handle_free(&ch));
    union {
      unsigned long long u;
      char bytes[4096];
    } v;
    EXPECT(MPI_T_cvar_read(old, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_write(old, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_handle_free(&old), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
  }
#ifdef RINGMPI
  EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &x, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_enum_get_item(MPI_T_ENUM_NULL, 0, &x, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
  int provided;
  EXPECT(MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided), MPI_T_ERR_INVALID);
#endif
}

/* A session on the counter that RINGMPI_COLL_BARRIER=2 makes every MPI_Barrier
 * at np >= 2 increment (lib/coll/plan.cpp, prepare). */
static void check_pvar_session(int size) {
  int idx = -1, count = 0;
  if (MPI_T_pvar_get_index("coll_messages", MPI_T_PVAR_CLASS_COUNTER, &idx) != MPI_SUCCESS) return; /* not ringmpi */
  MPI_T_pvar_session s, s2;
  MPI_T_pvar_handle h, h2;
  unsigned long long v0 = 99, v1 = 0, v2 = 99;
  TCHECK_OK(MPI_T_pvar_session_create(&s));
  TCHECK_OK(MPI_T_pvar_handle_alloc(s, idx, NULL, &h, &count));
  TCHECK(count == 1);
  TCHECK_OK(MPI_T_pvar_read(s, h, &v0));
  TCHECK(v0 == 0); /* the class's starting value: the handle counts from its allocation */
  for (int k = 0; k < 5; ++k) TCHECK_OK(MPI_Barrier(MPI_COMM_WORLD));
  TCHECK_OK(MPI_T_pvar_read(s, h, &v1));
  if (size > 1)
    TCHECK(v1 >= 5);
  else
    TCHECK(v1 == 0); /* one rank: a barrier has nothing to do */

  /* A second session: its own handle starts at 0 again; the first one's
   * handle is not valid in it. */
  TCHECK_OK(MPI_T_pvar_session_create(&s2));
  TCHECK(s2 != s);
  TCHECK_OK(MPI_T_pvar_handle_alloc(s2, idx, NULL, &h2, &count));
  TCHECK_OK(MPI_T_pvar_read(s2, h2, &v2));
  TCHECK(v2 == 0);
  EXPECT(MPI_T_pvar_read(s2, h, &v2), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_pvar_handle_free(s2, &h), MPI_T_ERR_INVALID_HANDLE);
  TCHECK_OK(MPI_T_pvar_read(s, h, &v2));
  TCHECK(v2 >= v1);

  /* Continuous: cannot be started or stopped; MPI_T_PVAR_ALL_HANDLES skips it. */
  EXPECT(MPI_T_pvar_start(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
  EXPECT(MPI_T_pvar_stop(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
  TCHECK_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
  TCHECK_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
  /* Read-only: cannot be written or reset; MPI_T_PVAR_ALL_HANDLES skips it in a reset. */
  unsigned long long zero = 0;
  EXPECT(MPI_T_pvar_write(s, h, &zero), MPI_T_ERR_PVAR_NO_WRITE);
  EXPECT(MPI_T_pvar_reset(s, h), MPI_T_ERR_PVAR_NO_WRITE);
  EXPECT(MPI_T_pvar_readreset(s, h, &v2), MPI_T_ERR_PVAR_NO_WRITE);
  TCHECK_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
  /* MPI_T_PVAR_ALL_HANDLES cannot be read or written. */
  EXPECT(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v2), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &zero), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &v2), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_pvar_read(s, MPI_T_PVAR_HANDLE_NULL, &v2), MPI_T_ERR_INVALID_HANDLE);

  /* Bad sessions and indices. */
  EXPECT(MPI_T_pvar_start(MPI_T_PVAR_SESSION_NULL, MPI_T_PVAR_ALL_HANDLES), MPI_T_ERR_INVALID_SESSION);
  EXPECT(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, h, &v2), MPI_T_ERR_INVALID_SESSION);
  EXPECT(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, idx, NULL, &h2, &count), MPI_T_ERR_INVALID_SESSION);
  EXPECT(MPI_T_pvar_handle_alloc(s, npvar, NULL, &h2, &count), MPI_T_ERR_INVALID_INDEX);
  EXPECT(MPI_T_pvar_handle_alloc(s, -1, NULL, &h2, &count), MPI_T_ERR_INVALID_INDEX);

  /* Freeing: the handle becomes MPI_T_PVAR_HANDLE_NULL and the old value is invalid. */
  MPI_T_pvar_handle old = h;
  TCHECK_OK(MPI_T_pvar_handle_free(s, &h));
  TCHECK(h == MPI_T_PVAR_HANDLE_NULL);
  EXPECT(MPI_T_pvar_read(s, old, &v2), MPI_T_ERR_INVALID_HANDLE);
  EXPECT(MPI_T_pvar_handle_free(s, &old), MPI_T_ERR_INVALID_HANDLE);
  /* Freeing a session frees its handles. */
  MPI_T_pvar_session old_s = s2;
  TCHECK_OK(MPI_T_pvar_session_free(&s2));
  TCHECK(s2 == MPI_T_PVAR_SESSION_NULL);
  EXPECT(MPI_T_pvar_read(old_s, h2, &v2), MPI_T_ERR_INVALID_SESSION);
  EXPECT(MPI_T_pvar_session_free(&old_s), MPI_T_ERR_INVALID_SESSION);
  TCHECK_OK(MPI_T_pvar_session_free(&s));
}

/* Every function answers MPI_T_ERR_NOT_INITIALIZED outside MPI_T_init_thread/finalize. */
static void check_not_initialized(void) {
  int x = 0;
  char buf[8];
  int len = sizeof buf;
  MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
  MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
  MPI_T_pvar_handle ph = MPI_T_PVAR_HANDLE_NULL;
  unsigned long long v;
  EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &x, buf, &len), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_enum_get_item(MPI_T_ENUM_NULL, 0, &x, buf, &len), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_get_num(&x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_get_info(0, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_get_index("RINGMPI_EAGER_LIMIT", &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_handle_alloc(0, NULL, &ch, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_handle_free(&ch), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_read(ch, &v), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_cvar_write(ch, &v), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_get_num(&x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_get_info(0, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
         MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_get_index("coll_messages", MPI_T_PVAR_CLASS_COUNTER, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_session_free(&s), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_handle_alloc(s, 0, NULL, &ph, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_handle_free(s, &ph), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_start(s, ph), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_stop(s, ph), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_read(s, ph, &v), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_write(s, ph, &v), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_reset(s, ph), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_pvar_readreset(s, ph, &v), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_num(&x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_info(0, buf, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_index("ringmpi", &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_cvars(0, 1, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_pvars(0, 1, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_get_categories(0, 1, &x), MPI_T_ERR_NOT_INITIALIZED);
  EXPECT(MPI_T_category_changed(&x), MPI_T_ERR_NOT_INITIALIZED);
}

/* The classes are classes, with their own strings (MPI_Error_class/string). */
static void check_error_classes(void) {
  const int classes[] = {MPI_T_ERR_MEMORY, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_CANNOT_INIT,
                         MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_ITEM, MPI_T_ERR_INVALID_HANDLE,
                         MPI_T_ERR_OUT_OF_HANDLES, MPI_T_ERR_OUT_OF_SESSIONS, MPI_T_ERR_INVALID_SESSION,
                         MPI_T_ERR_CVAR_SET_NOT_NOW, MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_PVAR_NO_STARTSTOP,
                         MPI_T_ERR_PVAR_NO_WRITE, MPI_T_ERR_PVAR_NO_ATOMIC, MPI_T_ERR_INVALID_NAME,
                         MPI_T_ERR_INVALID};
  char s[MPI_MAX_ERROR_STRING], other[MPI_MAX_ERROR_STRING];
  int len, c;
  TCHECK_OK(MPI_Error_string(MPI_ERR_OTHER, other, &len));
  for (unsigned k = 0; k < sizeof classes / sizeof classes[0]; ++k) {
    TCHECK(classes[k] > MPI_SUCCESS && classes[k] <= MPI_ERR_LASTCODE);
    TCHECK_OK(MPI_Error_class(classes[k], &c));
    TCHECK(c == classes[k]);
    TCHECK_OK(MPI_Error_string(classes[k], s, &len));
    TCHECK(len > 0 && len == (int)strlen(s) && strcmp(s, other) != 0);
    for (unsigned m = 0; m < k; ++m) TCHECK(classes[m] != classes[k]);
  }
}

int main(int argc, char **argv) {
  int provided = -1;
  /* Before MPI_Init: not initialized, then initialized twice (a tool and the program). */
  check_not_initialized();
  TCHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  TCHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
  TCHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
  TCHECK_OK(MPI_T_finalize()); /* one still open */
  TCHECK_OK(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided));

  check_string_protocol();
  check_cvars();
  check_pvars();
  check_categories();
  check_index_and_name_errors();
#ifdef RINGMPI
  /* Before MPI_Init the eager limit is not chosen yet: what the environment asks for, else 0. */
  const unsigned long long eager_before = tool_cvar_number("RINGMPI_EAGER_LIMIT");
  TCHECK(eager_before == (getenv("RINGMPI_EAGER_LIMIT") ? strtoull(getenv("RINGMPI_EAGER_LIMIT"), NULL, 10) : 0));
#endif

  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  check_pvar_session(size);
  check_error_classes();
  check_index_and_name_errors(); /* still returned, not handed to the fatal handler */
#ifdef RINGMPI
  /* From MPI_Init on: the values in use (docs/guide/tunables.md). */
  const unsigned long long eager = tool_cvar_number("RINGMPI_EAGER_LIMIT");
  const unsigned long long ring = tool_cvar_number("RINGMPI_RING_BYTES");
  TCHECK(eager >= 4096 && eager <= 16 << 20);
  TCHECK(ring >= 16384 && (ring & (ring - 1)) == 0);
  TCHECK(tool_cvar_number("RINGMPI_YIELD_US") > 0);
  TCHECK(tool_cvar_number("RINGMPI_CHUNK") >= 64);
#endif
  MPI_Finalize();

  /* After MPI_Finalize: still usable while initialized. */
  int n = -1;
  TCHECK_OK(MPI_T_cvar_get_num(&n));
  TCHECK(n == ncvar);
#ifdef RINGMPI
  TCHECK(tool_cvar_number("RINGMPI_EAGER_LIMIT") == eager);
#endif
  MPI_T_pvar_session s;
  TCHECK_OK(MPI_T_pvar_session_create(&s));
  if (npvar > 0) {
    MPI_T_pvar_handle h;
    int count;
    unsigned long long v = 99;
    TCHECK_OK(MPI_T_pvar_handle_alloc(s, 0, NULL, &h, &count));
    TCHECK_OK(MPI_T_pvar_read(s, h, &v));
#ifdef RINGMPI
    TCHECK(v == 0);
#endif
  }
  /* Two MPI_T_init_thread calls are open (main): the first MPI_T_finalize
   * leaves the interface and the session usable ... */
  TCHECK_OK(MPI_T_finalize());
  TCHECK_OK(MPI_T_cvar_get_num(&n));
  if (npvar > 0) {
    MPI_T_pvar_handle h;
    int count;
    TCHECK_OK(MPI_T_pvar_handle_alloc(s, 0, NULL, &h, &count));
  }
  /* ... the last one ends it: every handle and session is gone, and so is the interface. */
  TCHECK_OK(MPI_T_finalize());
  check_not_initialized();
  /* It can be initialized again; the old session is not valid any more. */
  TCHECK_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
#ifdef RINGMPI
  EXPECT(MPI_T_pvar_session_free(&s), MPI_T_ERR_INVALID_SESSION);
#endif
  TCHECK_OK(MPI_T_cvar_get_num(&n));
  TCHECK_OK(MPI_T_finalize());
  EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
  if (rank == 0) printf("tool_mpit: %d control, %d performance variables, %d categories\n", ncvar, npvar, ncat);
  return 0;
}
