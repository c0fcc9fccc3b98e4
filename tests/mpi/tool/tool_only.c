/* A program that uses the tool information interface and never calls
 * MPI_Init (MPI-3.1 §14.3.4: MPI_T_init_thread may be called at any time):
 * it lists every variable and category, reads every control variable and a
 * performance variable, from four threads at once (every MPI_T function is
 * thread-safe here; the threads each initialize and finalize the interface,
 * so the count goes up and down concurrently), and ends with the interface
 * finalized. Run under mpiexec (np 1, 2) and as a singleton. */
#include <pthread.h>

#include "tool_common.h"

enum { kThreads = 4, kRounds = 20 };

static int list_everything(void) {
  int ncvar = -1, npvar = -1, ncat = -1;
  TCHECK_OK(MPI_T_cvar_get_num(&ncvar));
  TCHECK_OK(MPI_T_pvar_get_num(&npvar));
  TCHECK_OK(MPI_T_category_get_num(&ncat));
  for (int i = 0; i < ncvar; ++i) {
    char *name = tool_fetch_string(tool_cvar_name, i, NULL);
    int j = -1;
    TCHECK_OK(MPI_T_cvar_get_index(name, &j));
    TCHECK(j == i);
    union {
      unsigned long long u;
      char bytes[4096];
    } v;
    tool_read_cvar(i, &v, sizeof v);
    free(name);
  }
  for (int i = 0; i < npvar; ++i) {
    char *name = tool_fetch_string(tool_pvar_name, i, NULL);
    int var_class = -1, j = -1;
    TCHECK_OK(MPI_T_pvar_get_info(i, NULL, NULL, NULL, &var_class, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    TCHECK_OK(MPI_T_pvar_get_index(name, var_class, &j));
    TCHECK(j == i);
    free(name);
  }
  for (int i = 0; i < ncat; ++i) free(tool_fetch_string(tool_cat_name, i, NULL));
  if (npvar > 0) {
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h;
    int count, bind = -1;
    TCHECK_OK(MPI_T_pvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bind, NULL, NULL, NULL));
    TCHECK_OK(MPI_T_pvar_session_create(&s));
    if (bind == MPI_T_BIND_NO_OBJECT) {
      union {
        unsigned long long u;
        char bytes[4096];
      } v;
      TCHECK_OK(MPI_T_pvar_handle_alloc(s, 0, NULL, &h, &count));
      TCHECK_OK(MPI_T_pvar_read(s, h, &v));
#ifdef RINGMPI
      TCHECK(v.u == 0); /* nothing ran: no MPI_Init */
#endif
      TCHECK_OK(MPI_T_pvar_handle_free(s, &h));
    }
    TCHECK_OK(MPI_T_pvar_session_free(&s));
  }
  return ncvar;
}

static int g_ncvar;

static void *worker(void *arg) {
  (void)arg;
  const int expect = g_ncvar;
  for (int r = 0; r < kRounds; ++r) {
    int provided;
    TCHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    TCHECK(list_everything() == expect);
    TCHECK_OK(MPI_T_finalize());
  }
  return NULL;
}

int main(void) {
  int provided = -1, x;
  EXPECT(MPI_T_cvar_get_num(&x), MPI_T_ERR_NOT_INITIALIZED);
  TCHECK_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
  const int ncvar = list_everything();
#ifdef RINGMPI
  TCHECK(provided == MPI_THREAD_MULTIPLE);
  TCHECK(ncvar > 0);
  /* Without MPI_Init the values chosen at MPI_Init are not known: 0 unless set. */
  if (!getenv("RINGMPI_EAGER_LIMIT")) TCHECK(tool_cvar_number("RINGMPI_EAGER_LIMIT") == 0);
  TCHECK(tool_cvar_number("RINGMPI_INTERNAL_EAGER_SAFE") == 4096);
#endif
  g_ncvar = ncvar;
  pthread_t t[kThreads];
  for (int k = 0; k < kThreads; ++k) TCHECK(pthread_create(&t[k], NULL, worker, NULL) == 0);
  for (int k = 0; k < kThreads; ++k) TCHECK(pthread_join(t[k], NULL) == 0);
  TCHECK_OK(MPI_T_finalize());
  EXPECT(MPI_T_cvar_get_num(&x), MPI_T_ERR_NOT_INITIALIZED);
  printf("tool_only: %d control variables, no MPI_Init\n", ncvar);
  return 0;
}
