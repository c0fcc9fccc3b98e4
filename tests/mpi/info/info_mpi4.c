/* MPI_Info_create_env (MPI-4.0 §11.4.3, callable before MPI_Init) and
 * MPI_Info_get_string (§10.3). */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  /* Before MPI_Init. */
  MPI_Info env;
  CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
  MPI_Init(&argc, &argv);
  char v[MPI_MAX_INFO_VAL + 1];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(env, "command", &len, v, &flag));
  CHECK(flag && strcmp(v, argv[0]) == 0 && len == (int)strlen(argv[0]) + 1);
  len = sizeof v;
  CHECK_MPI(MPI_Info_get_string(env, "wdir", &len, v, &flag));
  CHECK(flag && v[0] == '/');
  CHECK_MPI(MPI_Info_free(&env));
  /* With no arguments: MPI_INFO_ENV's keys. */
  CHECK_MPI(MPI_Info_create_env(0, NULL, &env));
  int nkeys;
  CHECK_MPI(MPI_Info_get_nkeys(env, &nkeys));
  CHECK(nkeys >= 2);
  CHECK_MPI(MPI_Info_free(&env));

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "color", "ultraviolet"));
  /* *buflen 0: only the size needed, NUL included; value untouched. */
  len = 0;
  v[0] = 'x';
  CHECK_MPI(MPI_Info_get_string(info, "color", &len, v, &flag));
  CHECK(flag && len == 12 && v[0] == 'x');
  /* Too short: a NUL-terminated prefix and the full size. */
  len = 4;
  CHECK_MPI(MPI_Info_get_string(info, "color", &len, v, &flag));
  CHECK(flag && strcmp(v, "ult") == 0 && len == 12);
  len = 12;
  CHECK_MPI(MPI_Info_get_string(info, "color", &len, v, &flag));
  CHECK(flag && strcmp(v, "ultraviolet") == 0);
  /* Absent key: flag false, buflen unchanged. */
  len = 7;
  CHECK_MPI(MPI_Info_get_string(info, "flavour", &len, v, &flag));
  CHECK(!flag && len == 7);
  CHECK_MPI(MPI_Info_free(&info));
  MPI_Finalize();
  return 0;
}
