/* Error handlers on communicators: predefined and user handlers, what a user
 * handler is called with, errors without a communicator going to
 * MPI_COMM_WORLD's handler, handle reference counting (get/free, free while
 * attached), MPI_Comm_call_errhandler and the deprecated MPI-1 names. */
#include "../check.h"

static int calls = 0;
static MPI_Comm last_comm = MPI_COMM_NULL;
static int last_code = MPI_SUCCESS;

static void handler(MPI_Comm *comm, int *code, ...) {
  ++calls;
  last_comm = *comm;
  last_code = *code;
}

static int calls2 = 0;
static void handler2(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  (void)code;
  ++calls2;
}

static int class_of(int code) {
  int c = -1;
  CHECK_MPI(MPI_Error_class(code, &c));
  return c;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);

  /* The default is MPI_ERRORS_ARE_FATAL; its handle may be freed. */
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK(eh == MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL);

  MPI_Errhandler mine = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_create_errhandler(handler, &mine));
  CHECK(mine != MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine));
  MPI_Errhandler got = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got == mine);
  CHECK_MPI(MPI_Errhandler_free(&got)); /* the reference get gave */
  CHECK(got == MPI_ERRHANDLER_NULL);

  /* An error on WORLD: the handler gets WORLD and the code; the call returns it. */
  int r = -1;
  int e = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
  CHECK(class_of(e) == MPI_ERR_ARG);
  CHECK(calls == 1 && last_comm == MPI_COMM_WORLD && last_code == e);
  /* An error with no valid communicator goes to WORLD's handler too. */
  e = MPI_Comm_rank(MPI_COMM_NULL, &r);
  CHECK(class_of(e) == MPI_ERR_COMM);
  CHECK(calls == 2 && last_comm == MPI_COMM_WORLD && last_code == e);
  e = MPI_Error_class(-77, &r);
  CHECK(e == MPI_ERR_ARG && calls == 3);

  /* Each communicator has its own handler. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  e = MPI_Comm_set_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID, NULL);
  CHECK(e == MPI_ERR_KEYVAL && calls == 3);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, mine));
  e = MPI_Comm_set_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID, NULL);
  CHECK(e == MPI_ERR_KEYVAL && calls == 4 && last_comm == MPI_COMM_SELF && last_code == MPI_ERR_KEYVAL);

  /* Freed while attached: the handle dies, the handler goes on working. */
  MPI_Errhandler stale = mine;
  CHECK_MPI(MPI_Errhandler_free(&mine));
  CHECK(mine == MPI_ERRHANDLER_NULL);
  e = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
  CHECK(e != MPI_SUCCESS && calls == 5);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, stale) == MPI_ERR_ARG && calls == 6);
  CHECK(MPI_Errhandler_free(&stale) == MPI_ERR_ARG && calls == 7);
  /* get hands out a fresh handle for it, which works like the first. */
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
  CHECK(got != MPI_ERRHANDLER_NULL);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, got));
  CHECK(MPI_Comm_delete_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID) == MPI_ERR_KEYVAL && calls == 8);
  CHECK_MPI(MPI_Errhandler_free(&got));

  /* MPI_Comm_call_errhandler: the handler runs with the given code; the call
   * returns MPI_SUCCESS, also under MPI_ERRORS_RETURN. */
  int cls, code;
  CHECK_MPI(MPI_Add_error_class(&cls));
  CHECK_MPI(MPI_Add_error_code(cls, &code));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code));
  CHECK(calls == 9 && last_code == code && last_comm == MPI_COMM_WORLD && class_of(last_code) == cls);
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER));
  CHECK(calls == 10 && last_code == MPI_ERR_OTHER && last_comm == MPI_COMM_SELF);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER));
  CHECK(calls == 10);

  /* Deprecated MPI-1 names. */
  MPI_Errhandler old = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Errhandler_create(handler2, &old));
  CHECK_MPI(MPI_Errhandler_set(MPI_COMM_WORLD, old));
  CHECK_MPI(MPI_Errhandler_get(MPI_COMM_WORLD, &got));
  CHECK(got == old);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK(MPI_Comm_rank(MPI_COMM_WORLD, NULL) != MPI_SUCCESS && calls2 == 1 && calls == 10);
  CHECK_MPI(MPI_Errhandler_free(&old));

  /* Bad arguments (raised on WORLD, whose handler now returns). */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  MPI_Errhandler h;
  CHECK(MPI_Comm_create_errhandler(NULL, &h) == MPI_ERR_ARG);
  CHECK(MPI_Comm_create_errhandler(handler, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, 0x12345) == MPI_ERR_ARG);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_COMM_WORLD) == MPI_ERR_ARG);
  CHECK(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN) == MPI_ERR_COMM);
  CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_get_errhandler(MPI_COMM_NULL, &h) == MPI_ERR_COMM);
  CHECK(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER) == MPI_ERR_COMM);
  CHECK(MPI_Errhandler_free(NULL) == MPI_ERR_ARG);
  h = MPI_ERRHANDLER_NULL;
  CHECK(MPI_Errhandler_free(&h) == MPI_ERR_ARG);
  /* Predefined handles survive any number of frees. */
  h = MPI_ERRORS_RETURN;
  CHECK_MPI(MPI_Errhandler_free(&h));
  CHECK(h == MPI_ERRHANDLER_NULL);
  CHECK(MPI_Comm_rank(MPI_COMM_NULL, &r) == MPI_ERR_COMM);

  MPI_Finalize();
  return 0;
}
