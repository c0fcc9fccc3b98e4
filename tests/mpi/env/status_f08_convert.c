/* MPI-4.1 §19.3.5: MPI_Status_c2f08, _f082c, _f2f08, _f082f carry a status
 * between C, the mpi_f08 TYPE(MPI_Status) and the INTEGER status unchanged
 * (source, tag, error and the count MPI_Get_count reads back); an ignored
 * status (NULL) to convert is MPI_ERR_ARG. */
#include <mpi.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double out[5] = {1, 2, 3, 4, 5}, in[7];
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(out, 5, MPI_DOUBLE, next, 40 + rank, in, 7, MPI_DOUBLE, prev, MPI_ANY_TAG, MPI_COMM_WORLD,
                         &st));
  MPI_F08_status f08, f08b;
  MPI_Fint f[MPI_F_STATUS_SIZE];
  MPI_Status back;
  memset(&back, 0xff, sizeof back);
  CHECK_MPI(MPI_Status_c2f08(&st, &f08));
  CHECK_MPI(MPI_Status_f082f(&f08, f));
  CHECK_MPI(MPI_Status_f2f08(f, &f08b));
  CHECK_MPI(MPI_Status_f082c(&f08b, &back));
  CHECK(back.MPI_SOURCE == prev && back.MPI_TAG == 40 + prev);
  CHECK(f[MPI_F_SOURCE] == prev && f[MPI_F_TAG] == 40 + prev);
  int count = -1;
  CHECK_MPI(MPI_Get_count(&back, MPI_DOUBLE, &count));
  CHECK(count == 5);

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls = 0;
  MPI_Error_class(MPI_Status_c2f08(MPI_STATUS_IGNORE, &f08), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Error_class(MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &back), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Error_class(MPI_Status_f2f08(f, NULL), &cls);
  CHECK(cls == MPI_ERR_ARG);
  MPI_Finalize();
  return 0;
}
