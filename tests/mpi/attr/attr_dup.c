/* Copy callbacks on MPI_Comm_dup and delete callbacks on MPI_Comm_free: the
 * predefined copy functions of both interfaces, user callbacks answering
 * flag 0 or 1, what each is called with, errors of a copy callback failing
 * the dup, the predefined attributes following WORLD's duplicates, and error
 * handlers inherited by MPI_Comm_dup and MPI_Comm_split. */
#include "../check.h"
#include "attr_log.h"

static int eh_calls = 0;
static MPI_Comm eh_comm = MPI_COMM_NULL;
static void handler(MPI_Comm *comm, int *code, ...) {
  (void)code;
  ++eh_calls;
  eh_comm = *comm;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  behaviour keep = {1, NULL, 0}, drop = {0, NULL, 0};
  static int a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, replaced = 8;
  behaviour change = {1, &replaced, 0};

  int k_null, k_dup, k1_null, k1_dup, k_keep, k_drop, k_change;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &k_null, &keep));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_delete, &k_dup, &keep));
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, counting_delete, &k1_null, &keep));
  CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, counting_delete, &k1_dup, &keep));
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &k_keep, &keep));
  CHECK_MPI(MPI_Keyval_create(counting_copy, counting_delete, &k_drop, &drop));
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &k_change, &change));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_null, &a));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_dup, &b));
  CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k1_null, &c));
  CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k1_dup, &d));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_keep, &e));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_drop, &f));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k_change, &g));
  log_clear();

  MPI_Comm dup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK(dup != MPI_COMM_NULL && dup != MPI_COMM_WORLD);
  /* Each user copy callback ran once, with WORLD, its keyval, extra and value. */
  CHECK(log_n == 3);
  CHECK(log_count('c', k_keep) == 1 && log_count('c', k_drop) == 1 && log_count('c', k_change) == 1);
  const log_entry *le = log_last('c', k_keep);
  CHECK(le->obj == MPI_COMM_WORLD && le->value == &e && le->extra == &keep);
  le = log_last('c', k_drop);
  CHECK(le->obj == MPI_COMM_WORLD && le->value == &f && le->extra == &drop);

  int flag;
  void *v;
  struct { int k; int present; void *value; } want[] = {
      {k_null, 0, NULL}, {k_dup, 1, &b}, {k1_null, 0, NULL}, {k1_dup, 1, &d},
      {k_keep, 1, &e},   {k_drop, 0, NULL}, {k_change, 1, &replaced}};
  for (int i = 0; i < 7; ++i) {
    v = NULL;
    CHECK_MPI(MPI_Comm_get_attr(dup, want[i].k, &v, &flag));
    CHECK(flag == want[i].present);
    if (flag) CHECK(v == want[i].value);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, want[i].k, &v, &flag)); /* the original is untouched */
    CHECK(flag == 1);
  }
  /* WORLD's predefined attributes come along to its duplicate. */
  int *tag_ub = NULL, *world_tag_ub = NULL;
  CHECK_MPI(MPI_Comm_get_attr(dup, MPI_TAG_UB, &tag_ub, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &world_tag_ub, &flag));
  CHECK(*tag_ub == *world_tag_ub);
  CHECK(MPI_Comm_delete_attr(dup, MPI_TAG_UB) == MPI_ERR_KEYVAL);

  /* A duplicate of the duplicate: copy callbacks see the duplicate and its values. */
  log_clear();
  MPI_Comm dup2 = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(dup, &dup2));
  CHECK(log_n == 2 && log_last('c', k_change)->obj == dup && log_last('c', k_change)->value == &replaced);
  CHECK_MPI(MPI_Comm_get_attr(dup2, MPI_TAG_UB, &v, &flag));
  CHECK(flag == 1);

  /* Freeing deletes exactly the duplicate's attributes, with its handle. */
  log_clear();
  MPI_Comm dup_handle = dup;
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK(dup == MPI_COMM_NULL);
  CHECK(log_n == 4);
  CHECK(log_count('d', k_dup) == 1 && log_count('d', k1_dup) == 1 && log_count('d', k_keep) == 1 &&
        log_count('d', k_change) == 1);
  CHECK(log_last('d', k_change)->obj == dup_handle && log_last('d', k_change)->value == &replaced);
  CHECK(log_last('d', k_dup)->value == &b && log_last('d', k_dup)->extra == &keep);

  /* A keyval freed while attached still copies and deletes. */
  CHECK_MPI(MPI_Comm_free_keyval(&k_keep));
  CHECK(k_keep == MPI_KEYVAL_INVALID);
  log_clear();
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  CHECK(log_n == 3);
  CHECK_MPI(MPI_Comm_free(&dup));
  CHECK(log_n == 3 + 4);

  /* A failing copy callback fails the dup with its code. */
  int cls, code;
  CHECK_MPI(MPI_Add_error_class(&cls));
  CHECK_MPI(MPI_Add_error_code(cls, &code));
  behaviour failing = {1, NULL, code};
  int k_fail;
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, MPI_COMM_NULL_DELETE_FN, &k_fail, &failing));
  CHECK_MPI(MPI_Comm_set_attr(dup2, k_fail, &a));
  MPI_Comm bad = MPI_COMM_NULL;
  CHECK(MPI_Comm_dup(dup2, &bad) == code);
  failing.fail_with = 0;
  CHECK_MPI(MPI_Comm_delete_attr(dup2, k_fail));
  CHECK_MPI(MPI_Comm_free_keyval(&k_fail));

  /* A failing delete callback fails MPI_Comm_free with its code; the
   * communicator and its attributes stay. */
  behaviour del_fail = {1, NULL, code};
  int k_delfail;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, counting_delete, &k_delfail, &del_fail));
  MPI_Comm victim;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &victim));
  CHECK_MPI(MPI_Comm_set_attr(victim, k_delfail, &a));
  MPI_Comm victim_handle = victim;
  CHECK(MPI_Comm_free(&victim) == code);
  CHECK(victim == victim_handle);
  int vsize = 0;
  CHECK_MPI(MPI_Comm_size(victim, &vsize));
  CHECK(vsize > 0);
  CHECK_MPI(MPI_Comm_get_attr(victim, k_delfail, &v, &flag));
  CHECK(flag == 1 && v == &a);
  del_fail.fail_with = 0;
  CHECK_MPI(MPI_Comm_free(&victim));
  CHECK(victim == MPI_COMM_NULL);
  CHECK_MPI(MPI_Comm_free_keyval(&k_delfail));

  /* Error handlers are inherited by dup and split. */
  MPI_Errhandler eh;
  CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
  CHECK_MPI(MPI_Comm_set_errhandler(dup2, eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  MPI_Comm dup3, split;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK_MPI(MPI_Comm_dup(dup2, &dup3));
  CHECK_MPI(MPI_Comm_split(dup2, rank % 2, 0, &split));
  CHECK(MPI_Comm_rank(dup3, NULL) != MPI_SUCCESS && eh_calls == 1 && eh_comm == dup3);
  CHECK(MPI_Comm_rank(split, NULL) != MPI_SUCCESS && eh_calls == 2 && eh_comm == split);
  MPI_Errhandler got;
  CHECK_MPI(MPI_Comm_get_errhandler(split, &got));
  CHECK(got != MPI_ERRHANDLER_NULL && got != MPI_ERRORS_RETURN && got != MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Errhandler_free(&got));
  CHECK_MPI(MPI_Comm_free(&split));
  CHECK_MPI(MPI_Comm_free(&dup3));
  CHECK_MPI(MPI_Comm_free(&dup2));

  int *keys[] = {&k_null, &k_dup, &k_drop, &k_change};
  for (int i = 0; i < 4; ++i) {
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, *keys[i]));
    CHECK_MPI(MPI_Comm_free_keyval(keys[i]));
  }
  CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k1_null));
  CHECK_MPI(MPI_Keyval_free(&k1_null));
  CHECK_MPI(MPI_Keyval_free(&k1_dup)); /* still on WORLD: deleted at MPI_Finalize */
  MPI_Finalize();
  return 0;
}
