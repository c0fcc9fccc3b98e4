/* Info objects (MPI-3.1 chapter 9): set/get/delete/dup/free, key order,
 * truncation by MPI_Info_get, spaces stripped, the errors of bad keys and
 * values, MPI_INFO_ENV, and info arguments of the communicator calls
 * (MPI_Comm_dup_with_info, MPI_Comm_set_info, MPI_Comm_get_info). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int cls(int e) {
  int c;
  MPI_Error_class(e, &c);
  return c;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  MPI_Info info, copy;
  CHECK_MPI(MPI_Info_create(&info));
  int n = -1, flag = -1, len = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 0);
  CHECK_MPI(MPI_Info_set(info, "alpha", "1"));
  CHECK_MPI(MPI_Info_set(info, "  beta  ", "  two words  "));
  CHECK_MPI(MPI_Info_set(info, "gamma", "3"));
  CHECK_MPI(MPI_Info_set(info, "alpha", "one")); /* replaces, keeps its place */
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 3);
  char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
  const char *order[3] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; ++i) {
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    CHECK(strcmp(key, order[i]) == 0);
  }
  CHECK_MPI(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(flag && strcmp(val, "one") == 0);
  CHECK_MPI(MPI_Info_get(info, "beta", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(flag && strcmp(val, "two words") == 0);
  CHECK_MPI(MPI_Info_get_valuelen(info, "beta", &len, &flag));
  CHECK(flag && len == 9);
  /* A short valuelen truncates and still says found. */
  memset(val, 'x', sizeof val);
  CHECK_MPI(MPI_Info_get(info, "beta", 3, val, &flag));
  CHECK(flag && strcmp(val, "two") == 0);
  CHECK_MPI(MPI_Info_get(info, "missing", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(!flag);
  CHECK_MPI(MPI_Info_get_valuelen(info, "missing", &len, &flag));
  CHECK(!flag);

  /* Dup is a deep copy. */
  CHECK_MPI(MPI_Info_dup(info, &copy));
  CHECK_MPI(MPI_Info_delete(info, "alpha"));
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 2);
  CHECK_MPI(MPI_Info_get_nkeys(copy, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Info_get(copy, "alpha", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(flag && strcmp(val, "one") == 0);

  /* Errors. */
  char longkey[MPI_MAX_INFO_KEY + 2];
  memset(longkey, 'k', sizeof longkey - 1);
  longkey[sizeof longkey - 1] = '\0';
  char *longval = malloc(MPI_MAX_INFO_VAL + 2);
  memset(longval, 'v', MPI_MAX_INFO_VAL + 1);
  longval[MPI_MAX_INFO_VAL + 1] = '\0';
  CHECK(cls(MPI_Info_set(info, longkey, "x")) == MPI_ERR_INFO_KEY);
  CHECK(cls(MPI_Info_set(info, "", "x")) == MPI_ERR_INFO_KEY);
  CHECK(cls(MPI_Info_set(info, "k", longval)) == MPI_ERR_INFO_VALUE);
  CHECK(cls(MPI_Info_set(info, "k", "")) == MPI_ERR_INFO_VALUE);
  CHECK(cls(MPI_Info_delete(info, "alpha")) == MPI_ERR_INFO_NOKEY);
  CHECK(cls(MPI_Info_get(info, longkey, 10, val, &flag)) == MPI_ERR_INFO_KEY);
  CHECK(cls(MPI_Info_get_nthkey(info, 2, key)) == MPI_ERR_ARG);
  CHECK(cls(MPI_Info_get_nkeys(MPI_INFO_NULL, &n)) == MPI_ERR_INFO);
  free(longval);

  /* The communicator calls take info objects. */
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &dup));
  int res;
  MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
  CHECK(res == MPI_CONGRUENT);
  CHECK_MPI(MPI_Comm_set_info(dup, info));
  MPI_Info used;
  CHECK_MPI(MPI_Comm_get_info(dup, &used));
  CHECK(used != MPI_INFO_NULL);
  CHECK_MPI(MPI_Info_get_nkeys(used, &n));
  CHECK(n == 0); /* no hint is used by this implementation */
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Comm_free(&dup));

  /* Freed handles are invalid. */
  MPI_Info stale = copy;
  CHECK_MPI(MPI_Info_free(&copy));
  CHECK(copy == MPI_INFO_NULL);
  CHECK(cls(MPI_Info_get_nkeys(stale, &n)) == MPI_ERR_INFO);
  CHECK(cls(MPI_Comm_dup_with_info(MPI_COMM_WORLD, stale, &dup)) == MPI_ERR_INFO);
  CHECK_MPI(MPI_Info_free(&info));

  /* MPI_INFO_ENV: the command, the number of processes; it cannot be freed or changed. */
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(flag && strstr(val, "info_basic") != NULL);
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, val, &flag));
  CHECK(flag && atoi(val) == size);
  MPI_Info env = MPI_INFO_ENV;
  CHECK(cls(MPI_Info_free(&env)) == MPI_ERR_INFO);
  CHECK(cls(MPI_Info_set(MPI_INFO_ENV, "a", "b")) == MPI_ERR_INFO);
  CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &env));
  CHECK_MPI(MPI_Info_set(env, "mine", "yes"));
  CHECK_MPI(MPI_Info_free(&env));

  MPI_Finalize();
  return 0;
}
