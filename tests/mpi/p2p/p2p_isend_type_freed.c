/* A pending send whose derived datatype was freed right after the call
 * (MPI-4.1 §5.1.9: "MPI_TYPE_FREE ... any communication that is currently
 * using this datatype will complete normally"), contiguous types included.
 * Rank 0 starts synchronous sends of a contiguous and a vector type to every
 * other rank, frees both types at once and waits while the receivers are
 * still sleeping: its waits go to sleep and describe the pending request
 * (the deadlock detector's stuck-call text), which once read the freed
 * contiguous type (AddressSanitizer: heap-use-after-free in add_request,
 * api/call_report.cpp). Run under build-asan to see it; here the results are
 * checked. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define N 64

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    int *data = malloc(sizeof(int) * 2 * N);
    for (int i = 0; i < 2 * N; ++i) data[i] = i * 3 + 1;
    MPI_Request *r = malloc(sizeof(MPI_Request) * 2 * (size_t)(size > 1 ? size : 1));
    for (int p = 1; p < size; ++p) {
      MPI_Datatype contig, vec;
      CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &contig));
      CHECK_MPI(MPI_Type_commit(&contig));
      CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &vec));  /* the even elements */
      CHECK_MPI(MPI_Type_commit(&vec));
      CHECK_MPI(MPI_Issend(data, 1, contig, p, 1, MPI_COMM_WORLD, &r[2 * (p - 1)]));
      CHECK_MPI(MPI_Issend(data, 1, vec, p, 2, MPI_COMM_WORLD, &r[2 * (p - 1) + 1]));
      CHECK_MPI(MPI_Type_free(&contig));
      CHECK_MPI(MPI_Type_free(&vec));
    }
    CHECK_MPI(MPI_Waitall(2 * (size - 1), r, MPI_STATUSES_IGNORE));
    for (int p = 1; p < size; ++p) {  /* the same once more, each request waited for alone */
      MPI_Datatype contig;
      MPI_Request q;
      CHECK_MPI(MPI_Type_contiguous(N, MPI_INT, &contig));
      CHECK_MPI(MPI_Type_commit(&contig));
      CHECK_MPI(MPI_Issend(data, 1, contig, p, 3, MPI_COMM_WORLD, &q));
      CHECK_MPI(MPI_Type_free(&contig));
      CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    }
    free(r);
    free(data);
  } else {
    /* Long enough for rank 0's wait to pass its spinning and go to sleep. */
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    int got[N];
    CHECK_MPI(MPI_Recv(got, N, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) CHECK(got[i] == i * 3 + 1);
    CHECK_MPI(MPI_Recv(got, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) CHECK(got[i] == 2 * i * 3 + 1);
    nanosleep(&pause, NULL);
    CHECK_MPI(MPI_Recv(got, N, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; ++i) CHECK(got[i] == i * 3 + 1);
  }
  MPI_Finalize();
  return 0;
}
