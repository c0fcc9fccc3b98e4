/* MPI_Init..Finalize, ranks and sizes of WORLD and SELF, barrier ordering,
 * Wtime/Wtick, versions and the processor name. */
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char **argv) {
  int flag = -1;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 0);
  int provided = -1;
  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
  int q = -1;
  CHECK_MPI(MPI_Query_thread(&q));
  CHECK(q == provided);
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == 0);

  int rank = -1, size = -1, srank = -1, ssize = -1;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size >= 1 && rank >= 0 && rank < size);
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_SELF, &srank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_SELF, &ssize));
  CHECK(srank == 0 && ssize == 1);

  /* Barrier really synchronises: many rounds, a rank that is late by design
   * must not be overtaken. */
  for (int i = 0; i < 200; ++i) CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  double t0 = MPI_Wtime();
  if (rank == 0) usleep(100000);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  double waited = MPI_Wtime() - t0;
  CHECK(waited >= 0.09);
  CHECK(MPI_Wtick() > 0.0 && MPI_Wtick() < 1e-3);

  int v = 0, sv = -1;
  CHECK_MPI(MPI_Get_version(&v, &sv));
  CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION);
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  CHECK_MPI(MPI_Get_library_version(lib, &len));
  CHECK(len == (int)strlen(lib) && strstr(lib, "ringmpi") != NULL);
  char host[MPI_MAX_PROCESSOR_NAME];
  CHECK_MPI(MPI_Get_processor_name(host, &len));
  CHECK(len > 0 && len == (int)strlen(host));

  CHECK_MPI(MPI_Finalize());
  CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 1);
  return 0;
}
