/* MPI-4.1 §3.6.1: buffered sends through a communicator's buffer, the
 * process's, MPI_BUFFER_AUTOMATIC, and the flush calls. */
#include <stdlib.h>

#include "check.h"

static int rank, size;

static void exchange(MPI_Comm comm, int tag, int n) {
  int csize, crank;
  MPI_Comm_size(comm, &csize);
  MPI_Comm_rank(comm, &crank);
  const int right = (crank + 1) % csize, left = (crank + csize - 1) % csize;
  int* out = malloc(sizeof(int) * (size_t)n);
  int* in = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; ++i) out[i] = crank + i;
  MPI_Request r;
  CHECK_MPI(MPI_Irecv(in, n, MPI_INT, left, tag, comm, &r));
  CHECK_MPI(MPI_Bsend(out, n, MPI_INT, right, tag, comm));
  for (int i = 0; i < n; ++i) out[i] = -1; /* the buffer holds the copy */
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  for (int i = 0; i < n; ++i) CHECK(in[i] == left + i);
  free(out);
  free(in);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));

  /* A communicator's own buffer: sends on it use it, even with none attached to the process. */
  const int n = 50000; /* larger than the eager limit: the copy waits in the buffer */
  const int bytes = n * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
  void* cbuf = malloc((size_t)bytes);
  CHECK_MPI(MPI_Comm_attach_buffer(dup, cbuf, bytes));
  exchange(dup, 1, n);
  CHECK_MPI(MPI_Comm_flush_buffer(dup));
  MPI_Request fr;
  CHECK_MPI(MPI_Comm_iflush_buffer(dup, &fr));
  CHECK_MPI(MPI_Wait(&fr, MPI_STATUS_IGNORE));
  void* got;
  int got_size;
  CHECK_MPI(MPI_Comm_detach_buffer(dup, &got, &got_size));
  CHECK(got == cbuf && got_size == bytes);
  /* Detached: a second detach gives nothing. */
  CHECK_MPI(MPI_Comm_detach_buffer(dup, &got, &got_size));
  CHECK(got == NULL && got_size == 0);
  free(cbuf);

  /* MPI_BUFFER_AUTOMATIC on the process: any size goes. */
  CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
  exchange(MPI_COMM_WORLD, 2, 1000);
  exchange(MPI_COMM_WORLD, 3, 200000);
  CHECK_MPI(MPI_Buffer_flush());
  CHECK_MPI(MPI_Buffer_iflush(&fr));
  CHECK_MPI(MPI_Wait(&fr, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
  CHECK(got == MPI_BUFFER_AUTOMATIC && got_size == 0);

  /* The communicator's buffer wins over the process's: a process buffer too
   * small for the message, an automatic one on the communicator. */
  void* small = malloc(64 + MPI_BSEND_OVERHEAD);
  CHECK_MPI(MPI_Buffer_attach(small, 64 + MPI_BSEND_OVERHEAD));
  CHECK_MPI(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0));
  exchange(dup, 4, 100000);
  CHECK_MPI(MPI_Comm_detach_buffer(dup, &got, &got_size));
  CHECK(got == MPI_BUFFER_AUTOMATIC);
  /* Attaching twice is an error (MPI_ERR_BUFFER). */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int cls;
  MPI_Error_class(MPI_Buffer_attach(small, 8), &cls);
  CHECK(cls == MPI_ERR_BUFFER);
  CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
  CHECK(got == small);
  free(small);

  CHECK_MPI(MPI_Comm_free(&dup));
  MPI_Finalize();
  return 0;
}
