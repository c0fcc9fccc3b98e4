/* The Sessions Model alone (MPI-4.0 §11.3): no MPI_Init. Process sets and
 * their info, communicators from their groups, two sessions at once, the
 * session's error handler and info, and a session opened again after all
 * were finalized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int wrank, wsize;

static MPI_Comm comm_of(MPI_Session s, const char* pset, const char* tag) {
  MPI_Group g;
  CHECK_MPI(MPI_Group_from_session_pset(s, pset, &g));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c));
  CHECK_MPI(MPI_Group_free(&g));
  return c;
}

static int pset_size(MPI_Session s, const char* name) {
  MPI_Info info;
  CHECK_MPI(MPI_Session_get_pset_info(s, name, &info));
  char v[32];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(info, "mpi_size", &len, v, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Info_free(&info));
  return atoi(v);
}

static int handler_calls;
static void on_error(MPI_Session* s, int* code, ...) {
  (void)s;
  (void)code;
  ++handler_calls;
}

int main(void) {
  int flag;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(!flag);
  MPI_Session s;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
  CHECK(s != MPI_SESSION_NULL);
  CHECK_MPI(MPI_Initialized(&flag)); /* sessions are not the World Model */
  CHECK(!flag);

  /* The process sets: mpi://WORLD and mpi://SELF first, then ringmpi:// ones. */
  int n;
  CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
  CHECK(n >= 2);
  /* The synthetic-topology variant (meson.build) knows how many there are. */
  const char* expect = getenv("RINGMPI_TEST_EXPECT_PSETS");
  if (expect) CHECK(n == atoi(expect));
  int have_world = 0, have_self = 0;
  for (int i = 0; i < n; ++i) {
    int len = 0;
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
    CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN);
    char* name = malloc((size_t)len);
    CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
    CHECK((int)strlen(name) == len - 1);
    if (!strcmp(name, "mpi://WORLD")) have_world = 1;
    if (!strcmp(name, "mpi://SELF")) have_self = 1;
    CHECK(!strncmp(name, "mpi://", 6) || !strncmp(name, "ringmpi://", 10));
    /* A set's group has mpi_size members; those that hold this process make a
     * communicator (every process goes through the same list in the same
     * order, so the collective creations cannot deadlock). */
    MPI_Group g;
    CHECK_MPI(MPI_Group_from_session_pset(s, name, &g));
    int gsize, grank;
    CHECK_MPI(MPI_Group_size(g, &gsize));
    CHECK_MPI(MPI_Group_rank(g, &grank));
    CHECK(gsize == pset_size(s, name));
    if (grank != MPI_UNDEFINED) {
      MPI_Comm c;
      CHECK_MPI(MPI_Comm_create_from_group(g, name, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c));
      int one = 1, total;
      CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, c));
      CHECK(total == gsize);
      CHECK_MPI(MPI_Comm_free(&c));
    }
    CHECK_MPI(MPI_Group_free(&g));
    free(name);
  }
  CHECK(have_world && have_self);
  /* Truncation: a short buffer gets a NUL-terminated prefix and the full length. */
  char shortbuf[4];
  int slen = sizeof shortbuf;
  CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &slen, shortbuf));
  CHECK(strlen(shortbuf) == 3 && slen > 4);

  MPI_Comm world = comm_of(s, "mpi://WORLD", "org.test.world");
  CHECK_MPI(MPI_Comm_rank(world, &wrank));
  CHECK_MPI(MPI_Comm_size(world, &wsize));
  CHECK(pset_size(s, "mpi://WORLD") == wsize && pset_size(s, "mpi://SELF") == 1);
  int sum;
  CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, world));
  CHECK(sum == wsize * (wsize - 1) / 2);
  const int right = (wrank + 1) % wsize, left = (wrank + wsize - 1) % wsize;
  int x = wrank, y = -1;
  CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, world, MPI_STATUS_IGNORE));
  CHECK(y == left);
  MPI_Comm self = comm_of(s, "mpi://SELF", "org.test.self");
  CHECK_MPI(MPI_Comm_size(self, &n));
  CHECK(n == 1);

  /* A buffer of the session serves buffered sends on its communicators. */
  CHECK_MPI(MPI_Session_attach_buffer(s, MPI_BUFFER_AUTOMATIC, 0));
  CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, right, 1, world));
  CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, left, 1, world, MPI_STATUS_IGNORE));
  CHECK(y == left);
  CHECK_MPI(MPI_Session_flush_buffer(s));
  MPI_Request fr;
  CHECK_MPI(MPI_Session_iflush_buffer(s, &fr));
  CHECK_MPI(MPI_Wait(&fr, MPI_STATUS_IGNORE));
  void* got;
  int got_size;
  CHECK_MPI(MPI_Session_detach_buffer(s, &got, &got_size));
  CHECK(got == MPI_BUFFER_AUTOMATIC && got_size == 0);

  /* A second session with its own thread level and error handler. */
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_thread_support_level", "MPI_THREAD_FUNNELED"));
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Session_create_errhandler(on_error, &eh));
  MPI_Session s2;
  CHECK_MPI(MPI_Session_init(info, eh, &s2));
  CHECK_MPI(MPI_Info_free(&info));
  MPI_Info used;
  CHECK_MPI(MPI_Session_get_info(s2, &used));
  char v[64];
  int len = sizeof v;
  CHECK_MPI(MPI_Info_get_string(used, "mpi_thread_support_level", &len, v, &flag));
  CHECK(flag && (!strcmp(v, "MPI_THREAD_FUNNELED") || !strcmp(v, "MPI_THREAD_SERIALIZED") ||
                 !strcmp(v, "MPI_THREAD_MULTIPLE")));
  CHECK_MPI(MPI_Info_free(&used));
  MPI_Errhandler got_eh;
  CHECK_MPI(MPI_Session_get_errhandler(s2, &got_eh));
  CHECK(got_eh == eh);
  CHECK_MPI(MPI_Errhandler_free(&got_eh));
  /* The user handler gets the session's errors, and MPI_Session_call_errhandler. */
  MPI_Group g;
  CHECK(MPI_Group_from_session_pset(s2, "ringmpi://nothing/0", &g) != MPI_SUCCESS);
  CHECK(handler_calls == 1);
  CHECK_MPI(MPI_Session_call_errhandler(s2, MPI_ERR_OTHER));
  CHECK(handler_calls == 2);
  CHECK_MPI(MPI_Session_set_errhandler(s2, MPI_ERRORS_RETURN));
  CHECK(MPI_Group_from_session_pset(s2, "mpi://nope", &g) != MPI_SUCCESS);
  CHECK(handler_calls == 2);
  CHECK_MPI(MPI_Errhandler_free(&eh));
  MPI_Comm w2 = comm_of(s2, "mpi://WORLD", "org.test.world2");
  CHECK_MPI(MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, w2));
  CHECK(sum == wsize * (wsize - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&w2));
  CHECK(MPI_Session_c2f(s2) != 0 && MPI_Session_f2c(MPI_Session_c2f(s2)) == s2);
  CHECK_MPI(MPI_Session_finalize(&s2));
  CHECK(s2 == MPI_SESSION_NULL);

  /* A datatype made now outlives the session (MPI-4.1 §11.3.1). */
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
  CHECK_MPI(MPI_Type_commit(&pair));
  CHECK_MPI(MPI_Comm_free(&self));
  CHECK_MPI(MPI_Comm_free(&world));
  CHECK_MPI(MPI_Session_finalize(&s));

  /* A new session after all were finalized; the datatype still works. */
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
  world = comm_of(s, "mpi://WORLD", "org.test.again");
  int out[2] = {wrank, -wrank}, in[2];
  CHECK_MPI(MPI_Sendrecv(out, 1, pair, right, 2, in, 1, pair, left, 2, world, MPI_STATUS_IGNORE));
  CHECK(in[0] == left && in[1] == -left);
  CHECK_MPI(MPI_Type_free(&pair));
  CHECK_MPI(MPI_Barrier(world));
  CHECK_MPI(MPI_Comm_free(&world));
  CHECK_MPI(MPI_Session_finalize(&s));
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(!flag);
  return 0;
}
