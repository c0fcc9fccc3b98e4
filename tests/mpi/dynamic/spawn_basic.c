/* MPI_Comm_spawn of 1 and then 4 children from MPI_COMM_WORLD: a message
 * each way between every child and a parent, an intercommunicator bcast and
 * allreduce, MPI_Intercomm_merge and an allreduce and a window (put with
 * fences) on the merged communicator, MPI_UNIVERSE_SIZE / MPI_APPNUM, MPI_Comm_disconnect. The
 * program spawns itself; a child knows it is one from MPI_Comm_get_parent. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* One-sided communication on the merged communicator: everyone puts its
 * rank into slot `rank` of rank 0's window. */
static void rma_on(MPI_Comm all) {
  int arank, asize;
  MPI_Comm_rank(all, &arank);
  MPI_Comm_size(all, &asize);
  int* base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate(arank == 0 ? (MPI_Aint)(asize * sizeof(int)) : 0, sizeof(int), MPI_INFO_NULL, all,
                             &base, &win));
  if (arank == 0)
    for (int i = 0; i < asize; ++i) base[i] = -1;
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Put(&arank, 1, MPI_INT, 0, arank, 1, MPI_INT, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  if (arank == 0)
    for (int i = 0; i < asize; ++i) CHECK(base[i] == i);
  CHECK_MPI(MPI_Win_free(&win));
}

static void child(MPI_Comm parent, const char* tag) {
  int rank, size, psize, flag, *appnum;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_remote_size(parent, &psize);
  CHECK_MPI(MPI_Comm_test_inter(parent, &flag));
  CHECK(flag);
  CHECK((int)strtol(tag, NULL, 10) == size);  /* the parents passed the count as argv[1] */
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
  CHECK(flag && *appnum == 0);
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Comm_get_name(parent, name, &len);
  CHECK(strcmp(name, "MPI_COMM_PARENT") == 0);

  /* A message each way with parent rank rank % psize. */
  int v = -1;
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, rank % psize, 7, parent, MPI_STATUS_IGNORE));
  CHECK(v == 1000 + rank);
  v = 2000 + rank;
  CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank % psize, 8, parent));

  /* Intercommunicator collectives: the parents' root broadcasts, sums. */
  int b = 0;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, 0, parent));
  CHECK(b == 4242);
  int mine = rank + 1, theirs = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, parent));
  CHECK(theirs == psize * (psize + 1) / 2 * 10);  /* the parents' sum */

  /* Merge: the parents first (they pass high = 0). */
  MPI_Comm all;
  CHECK_MPI(MPI_Intercomm_merge(parent, 1, &all));
  int arank, asize, sum = 0;
  MPI_Comm_rank(all, &arank);
  MPI_Comm_size(all, &asize);
  CHECK(asize == psize + size && arank == psize + rank);
  CHECK_MPI(MPI_Allreduce(&arank, &sum, 1, MPI_INT, MPI_SUM, all));
  CHECK(sum == asize * (asize - 1) / 2);
  CHECK_MPI(MPI_Barrier(all));
  rma_on(all);
  MPI_Comm_free(&all);
  CHECK_MPI(MPI_Comm_disconnect(&parent));
  MPI_Comm p2;
  MPI_Comm_get_parent(&p2);
  CHECK(p2 == MPI_COMM_NULL);  /* freed: no parent any more (MPI-4.1 §11.3.2) */
}

static void parents(const char* self, int n) {
  int rank, size, flag, *usize;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &usize, &flag));
  CHECK(flag && *usize >= size);
  char count[16];
  snprintf(count, sizeof count, "%d", n);
  char* args[] = {count, NULL};
  int codes[8];
  for (int i = 0; i < 8; ++i) codes[i] = -1;
  MPI_Comm inter;
  CHECK_MPI(MPI_Comm_spawn(self, args, n, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
  if (rank == 0)
    for (int i = 0; i < n; ++i) CHECK(codes[i] == MPI_SUCCESS);
  int rsize;
  MPI_Comm_remote_size(inter, &rsize);
  CHECK(rsize == n);
  for (int c = 0; c < n; ++c)
    if (c % size == rank) {
      int v = 1000 + c;
      CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 7, inter));
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE));
      CHECK(v == 2000 + c);
    }
  int b = 4242;
  CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter));
  int mine = (rank + 1) * 10, theirs = 0;
  CHECK_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, inter));
  CHECK(theirs == n * (n + 1) / 2);
  MPI_Comm all;
  CHECK_MPI(MPI_Intercomm_merge(inter, 0, &all));
  int arank, asize, sum = 0;
  MPI_Comm_rank(all, &arank);
  MPI_Comm_size(all, &asize);
  CHECK(asize == size + n && arank == rank);
  CHECK_MPI(MPI_Allreduce(&arank, &sum, 1, MPI_INT, MPI_SUM, all));
  CHECK(sum == asize * (asize - 1) / 2);
  CHECK_MPI(MPI_Barrier(all));
  rma_on(all);
  MPI_Comm_free(&all);
  CHECK_MPI(MPI_Comm_disconnect(&inter));
  CHECK(inter == MPI_COMM_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    CHECK(argc == 2);
    child(parent, argv[1]);
  } else {
    parents(argv[0], 1);
    parents(argv[0], 4);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) printf("spawn_basic: ok\n");
  }
  MPI_Finalize();
  return 0;
}
