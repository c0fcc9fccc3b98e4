/* Bad input to the MPI-4.0/4.1 calls of issue 31 (sessions, process sets,
 * communicator assertions, error-class removal). `session_bad CASE` does one
 * wrong thing where the default handler is MPI_ERRORS_ARE_FATAL (the job
 * must end with a message naming the call, the class and the argument);
 * `session_bad returns` runs the cases under MPI_ERRORS_RETURN. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

static int rank, size;

/* Each case returns the code of its one wrong call. `eh` is the handler of
 * the sessions it opens. */
static int run(const char* name, MPI_Errhandler eh) {
  MPI_Session s, stale;
  MPI_Group g;
  MPI_Info info;
  int n, e;
  if (!strcmp(name, "finalized_session")) {
    MPI_Session_init(MPI_INFO_NULL, eh, &s);
    stale = s;
    MPI_Session_finalize(&s);
    return MPI_Session_get_num_psets(stale, MPI_INFO_NULL, &n);
  }
  if (!strcmp(name, "null_session")) return MPI_Session_get_info(MPI_SESSION_NULL, &info);
  if (!strcmp(name, "unknown_pset")) {
    MPI_Session_init(MPI_INFO_NULL, eh, &s);
    e = MPI_Group_from_session_pset(s, "mpi://NOPE", &g);
    MPI_Session_finalize(&s);
    return e;
  }
  if (!strcmp(name, "unknown_pset_info")) {
    MPI_Session_init(MPI_INFO_NULL, eh, &s);
    e = MPI_Session_get_pset_info(s, "ringmpi://numa/999", &info);
    MPI_Session_finalize(&s);
    return e;
  }
  if (!strcmp(name, "nth_out_of_range")) {
    char buf[MPI_MAX_PSET_NAME_LEN];
    int len = sizeof buf;
    MPI_Session_init(MPI_INFO_NULL, eh, &s);
    e = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 1000, &len, buf);
    MPI_Session_finalize(&s);
    return e;
  }
  if (!strcmp(name, "bad_thread_level")) {
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_thread_support_level", "MPI_THREAD_LOTS");
    return MPI_Session_init(info, eh, &s);
  }
  if (!strcmp(name, "wildcard_asserted")) {
    MPI_Comm c;
    int x;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    MPI_Comm_set_errhandler(c, eh);
    return MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, c, MPI_STATUS_IGNORE);
  }
  if (!strcmp(name, "anytag_asserted")) {
    MPI_Comm c;
    int flag;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    MPI_Comm_set_errhandler(c, eh);
    return MPI_Iprobe(0, MPI_ANY_TAG, c, &flag, MPI_STATUS_IGNORE);
  }
  if (!strcmp(name, "remove_class_in_use")) {
    int cls, code;
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    return MPI_Remove_error_class(cls);
  }
  if (!strcmp(name, "remove_predefined")) return MPI_Remove_error_code(MPI_ERR_ARG);
  fprintf(stderr, "session_bad: unknown case %s\n", name);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  /* The session cases run in the Sessions Model alone: no MPI_Init. */
  const int sessions_only = !strcmp(argv[1], "finalized_session") || !strcmp(argv[1], "null_session") ||
                            !strcmp(argv[1], "unknown_pset") || !strcmp(argv[1], "unknown_pset_info") ||
                            !strcmp(argv[1], "nth_out_of_range") || !strcmp(argv[1], "bad_thread_level");
  if (sessions_only) {
    run(argv[1], MPI_ERRORS_ARE_FATAL);
    fprintf(stderr, "case %s was not reported as an error\n", argv[1]);
    return 4;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (strcmp(argv[1], "returns") != 0) {
    run(argv[1], MPI_ERRORS_ARE_FATAL);
    fprintf(stderr, "rank %d: case %s was not reported as an error\n", rank, argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  /* Errors that concern no live object (a stale or null session handle) go
   * to MPI_COMM_WORLD's handler. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT(run("finalized_session", MPI_ERRORS_RETURN), MPI_ERR_SESSION);
  EXPECT(run("null_session", MPI_ERRORS_RETURN), MPI_ERR_SESSION);
  EXPECT(run("unknown_pset", MPI_ERRORS_RETURN), MPI_ERR_ARG);
  EXPECT(run("unknown_pset_info", MPI_ERRORS_RETURN), MPI_ERR_ARG);
  EXPECT(run("nth_out_of_range", MPI_ERRORS_RETURN), MPI_ERR_ARG);
  EXPECT(run("bad_thread_level", MPI_ERRORS_RETURN), MPI_ERR_INFO_VALUE);
  EXPECT(run("wildcard_asserted", MPI_ERRORS_RETURN), MPI_ERR_RANK);
  EXPECT(run("anytag_asserted", MPI_ERRORS_RETURN), MPI_ERR_TAG);
  EXPECT(run("remove_class_in_use", MPI_ERRORS_RETURN), MPI_ERR_ARG);
  EXPECT(run("remove_predefined", MPI_ERRORS_RETURN), MPI_ERR_ARG);
  /* A session's own handler gets its errors: a user one sees the session. */
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("session_bad: all error codes as expected\n");
  MPI_Finalize();
  return 0;
}
