/* Bad datatype / op input under MPI_ERRORS_ARE_FATAL: argv[1] names the case;
 * one rank (1 for recv_freed, else 0) makes the bad call, which must end the
 * job. If the call returns, the program says so and exits 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void returned(const char* what, int rc) {
  printf("%s was not reported as an error (returned %d)\n", what, rc);
  fflush(stdout);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* c = argc > 1 ? argv[1] : "";
  const int culprit = strcmp(c, "recv_freed") == 0 ? 1 : 0;
  if (rank != culprit) {
    MPI_Finalize();
    return 0;
  }
  int rc = MPI_SUCCESS;
  int ints[4] = {1, 2, 3, 4};
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (strcmp(c, "send_uncommitted") == 0) {
    MPI_Type_vector(2, 1, 2, MPI_INT, &t);
    rc = MPI_Send(ints, 1, t, 1, 0, MPI_COMM_WORLD);
  } else if (strcmp(c, "recv_freed") == 0) {
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Datatype stale = t;
    MPI_Type_free(&t);
    rc = MPI_Recv(ints, 1, stale, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (strcmp(c, "op_on_byte") == 0) {
    unsigned char a[2] = {1, 2}, b[2] = {3, 4};
    rc = MPI_Reduce_local(a, b, 2, MPI_BYTE, MPI_SUM);
  } else if (strcmp(c, "maxloc_on_double") == 0) {
    double a[2] = {1, 2}, b[2] = {3, 4};
    rc = MPI_Reduce_local(a, b, 2, MPI_DOUBLE, MPI_MAXLOC);
  } else if (strcmp(c, "op_on_mixed_struct") == 0) {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    char a[32] = {0}, b[32] = {0};
    rc = MPI_Reduce_local(a, b, 2, t, MPI_SUM);
  } else if (strcmp(c, "negative_count") == 0) {
    rc = MPI_Type_contiguous(-3, MPI_INT, &t);
  } else if (strcmp(c, "negative_blocklength") == 0) {
    int bl[2] = {1, -2}, disp[2] = {0, 4};
    rc = MPI_Type_indexed(2, bl, disp, MPI_INT, &t);
  } else if (strcmp(c, "null_types") == 0) {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    rc = MPI_Type_create_struct(2, bl, disp, NULL, &t);
  } else if (strcmp(c, "bad_struct_member") == 0) {
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, 12345};
    rc = MPI_Type_create_struct(2, bl, disp, types, &t);
  } else if (strcmp(c, "contents_of_named") == 0) {
    int i[4];
    MPI_Aint a[4];
    MPI_Datatype d[4];
    rc = MPI_Type_get_contents(MPI_INT, 4, 4, 4, i, a, d);
  } else if (strcmp(c, "free_predefined") == 0) {
    t = MPI_DOUBLE;
    rc = MPI_Type_free(&t);
  } else if (strcmp(c, "unpack_short") == 0) {
    char buf[8] = {0};
    int pos = 0;
    rc = MPI_Unpack(buf, 8, &pos, ints, 4, MPI_INT, MPI_COMM_WORLD);
  } else if (strcmp(c, "subarray_start") == 0) {
    int sizes[2] = {4, 4}, subs[2] = {2, 2}, starts[2] = {0, 3};
    rc = MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t);
  } else if (strcmp(c, "op_free_predefined") == 0) {
    MPI_Op op = MPI_MAX;
    rc = MPI_Op_free(&op);
  } else {
    printf("unknown case '%s'\n", c);
    rc = -1;
  }
  returned(c, rc);
  MPI_Finalize();
  return 0;
}
