/* The predefined attributes of MPI_COMM_WORLD (MPI-3.1 §8.1.2): their values
 * through both interfaces (a pointer to an int), MPI_LASTUSEDCODE following
 * MPI_Add_error_class, and that users cannot set, delete or free them. */
#include <limits.h>

#include "../check.h"

static int value_of(int key, int *flag) {
  void *v = NULL;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, flag));
  if (!*flag) return -12345;
  CHECK(v != NULL);
  int *p = NULL;
  CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, key, &p, flag)); /* the MPI-1 call agrees */
  CHECK(*flag == 1 && p == (int *)v);
  return *(int *)v;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int size, flag;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  CHECK(value_of(MPI_TAG_UB, &flag) == INT_MAX && flag);
  CHECK(value_of(MPI_HOST, &flag) == MPI_PROC_NULL && flag);
  CHECK(value_of(MPI_IO, &flag) == MPI_ANY_SOURCE && flag);
  CHECK(value_of(MPI_WTIME_IS_GLOBAL, &flag) == 1 && flag);
  CHECK(value_of(MPI_UNIVERSE_SIZE, &flag) >= size && flag);  /* mpiexec --universe-size, default the cores (issue 32) */
  CHECK(value_of(MPI_APPNUM, &flag) == 0 && flag);
  int last = value_of(MPI_LASTUSEDCODE, &flag);
  CHECK(flag && last >= MPI_ERR_LASTCODE);

  /* MPI_LASTUSEDCODE follows added classes and codes, through the pointer
   * already handed out too. */
  int *lastp = NULL;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &lastp, &flag));
  int cls, code;
  CHECK_MPI(MPI_Add_error_class(&cls));
  CHECK(cls > last);
  CHECK(value_of(MPI_LASTUSEDCODE, &flag) == cls && *lastp == cls);
  CHECK_MPI(MPI_Add_error_code(cls, &code));
  CHECK(code > cls && *lastp == code);

  /* Cached on MPI_COMM_WORLD; every communicator answers them as well (as
   * MPICH and Open MPI do), a split one included. */
  void *v;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &v, &flag));
  CHECK(flag == 1 && *(int *)v == INT_MAX);
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &half));
  CHECK_MPI(MPI_Comm_get_attr(half, MPI_TAG_UB, &v, &flag));
  CHECK(flag == 1 && *(int *)v == INT_MAX);
  MPI_Comm_free(&half);

  /* Read-only: setting, deleting or freeing them is MPI_ERR_KEYVAL. */
  int keys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE, MPI_APPNUM};
  int x = 7;
  for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, keys[i], &x) == MPI_ERR_KEYVAL);
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, keys[i], &x) == MPI_ERR_KEYVAL);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, keys[i]) == MPI_ERR_KEYVAL);
    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, keys[i]) == MPI_ERR_KEYVAL);
    int k = keys[i];
    CHECK(MPI_Comm_free_keyval(&k) == MPI_ERR_KEYVAL);
    CHECK(k == keys[i]);
    CHECK(MPI_Type_get_attr(MPI_INT, keys[i], &v, &flag) == MPI_ERR_KEYVAL);
  }
  CHECK(value_of(MPI_TAG_UB, &flag) == INT_MAX && flag);

  MPI_Finalize();
  return 0;
}
