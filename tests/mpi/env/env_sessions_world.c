/* Sessions and the World Model in one program (MPI-4.0 §11.3): a session
 * opened before MPI_Init, used beside MPI_COMM_WORLD, another one opened
 * after MPI_Finalize; MPI_Initialized/MPI_Finalized follow the World Model
 * only. */
#include <string.h>

#include "check.h"

static MPI_Comm comm_of(MPI_Session s, const char* tag) {
  MPI_Group g;
  CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c));
  CHECK_MPI(MPI_Group_free(&g));
  return c;
}

int main(int argc, char** argv) {
  MPI_Session before;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &before));
  MPI_Comm sc = comm_of(before, "org.test.before");
  int provided, flag;
  CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided));
  CHECK(provided >= MPI_THREAD_SERIALIZED);
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int r2;
  CHECK_MPI(MPI_Comm_rank(sc, &r2));
  CHECK(r2 == rank); /* mpi://WORLD is MPI_COMM_WORLD's group, in its order */
  int cmp;
  CHECK_MPI(MPI_Comm_compare(sc, MPI_COMM_WORLD, &cmp));
  CHECK(cmp == MPI_CONGRUENT);
  /* Traffic on both at once does not mix. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int a = rank, b = rank + 1000, ra = -1, rb = -1;
  MPI_Request reqs[4];
  CHECK_MPI(MPI_Irecv(&ra, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]));
  CHECK_MPI(MPI_Irecv(&rb, 1, MPI_INT, left, 0, sc, &reqs[1]));
  CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, right, 0, sc, &reqs[2]));
  CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[3]));
  CHECK_MPI(MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE));
  CHECK(ra == left && rb == left + 1000);
  CHECK_MPI(MPI_Comm_free(&sc));
  CHECK_MPI(MPI_Session_finalize(&before));

  MPI_Session during;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &during));
  CHECK_MPI(MPI_Finalize());
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag);
  /* The session opened before MPI_Finalize still works after it. */
  MPI_Comm dc = comm_of(during, "org.test.during");
  int sum;
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dc));
  CHECK(sum == size * (size - 1) / 2);
  /* And one opened after MPI_Finalize. */
  MPI_Session after;
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &after));
  MPI_Comm ac = comm_of(after, "org.test.after");
  CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ac));
  CHECK(sum == size * (size - 1) / 2);
  CHECK_MPI(MPI_Comm_free(&ac));
  CHECK_MPI(MPI_Session_finalize(&after));
  CHECK_MPI(MPI_Comm_free(&dc));
  CHECK_MPI(MPI_Session_finalize(&during));
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag);
  return 0;
}
