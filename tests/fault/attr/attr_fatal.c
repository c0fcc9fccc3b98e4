/* Bad input to the caching and error-handling calls under the default
 * MPI_ERRORS_ARE_FATAL (or MPI_ERRORS_ABORT): each case makes one kind of
 * mistake; attr_fatal.py checks the job ends with a line naming the rank,
 * the call, the class and the argument. "finalize_callback_fails" instead
 * exits normally after MPI_Finalize reports the failing delete callback. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int fail_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra;
  return MPI_ERR_OTHER;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *c = argc > 1 ? argv[1] : "";
  void *v;
  int flag, k, x = 0;
  if (!strcmp(c, "keyval_invalid")) {
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag);
  } else if (!strcmp(c, "keyval_garbage")) {
    MPI_Attr_put(MPI_COMM_WORLD, 12345, &x);
  } else if (!strcmp(c, "keyval_kind")) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    MPI_Type_set_attr(MPI_INT, k, &x);
  } else if (!strcmp(c, "predefined_delete")) {
    MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB);
  } else if (!strcmp(c, "double_free")) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k, &x);
    int copy = k;
    MPI_Comm_free_keyval(&k);
    MPI_Comm_free_keyval(&copy);
  } else if (!strcmp(c, "errhandler_rank1")) {
    if (rank == 1) MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)0x12345);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 waits here until the job is torn down */
  } else if (!strcmp(c, "call_errhandler")) {
    int cls, code;
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "the flux capacitor is empty");
    if (rank == 0) MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!strcmp(c, "errors_abort")) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
    MPI_Comm_rank(MPI_COMM_NULL, &x);
  } else if (!strcmp(c, "delete_callback")) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fail_delete, &k, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, k, &x);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, k);
  } else if (!strcmp(c, "error_string_bad")) {
    char s[MPI_MAX_ERROR_STRING];
    MPI_Error_string(-5, s, &x);
  } else if (!strcmp(c, "add_error_string_predefined")) {
    MPI_Add_error_string(MPI_ERR_RANK, "mine");
  } else if (!strcmp(c, "create_errhandler_null")) {
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(NULL, &eh);
  } else if (!strcmp(c, "finalize_callback_fails")) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, fail_delete, &k, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k, &x);
    MPI_Finalize();
    printf("finalized\n");
    return 0;
  } else {
    fprintf(stderr, "attr_fatal: unknown case '%s'\n", c);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  printf("case %s was not reported as an error\n", c);
  MPI_Finalize();
  return 0;
}
