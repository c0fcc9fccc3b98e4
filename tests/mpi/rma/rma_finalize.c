/* Windows of every flavour left alive at MPI_Finalize: Finalize frees them.
 * Each window caches an attribute whose delete callback frees its value
 * (so a leak checker sees nothing lost) and counts; after MPI_Finalize the
 * count is one per window and no window segment ("ringmpi-window" memfd) is
 * mapped in this process any more. MPI calls cannot report after Finalize,
 * so those checks print and exit(1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int deleted = 0;
static int on_delete(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win, (void)keyval, (void)extra;
  free(value);
  ++deleted;
  return MPI_SUCCESS;
}

/* Window segments mapped in this process. */
static int mapped_windows(void) {
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) return -1;
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, "ringmpi-window")) ++n;
  fclose(f);
  return n;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int kv;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &kv, NULL));
  MPI_Win win[5];
  int* mem;
  int* shared;
  static int user[4];
  static long attached[4];
  CHECK_MPI(MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win[0]));
  CHECK_MPI(MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &win[1]));
  CHECK_MPI(MPI_Win_create(user, sizeof user, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win[2]));
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win[3]));
  CHECK_MPI(MPI_Win_attach(win[3], attached, sizeof attached));
  /* A window over a sub-communicator (the odd ranks, or rank 0 alone). */
  MPI_Comm half;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
  int* hmem;
  CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, half, &hmem, &win[4]));
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Win_set_attr(win[i], kv, malloc(16)));

  /* Use them, and leave a fence epoch open on one (its operations are done). */
  const int right = (rank + 1) % size;
  CHECK_MPI(MPI_Win_fence(0, win[0]));
  CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, right, 0, 1, MPI_INT, win[0]));
  CHECK_MPI(MPI_Win_fence(0, win[0]));
  CHECK(mem[0] == (rank + size - 1) % size);
  CHECK_MPI(MPI_Win_lock_all(0, win[2]));
  CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, right, 1, 1, MPI_INT, win[2]));
  CHECK_MPI(MPI_Win_unlock_all(win[2]));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK(user[1] == (rank + size - 1) % size);
  /* A freed keyval stays usable by the attributes that hold it. */
  CHECK_MPI(MPI_Win_free_keyval(&kv));
  CHECK(mapped_windows() == 5);

  MPI_Finalize();
  if (deleted != 5) {
    fprintf(stderr, "rank %d: %d of 5 window delete callbacks ran in MPI_Finalize\n", rank, deleted);
    return 1;
  }
  const int left = mapped_windows();
  if (left != 0) {
    fprintf(stderr, "rank %d: %d window segments still mapped after MPI_Finalize\n", rank, left);
    return 1;
  }
  return 0;
}
