/* Communicator info assertions (MPI-4.0 §7.4.4): accepted by
 * MPI_Comm_dup_with_info / _idup_with_info / _set_info, reported by
 * MPI_Comm_get_info, and honoured (a wildcard where one was asserted away is
 * an error; normal traffic goes on). */
#include <string.h>

#include "check.h"

static int rank, size;

static int hint(MPI_Comm c, const char* key) {
  MPI_Info used;
  CHECK_MPI(MPI_Comm_get_info(c, &used));
  char v[16];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(used, key, &len, v, &flag));
  CHECK_MPI(MPI_Info_free(&used));
  return flag && strcmp(v, "true") == 0; /* an assertion not in force is not reported */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  CHECK(!hint(MPI_COMM_WORLD, "mpi_assert_no_any_source"));
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_source", "true"));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "TRUE"));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_exact_length", "true"));
  CHECK_MPI(MPI_Info_set(info, "mpi_assert_allow_overtaking", "false"));
  CHECK_MPI(MPI_Info_set(info, "some_other_key", "ignored"));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c));
  CHECK(hint(c, "mpi_assert_no_any_source") && hint(c, "mpi_assert_no_any_tag"));
  CHECK(hint(c, "mpi_assert_exact_length") && !hint(c, "mpi_assert_allow_overtaking"));

  /* Specific source and tag: fine. */
  int x = rank, y = -1;
  CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, right, 4, &y, 1, MPI_INT, left, 4, c, MPI_STATUS_IGNORE));
  CHECK(y == left);
  /* Wildcards: errors, on a communicator whose handler returns them. */
  CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
  int cls, flag;
  MPI_Request r;
  MPI_Error_class(MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 4, c, &r), &cls);
  CHECK(cls == MPI_ERR_RANK);
  MPI_Error_class(MPI_Recv(&y, 1, MPI_INT, left, MPI_ANY_TAG, c, MPI_STATUS_IGNORE), &cls);
  CHECK(cls == MPI_ERR_TAG);
  MPI_Error_class(MPI_Iprobe(MPI_ANY_SOURCE, 4, c, &flag, MPI_STATUS_IGNORE), &cls);
  CHECK(cls == MPI_ERR_RANK);

  /* A plain dup keeps the hints; dup_with_info replaces them. */
  MPI_Comm d, e;
  CHECK_MPI(MPI_Comm_dup(c, &d));
  CHECK(hint(d, "mpi_assert_no_any_source"));
  CHECK_MPI(MPI_Comm_dup_with_info(c, MPI_INFO_NULL, &e));
  CHECK(!hint(e, "mpi_assert_no_any_source"));
  /* MPI_Comm_set_info changes them. */
  MPI_Info off;
  CHECK_MPI(MPI_Info_create(&off));
  CHECK_MPI(MPI_Info_set(off, "mpi_assert_no_any_source", "false"));
  CHECK_MPI(MPI_Comm_set_info(d, off));
  CHECK(!hint(d, "mpi_assert_no_any_source") && hint(d, "mpi_assert_no_any_tag"));
  CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, right, 5, &y, 1, MPI_INT, MPI_ANY_SOURCE, 5, d, MPI_STATUS_IGNORE));
  CHECK(y == left);

  /* MPI_Comm_idup_with_info: the hints arrive with the communicator. */
  MPI_Comm f;
  CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &f, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  CHECK(f != MPI_COMM_NULL && hint(f, "mpi_assert_no_any_tag"));
  int fsize;
  CHECK_MPI(MPI_Comm_size(f, &fsize));
  CHECK(fsize == size);
  CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, f));
  CHECK(y == size * (size - 1) / 2);

  CHECK_MPI(MPI_Info_free(&off));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK_MPI(MPI_Comm_free(&d));
  CHECK_MPI(MPI_Comm_free(&e));
  CHECK_MPI(MPI_Comm_free(&f));
  MPI_Finalize();
  return 0;
}
