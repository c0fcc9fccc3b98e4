/* Every error class the library raises reaches the communicator's handler:
 * with a user handler on MPI_COMM_WORLD and MPI_COMM_SELF, one simple
 * mistake per class must return a code of that class and call the handler
 * exactly once, with that code and the communicator the call was about
 * (MPI_COMM_WORLD when there is none). */
#include <stdio.h>

#include "../check.h"

static int calls = 0, last_code = MPI_SUCCESS;
static MPI_Comm last_comm = MPI_COMM_NULL;

static void handler(MPI_Comm *comm, int *code, ...) {
  ++calls;
  last_comm = *comm;
  last_code = *code;
}

static void expect(int cls, MPI_Comm where, int rc, const char *what, int line) {
  int got = -1;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &got);
  if (got != cls || calls != 1 || last_code != rc || last_comm != where) {
    fprintf(stderr, "error_classes.c:%d: %s returned class %d (want %d); handler called %d times (want 1) on 0x%x "
                    "(want 0x%x)\n", line, what, got, cls, calls, (unsigned)last_comm, (unsigned)where);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  calls = 0;
  last_comm = MPI_COMM_NULL;
}
#define EXPECT(cls, where, call) expect(cls, where, (call), #call, __LINE__)

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  int x = 1, y = 2, pos = 0;
  char packed[8];
  void *v;
  MPI_Request req = (MPI_Request)0x12345;
  MPI_Comm newcomm;

  EXPECT(MPI_ERR_ARG, MPI_COMM_WORLD, MPI_Comm_rank(MPI_COMM_WORLD, NULL));
  EXPECT(MPI_ERR_BUFFER, MPI_COMM_SELF, MPI_Send(NULL, 1, MPI_INT, 0, 0, MPI_COMM_SELF));
  EXPECT(MPI_ERR_COUNT, MPI_COMM_SELF, MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_SELF));
  EXPECT(MPI_ERR_TYPE, MPI_COMM_SELF, MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_SELF));
  EXPECT(MPI_ERR_TAG, MPI_COMM_SELF, MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_SELF));
  EXPECT(MPI_ERR_RANK, MPI_COMM_SELF, MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_SELF));
  EXPECT(MPI_ERR_COMM, MPI_COMM_WORLD, MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL));
  EXPECT(MPI_ERR_REQUEST, MPI_COMM_WORLD, MPI_Wait(&req, MPI_STATUS_IGNORE));
  EXPECT(MPI_ERR_ROOT, MPI_COMM_SELF, MPI_Bcast(&x, 1, MPI_INT, 5, MPI_COMM_SELF));
  EXPECT(MPI_ERR_GROUP, MPI_COMM_WORLD, MPI_Group_size(MPI_GROUP_NULL, &x));
  EXPECT(MPI_ERR_OP, MPI_COMM_WORLD, MPI_Reduce_local(&x, &y, 1, MPI_INT, MPI_OP_NULL));
  EXPECT(MPI_ERR_TRUNCATE, MPI_COMM_SELF, MPI_Pack(&x, 4, MPI_INT, packed, 8, &pos, MPI_COMM_SELF));
  EXPECT(MPI_ERR_OTHER, MPI_COMM_WORLD, MPI_Init(&argc, &argv));
  EXPECT(MPI_ERR_KEYVAL, MPI_COMM_SELF, MPI_Comm_get_attr(MPI_COMM_SELF, MPI_KEYVAL_INVALID, &v, &x));
  EXPECT(MPI_ERR_INFO, MPI_COMM_SELF,
         MPI_Comm_split_type(MPI_COMM_SELF, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)0x12345, &newcomm));
  int cls, code;
  CHECK_MPI(MPI_Add_error_class(&cls));
  CHECK_MPI(MPI_Add_error_code(cls, &code));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_SELF, code));
  CHECK(calls == 1 && last_code == code && last_comm == MPI_COMM_SELF);

  MPI_Finalize();
  return 0;
}
