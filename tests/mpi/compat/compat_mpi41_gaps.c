/* Parts of MPI-4.1 that mpi4py 4.x's test suite found missing or wrong:
 * - MPI_Comm/Type/Win_get_name of the null handle give its name (annex B.1.2, item 18);
 * - MPI_Op_create_c's user function gets a pointer to its MPI_Count length;
 * - MPI_Isendrecv_c and MPI_Isendrecv_replace_c;
 * - MPI_Comm/Session_attach_buffer_c and _detach_buffer_c;
 * - MPI_Status_set_elements_c;
 * - MPI_WIN_DUP_FN, MPI_Comm_errhandler_fn and MPI_Win_errhandler_fn (deprecated names) compile;
 * - an empty status has error MPI_SUCCESS (MPI-4.1 §3.7.3);
 * - a zero-byte partition has not arrived before the sender marked it ready;
 * - partitioned inits on a dup of MPI_COMM_SELF, freed, then on a dup of MPI_COMM_WORLD
 *   (which may get the same context ids with another peer behind rank 0) still match;
 * - MPI_Comm_split_type on an intercommunicator (as MPICH 4.2 and Open MPI 5). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void names_of_null_handles(void) {
  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Comm_get_name(MPI_COMM_NULL, name, &len));
  CHECK(strcmp(name, "MPI_COMM_NULL") == 0 && len == (int)strlen("MPI_COMM_NULL"));
  CHECK_MPI(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
  CHECK(strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == (int)strlen("MPI_DATATYPE_NULL"));
  CHECK_MPI(MPI_Win_get_name(MPI_WIN_NULL, name, &len));
  CHECK(strcmp(name, "MPI_WIN_NULL") == 0 && len == (int)strlen("MPI_WIN_NULL"));
  /* Not the set functions: those still need an object. */
  int cls;
  MPI_Error_class(MPI_Comm_set_name(MPI_COMM_NULL, "x"), &cls);
  CHECK(cls == MPI_ERR_COMM);
  /* And the out arguments are still checked. */
  MPI_Error_class(MPI_Comm_get_name(MPI_COMM_NULL, NULL, &len), &cls);
  CHECK(cls == MPI_ERR_ARG);
}

static MPI_Count seen_len;
static void sum_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* dt) {
  CHECK(*dt == MPI_INT);
  seen_len = *len;
  for (MPI_Count i = 0; i < *len; ++i) ((int*)inout)[i] += ((const int*)in)[i];
}

static void op_create_c(int rank, int size) {
  MPI_Op op;
  CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
  int in[5], out[5];
  for (int i = 0; i < 5; ++i) in[i] = rank + i;
  CHECK_MPI(MPI_Allreduce_c(in, out, 5, MPI_INT, op, MPI_COMM_WORLD));
  for (int i = 0; i < 5; ++i) CHECK(out[i] == size * (size - 1) / 2 + size * i);
  CHECK(size == 1 || seen_len == 5);
  int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
  CHECK_MPI(MPI_Reduce_local_c(a, b, 3, MPI_INT, op));
  CHECK(seen_len == 3 && b[0] == 11 && b[1] == 22 && b[2] == 33);
  CHECK_MPI(MPI_Op_free(&op));
}

static void isendrecv_c(int rank, int size) {
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  int s[4], r[4];
  for (int i = 0; i < 4; ++i) {
    s[i] = rank * 10 + i;
    r[i] = -1;
  }
  MPI_Request q;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv_c(s, 4, MPI_INT, to, 7, r, 4, MPI_INT, from, 7, MPI_COMM_WORLD, &q));
  CHECK_MPI(MPI_Wait(&q, &st));
  MPI_Count n = -1;
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
  CHECK(n == 4 && st.MPI_SOURCE == from && st.MPI_TAG == 7);
  for (int i = 0; i < 4; ++i) CHECK(r[i] == from * 10 + i);
  CHECK_MPI(MPI_Isendrecv_replace_c(s, 4, MPI_INT, to, 8, from, 8, MPI_COMM_WORLD, &q));
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  for (int i = 0; i < 4; ++i) CHECK(s[i] == from * 10 + i);
}

static void buffers_c(int rank, int size) {
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  const MPI_Count bytes = 4096 + MPI_BSEND_OVERHEAD;
  void* buf = malloc((size_t)bytes);
  CHECK_MPI(MPI_Comm_attach_buffer_c(comm, buf, bytes));
  int x = rank, y = -1;
  CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, (rank + 1) % size, 0, comm));
  CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE));
  CHECK(y == (rank + size - 1) % size);
  void* back = NULL;
  MPI_Count back_size = -1;
  CHECK_MPI(MPI_Comm_detach_buffer_c(comm, &back, &back_size));
  CHECK(back == buf && back_size == bytes);
  CHECK_MPI(MPI_Comm_free(&comm));

  MPI_Session s;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
  CHECK_MPI(MPI_Session_attach_buffer_c(s, buf, bytes));
  back = NULL;
  back_size = -1;
  CHECK_MPI(MPI_Session_detach_buffer_c(s, &back, &back_size));
  CHECK(back == buf && back_size == bytes);
  CHECK_MPI(MPI_Session_finalize(&s));
  free(buf);
}

static void status_set_elements_c(void) {
  MPI_Status st;
  memset(&st, 0, sizeof st);
  CHECK_MPI(MPI_Status_set_elements_c(&st, MPI_INT, 6));
  MPI_Count n = -1;
  CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &n));
  CHECK(n == 6);
  CHECK_MPI(MPI_Get_count_c(&st, MPI_SHORT, &n));
  CHECK(n == 6 * (MPI_Count)sizeof(int) / (MPI_Count)sizeof(short));
  int cls;
  MPI_Error_class(MPI_Status_set_elements_c(&st, MPI_INT, -1), &cls);
  CHECK(cls == MPI_ERR_COUNT);
}

static void on_comm(MPI_Comm* c, int* code, ...) {
  (void)c;
  (void)code;
}

static void deprecated_names(void) {
  int key;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &key, NULL));
  CHECK_MPI(MPI_Win_free_keyval(&key));
  MPI_Comm_errhandler_fn* f = on_comm;
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_create_errhandler(f, &eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  MPI_Win_errhandler_fn* g = NULL;
  (void)g;
}

static void empty_status_error(void) {
  MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  MPI_Status st;
  st.MPI_ERROR = MPI_ERR_OTHER;
  int index = 0, flag = 0;
  CHECK_MPI(MPI_Request_get_status_any(2, reqs, &index, &flag, &st));
  CHECK(flag && index == MPI_UNDEFINED);
  CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG && st.MPI_ERROR == MPI_SUCCESS);
  st.MPI_ERROR = MPI_ERR_OTHER;
  CHECK_MPI(MPI_Wait(&reqs[0], &st));
  CHECK(st.MPI_ERROR == MPI_SUCCESS);
}

static void zero_byte_partitions(int rank) {
  for (int parts = 1; parts <= 3; ++parts) {
    int sbuf[1], rbuf[1];
    MPI_Request s, r;
    CHECK_MPI(MPI_Psend_init(sbuf, parts, 0, MPI_INT, rank, 5, MPI_COMM_SELF, MPI_INFO_NULL, &s));
    CHECK_MPI(MPI_Precv_init(rbuf, parts, 0, MPI_INT, rank, 5, MPI_COMM_SELF, MPI_INFO_NULL, &r));
    for (int round = 0; round < 3; ++round) {
      int flag = -1;
      CHECK_MPI(MPI_Start(&r));
      for (int i = 0; i < parts; ++i) {
        CHECK_MPI(MPI_Parrived(r, i, &flag));
        CHECK(!flag);
      }
      CHECK_MPI(MPI_Start(&s));
      for (int i = 0; i < parts; ++i) {
        CHECK_MPI(MPI_Pready(i, s));
        for (int j = i + 1; j < parts; ++j) {
          CHECK_MPI(MPI_Parrived(r, j, &flag));
          CHECK(!flag);
        }
      }
      for (int i = 0; i < parts; ++i) {
        do CHECK_MPI(MPI_Parrived(r, i, &flag));
        while (!flag);
      }
      CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
      CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Request_free(&s));
  }
}

/* One partitioned exchange from this rank to `to`, received from `from`, on comm. */
static void partitioned_once(MPI_Comm comm, int to, int from) {
  int sbuf[2] = {1, 2}, rbuf[2] = {0, 0};
  MPI_Request s, r;
  CHECK_MPI(MPI_Psend_init(sbuf, 2, 1, MPI_INT, to, 9, comm, MPI_INFO_NULL, &s));
  CHECK_MPI(MPI_Precv_init(rbuf, 2, 1, MPI_INT, from, 9, comm, MPI_INFO_NULL, &r));
  CHECK_MPI(MPI_Start(&r));
  CHECK_MPI(MPI_Start(&s));
  CHECK_MPI(MPI_Pready_range(0, 1, s));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
  CHECK(rbuf[0] == 1 && rbuf[1] == 2);
  CHECK_MPI(MPI_Request_free(&r));
  CHECK_MPI(MPI_Request_free(&s));
}

static void partitioned_after_reused_context(int rank, int size) {
  for (int round = 0; round < 3; ++round) {
    MPI_Comm self, world;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &self));
    for (int i = 0; i <= round; ++i) partitioned_once(self, 0, 0);
    CHECK_MPI(MPI_Comm_free(&self));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &world));
    partitioned_once(world, (rank + 1) % size, (rank + size - 1) % size);
    CHECK_MPI(MPI_Comm_free(&world));
  }
}

static void split_type_inter(int rank, int size) {
  if (size < 2) return;
  MPI_Comm half, inter, shared;
  const int side = rank % 2;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &half));
  CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - side, 3, &inter));
  int lsize, rsize, flag;
  CHECK_MPI(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, -rank, MPI_INFO_NULL, &shared));
  CHECK(shared != MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_test_inter(shared, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Comm_size(shared, &lsize));
  CHECK_MPI(MPI_Comm_remote_size(shared, &rsize));
  CHECK(lsize == (size + 1 - side) / 2 && rsize == size - lsize);
  int r, expect = 0;  /* key -rank: the highest world rank of this side first */
  for (int w = rank + 2; w < size; w += 2) ++expect;
  CHECK_MPI(MPI_Comm_rank(shared, &r));
  CHECK(r == expect);
  int x = rank, y = -1;  /* a message across: local rank 0 to the remote side's rank 0 */
  if (r == 0) CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, 0, 0, &y, 1, MPI_INT, 0, 0, shared, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Comm_free(&shared));
  CHECK_MPI(MPI_Comm_split_type(inter, MPI_UNDEFINED, 0, MPI_INFO_NULL, &shared));
  CHECK(shared == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_free(&inter));
  CHECK_MPI(MPI_Comm_free(&half));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  names_of_null_handles();
  op_create_c(rank, size);
  isendrecv_c(rank, size);
  buffers_c(rank, size);
  status_set_elements_c();
  deprecated_names();
  empty_status_error();
  zero_byte_partitions(0);
  partitioned_after_reused_context(rank, size);
  split_type_inter(rank, size);
  MPI_Finalize();
  return 0;
}
