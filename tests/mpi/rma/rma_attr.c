/* Window housekeeping: user keyvals and attributes (the delete callback runs
 * at MPI_Win_free, once per attribute), names, the window's group, error
 * handlers (MPI_ERRORS_RETURN makes a bad call return its class),
 * MPI_Alloc_mem / MPI_Free_mem, MPI_Pcontrol. */
#include <string.h>

#include "check.h"

static int deleted = 0;
static int on_delete(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win, (void)keyval;
  CHECK(extra == &deleted);
  deleted += *(int*)value;
  return MPI_SUCCESS;
}

static MPI_Win seen_win = MPI_WIN_NULL;
static int seen_code = MPI_SUCCESS;
static void on_error(MPI_Win* win, int* code, ...) {
  seen_win = *win;
  seen_code = *code;
}

static int copies = 0;
static int count_copy(MPI_Comm c, int k, void* extra, void* in, void* out, int* flag) {
  (void)c, (void)k, (void)extra;
  ++copies;
  *(void**)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char* mem;
  CHECK_MPI(MPI_Alloc_mem(1000, MPI_INFO_NULL, &mem));
  memset(mem, 1, 1000);
  /* Making a window must not run the communicator's attribute copy callbacks. */
  int ckv;
  CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &ckv, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, ckv, &copies));
  MPI_Win win;
  CHECK_MPI(MPI_Win_create(mem, 1000, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK(copies == 0);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, ckv));
  CHECK_MPI(MPI_Comm_free_keyval(&ckv));

  int kv, value = 5, value2 = 7, flag = -1;
  void* got;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &kv, &deleted));
  CHECK_MPI(MPI_Win_get_attr(win, kv, &got, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Win_set_attr(win, kv, &value));
  CHECK_MPI(MPI_Win_get_attr(win, kv, &got, &flag));
  CHECK(flag == 1 && got == &value);
  CHECK_MPI(MPI_Win_set_attr(win, kv, &value2)); /* replaces: deletes 5 */
  CHECK(deleted == 5);
  CHECK_MPI(MPI_Win_free_keyval(&kv));
  CHECK(kv == MPI_KEYVAL_INVALID);

  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 0 && name[0] == 0);
  CHECK_MPI(MPI_Win_set_name(win, "table"));
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 5 && strcmp(name, "table") == 0);

  MPI_Errhandler eh;
  CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  int dummy = 0;
  int rc = MPI_Put(&dummy, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* no epoch */
  int cls;
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_SYNC);
  CHECK_MPI(MPI_Win_fence(0, win));
  rc = MPI_Put(&dummy, 1, MPI_INT, 0, 999, 1, MPI_INT, win); /* bytes 999..1003 of 1000 */
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_RANGE);
  rc = MPI_Win_unlock(0, win);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_SYNC);
  CHECK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER) == MPI_SUCCESS);
  /* A user handler gets the window and the code. */
  MPI_Errhandler mine;
  CHECK_MPI(MPI_Win_create_errhandler(on_error, &mine));
  CHECK_MPI(MPI_Win_set_errhandler(win, mine));
  CHECK_MPI(MPI_Errhandler_free(&mine));
  rc = MPI_Win_lock(99, 0, 0, win);
  CHECK(seen_win == win);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_LOCKTYPE && seen_code == rc);
  CHECK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER) == MPI_SUCCESS);
  CHECK(seen_code == MPI_ERR_OTHER);
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  /* The window's handler is its own: MPI_COMM_WORLD's stays fatal. */
  CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  CHECK(eh == MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

  /* Info: a new object each time, holding the hints in use (none for a
   * MPI_Win_create window); hints given to MPI_Win_set_info are accepted. */
  MPI_Info used, hint;
  int nkeys = -1;
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK(used != MPI_INFO_NULL);
  CHECK_MPI(MPI_Info_get_nkeys(used, &nkeys));
  CHECK(nkeys == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Info_create(&hint));
  CHECK_MPI(MPI_Info_set(hint, "no_locks", "true"));
  CHECK_MPI(MPI_Win_set_info(win, hint));
  CHECK_MPI(MPI_Info_free(&hint));
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_free(&used));

  CHECK_MPI(MPI_Win_free(&win));
  CHECK(deleted == 5 + 7);

  /* Dynamic window: a put into this rank's memory that is not attached is
   * MPI_ERR_RMA_RANGE; once attached it lands. */
  CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
  int target[4] = {0, 0, 0, 0}, four[4] = {1, 2, 3, 4};
  MPI_Aint where;
  CHECK_MPI(MPI_Get_address(target, &where));
  CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
  rc = MPI_Put(four, 4, MPI_INT, rank, where, 4, MPI_INT, win);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_RANGE);
  CHECK_MPI(MPI_Win_attach(win, target, 3 * sizeof(int))); /* one int short */
  rc = MPI_Put(four, 4, MPI_INT, rank, where, 4, MPI_INT, win);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_RMA_RANGE);
  CHECK_MPI(MPI_Put(four, 3, MPI_INT, rank, where, 3, MPI_INT, win));
  CHECK_MPI(MPI_Win_unlock(rank, win));
  CHECK(target[0] == 1 && target[2] == 3 && target[3] == 0);
  CHECK_MPI(MPI_Win_detach(win, target));
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Free_mem(mem));
  /* A bad argument on one rank fails the constructor on every rank (no
   * rank is left waiting); the window is not made. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  void* b = NULL;
  win = MPI_WIN_NULL;
  rc = MPI_Win_allocate(64, rank == size - 1 ? 0 : 4, MPI_INFO_NULL, MPI_COMM_WORLD, &b, &win);
  CHECK_MPI(MPI_Error_class(rc, &cls));
  CHECK(cls == MPI_ERR_DISP);
  CHECK(win == MPI_WIN_NULL);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
  CHECK(MPI_Pcontrol(0) == MPI_SUCCESS);
  CHECK(MPI_Pcontrol(2, "extra", 3) == MPI_SUCCESS);
  MPI_Finalize();
  return 0;
}
