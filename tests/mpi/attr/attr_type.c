/* Caching on datatypes: predefined and derived, committed or not, copy
 * callbacks on MPI_Type_dup, delete callbacks on MPI_Type_free, and keyval
 * kinds kept apart from communicator keyvals. */
#include "../check.h"
#include "attr_log.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  behaviour keep = {1, NULL, 0}, drop = {0, NULL, 0};
  static int a = 1, b = 2, c = 3, d = 4;
  int flag;
  void *v;

  int k_keep, k_drop, k_dup, k_null;
  CHECK_MPI(MPI_Type_create_keyval(counting_copy, counting_delete, &k_keep, &keep));
  CHECK_MPI(MPI_Type_create_keyval(counting_copy, counting_delete, &k_drop, &drop));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, counting_delete, &k_dup, &keep));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k_null, NULL));

  /* A predefined type can carry attributes. */
  CHECK_MPI(MPI_Type_get_attr(MPI_INT, k_keep, &v, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, k_keep, &a));
  CHECK_MPI(MPI_Type_get_attr(MPI_INT, k_keep, &v, &flag));
  CHECK(flag == 1 && v == &a);
  CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, k_keep, &v, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, k_keep, &b));
  CHECK(log_n == 1 && log_calls[0].what == 'd' && log_calls[0].obj == MPI_INT && log_calls[0].value == &a);
  CHECK_MPI(MPI_Type_delete_attr(MPI_INT, k_keep));
  CHECK(log_n == 2 && log_calls[1].value == &b);

  /* A derived type, before commit; its duplicate gets what the callbacks say. */
  MPI_Datatype t, t2;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
  CHECK_MPI(MPI_Type_set_attr(t, k_keep, &a));
  CHECK_MPI(MPI_Type_set_attr(t, k_drop, &b));
  CHECK_MPI(MPI_Type_set_attr(t, k_dup, &c));
  CHECK_MPI(MPI_Type_set_attr(t, k_null, &d));
  CHECK_MPI(MPI_Type_commit(&t));
  log_clear();
  CHECK_MPI(MPI_Type_dup(t, &t2));
  CHECK(log_n == 2 && log_count('c', k_keep) == 1 && log_count('c', k_drop) == 1);
  CHECK(log_last('c', k_keep)->obj == t && log_last('c', k_keep)->value == &a);
  CHECK_MPI(MPI_Type_get_attr(t2, k_keep, &v, &flag));
  CHECK(flag == 1 && v == &a);
  CHECK_MPI(MPI_Type_get_attr(t2, k_drop, &v, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Type_get_attr(t2, k_dup, &v, &flag));
  CHECK(flag == 1 && v == &c);
  CHECK_MPI(MPI_Type_get_attr(t2, k_null, &v, &flag));
  CHECK(flag == 0);

  log_clear();
  MPI_Datatype t2_handle = t2;
  CHECK_MPI(MPI_Type_free(&t2));
  CHECK(log_n == 2 && log_count('d', k_keep) == 1 && log_count('d', k_dup) == 1);
  CHECK(log_last('d', k_keep)->obj == t2_handle);
  int k_drop_saved = k_drop;
  CHECK_MPI(MPI_Type_free_keyval(&k_drop)); /* still on t: lives until t goes */
  CHECK(k_drop == MPI_KEYVAL_INVALID);
  log_clear();
  MPI_Datatype t_handle = t;
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(log_n == 3 && log_count('d', k_drop_saved) == 1);
  CHECK(log_last('d', k_drop_saved)->obj == t_handle && log_last('d', k_drop_saved)->value == &b);
  /* t was its last user: the keyval is gone. */
  CHECK(MPI_Type_get_attr(MPI_INT, k_drop_saved, &v, &flag) == MPI_ERR_KEYVAL);

  /* A failing delete callback fails MPI_Type_free; the type stays usable. */
  behaviour del_fail = {1, NULL, MPI_ERR_OTHER};
  int k_delfail;
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, counting_delete, &k_delfail, &del_fail));
  MPI_Datatype victim;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &victim));
  CHECK_MPI(MPI_Type_set_attr(victim, k_delfail, &a));
  MPI_Datatype victim_handle = victim;
  CHECK(MPI_Type_free(&victim) == MPI_ERR_OTHER);
  CHECK(victim == victim_handle);
  CHECK_MPI(MPI_Type_get_attr(victim, k_delfail, &v, &flag));
  CHECK(flag == 1 && v == &a);
  del_fail.fail_with = 0;
  CHECK_MPI(MPI_Type_free(&victim));
  CHECK(victim == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Type_free_keyval(&k_delfail));

  /* Kinds and handles are checked. */
  int ck;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
  CHECK(MPI_Type_set_attr(MPI_INT, ck, &a) == MPI_ERR_KEYVAL);
  CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k_keep, &a) == MPI_ERR_KEYVAL);
  CHECK(MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, &a) == MPI_ERR_KEYVAL);
  CHECK(MPI_Type_set_attr(MPI_DATATYPE_NULL, k_keep, &a) == MPI_ERR_TYPE);
  CHECK(MPI_Type_get_attr(t_handle, k_keep, &v, &flag) == MPI_ERR_TYPE); /* freed */
  CHECK(MPI_Type_delete_attr(0x4c0fffff, k_keep) == MPI_ERR_TYPE);
  CHECK(MPI_Type_get_attr(MPI_INT, k_keep, &v, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL) == MPI_ERR_ARG);
  CHECK_MPI(MPI_Comm_free_keyval(&ck));
  CHECK_MPI(MPI_Type_free_keyval(&k_keep));
  CHECK_MPI(MPI_Type_free_keyval(&k_dup));
  CHECK_MPI(MPI_Type_free_keyval(&k_null));
  MPI_Finalize();
  return 0;
}
