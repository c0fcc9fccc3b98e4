/* Bad RMA input, one case per run (argv[1]); under the default
 * MPI_ERRORS_ARE_FATAL the job must end with a message naming the rank, the
 * call and the argument. Every rank makes a window of 4 ints; rank 1 then
 * makes the bad call while rank 0 waits in a receive nobody matches, so the
 * job only ends if the failing rank takes it down. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void user_fn(void* in, void* inout, int* len, MPI_Datatype* t) {
  (void)in, (void)inout, (void)len, (void)t;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* c = argc > 1 ? argv[1] : "";
  int* mem;
  int v[8] = {0};
  MPI_Win win;
  if (!strcmp(c, "negative_size")) { /* every rank fails, none hangs */
    MPI_Win_allocate(rank == 1 ? -5 : 16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    printf("case %s: the call was not reported as an error\n", c);
  }
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
  /* dynamic_unattached: rank 0 attaches half of dyn_mem (the rest is mapped
   * but not attached) and tells the others where it is. */
  static long dyn_mem[8];
  MPI_Win dyn = MPI_WIN_NULL;
  MPI_Aint dyn_at = 0;
  if (!strcmp(c, "dynamic_unattached") || !strcmp(c, "shared_query_flavor")) {
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
    if (rank == 0) MPI_Win_attach(dyn, dyn_mem, 4 * sizeof(long));
    MPI_Get_address(dyn_mem, &dyn_at);
    MPI_Bcast(&dyn_at, 1, MPI_AINT, 0, MPI_COMM_WORLD);
  }
  MPI_Group world_group, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, 1, (int[]){rank == 0 ? 1 : 0}, &peer); /* np 2: the other rank */
  if (rank == 0) {
    int dummy;
    if (!strcmp(c, "lock_in_start") || !strcmp(c, "rget_in_start"))
      MPI_Win_post(peer, 0, win); /* lets rank 1's start through */
    MPI_Recv(&dummy, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
  } else if (rank == 1) {
    int rc = MPI_SUCCESS;
    if (!strcmp(c, "no_epoch")) rc = MPI_Put(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    if (!strcmp(c, "range")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Put(v, 2, MPI_INT, 0, 3, 2, MPI_INT, win);
    }
    if (!strcmp(c, "huge_disp")) { /* disp x disp_unit overflows: no wrap-around into the window */
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Put(v, 1, MPI_INT, 0, (MPI_Aint)1 << 62, 1, MPI_INT, win);
    }
    if (!strcmp(c, "negative_disp")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Get(v, 1, MPI_INT, 0, -1, 1, MPI_INT, win);
    }
    if (!strcmp(c, "bad_target")) {
      MPI_Win_lock_all(0, win);
      rc = MPI_Get(v, 1, MPI_INT, 7, 0, 1, MPI_INT, win);
    }
    if (!strcmp(c, "signature")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Put(v, 2, MPI_INT, 0, 0, 1, MPI_INT, win);
    }
    if (!strcmp(c, "user_op")) {
      MPI_Op op;
      MPI_Op_create(user_fn, 1, &op);
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Accumulate(v, 1, MPI_INT, 0, 0, 1, MPI_INT, op, win);
    }
    if (!strcmp(c, "dynamic_unattached")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, dyn);
      rc = MPI_Put(v, 2, MPI_LONG, 0, dyn_at + 3 * (MPI_Aint)sizeof(long), 2, MPI_LONG, dyn);
    }
    if (!strcmp(c, "start_in_lock")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Win_start(peer, 0, win);
    }
    if (!strcmp(c, "lock_in_start")) {
      MPI_Win_start(peer, 0, win);
      rc = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    }
    if (!strcmp(c, "rget_in_start")) {
      MPI_Request req;
      MPI_Win_start(peer, 0, win);
      rc = MPI_Rget(v, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req);
    }
    if (!strcmp(c, "bad_win")) rc = MPI_Win_fence(0, (MPI_Win)0x5eed);
    if (!strcmp(c, "unlock_unlocked")) rc = MPI_Win_unlock(0, win);
    if (!strcmp(c, "lock_twice")) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      rc = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    }
    if (!strcmp(c, "bad_locktype")) rc = MPI_Win_lock(77, 0, 0, win);
    if (!strcmp(c, "free_locked")) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      rc = MPI_Win_free(&win);
    }
    if (!strcmp(c, "complete_no_start")) rc = MPI_Win_complete(win);
    if (!strcmp(c, "flush_unlocked")) rc = MPI_Win_flush(0, win);
    if (!strcmp(c, "bad_assert")) rc = MPI_Win_fence(12345, win);
    if (!strcmp(c, "shared_query_flavor")) {
      MPI_Aint sz;
      int du;
      void* p;
      rc = MPI_Win_shared_query(dyn, 0, &sz, &du, &p); /* MPI-4.1: every flavor but dynamic */
    }
    if (!strcmp(c, "comm_errhandler")) {
      MPI_Errhandler eh;
      MPI_Comm_create_errhandler((MPI_Comm_errhandler_function*)user_fn, &eh);
      rc = MPI_Win_set_errhandler(win, eh);
    }
    if (!strcmp(c, "comm_keyval")) {
      int kv;
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
      rc = MPI_Win_set_attr(win, kv, NULL);
    }
    printf("case %s: the call was not reported as an error (rc %d)\n", c, rc);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
