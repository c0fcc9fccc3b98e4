/* Caching on communicators without duplication: both interfaces (MPI-2
 * Comm_*_attr and MPI-1 Attr_*), the delete callback on overwrite, delete and
 * keyval lifetime, callback errors, and every MPI_ERR_KEYVAL case. */
#include "../check.h"
#include "attr_log.h"

static void *get(MPI_Comm comm, int k, int *flag) {
  void *v = NULL;
  CHECK_MPI(MPI_Comm_get_attr(comm, k, &v, flag));
  return v;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  behaviour plain = {1, NULL, 0};
  int a = 1, b = 2, c = 3, flag = -1;

  /* set / get / overwrite / delete, and what the delete callback sees */
  int k = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &k, &plain));
  CHECK(k != MPI_KEYVAL_INVALID);
  get(MPI_COMM_WORLD, k, &flag);
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, &a));
  CHECK(get(MPI_COMM_WORLD, k, &flag) == &a && flag == 1);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k, &c)); /* attributes are per communicator */
  CHECK(get(MPI_COMM_WORLD, k, &flag) == &a && flag == 1);
  CHECK(get(MPI_COMM_SELF, k, &flag) == &c && flag == 1);
  CHECK(log_n == 0);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k, &b));
  CHECK(log_n == 1);
  CHECK(log_calls[0].what == 'd' && log_calls[0].obj == MPI_COMM_WORLD && log_calls[0].keyval == k &&
        log_calls[0].value == &a && log_calls[0].extra == &plain);
  CHECK(get(MPI_COMM_WORLD, k, &flag) == &b && flag == 1);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
  CHECK(log_n == 2 && log_calls[1].value == &b && log_calls[1].obj == MPI_COMM_WORLD);
  get(MPI_COMM_WORLD, k, &flag);
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k)); /* nothing attached: no callback */
  CHECK(log_n == 2);

  /* Freeing a keyval in use: the handle becomes MPI_KEYVAL_INVALID, the
   * attribute stays reachable through a saved copy until it is deleted. */
  int saved = k;
  CHECK_MPI(MPI_Comm_free_keyval(&k));
  CHECK(k == MPI_KEYVAL_INVALID);
  CHECK(get(MPI_COMM_SELF, saved, &flag) == &c && flag == 1);
  CHECK(MPI_Comm_free_keyval(&saved) == MPI_ERR_KEYVAL); /* already freed */
  CHECK(saved != MPI_KEYVAL_INVALID);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, saved));
  CHECK(log_n == 3 && log_calls[2].obj == MPI_COMM_SELF && log_calls[2].value == &c);
  /* Its last attribute is gone, so the keyval is gone too. */
  void *v;
  CHECK(MPI_Comm_get_attr(MPI_COMM_SELF, saved, &v, &flag) == MPI_ERR_KEYVAL);

  /* The MPI-1 interface, and keyvals shared between the two. */
  log_clear();
  int k1 = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, counting_delete, &k1, &plain));
  CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, k1, &a));
  v = NULL;
  CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag));
  CHECK(flag == 1 && v == &a);
  CHECK(get(MPI_COMM_WORLD, k1, &flag) == &a && flag == 1);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k1, &b));
  CHECK(log_count('d', k1) == 1 && log_last('d', k1)->value == &a);
  CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k1));
  CHECK(log_count('d', k1) == 2 && log_last('d', k1)->value == &b);
  CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, k1, &v, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Keyval_free(&k1));
  CHECK(k1 == MPI_KEYVAL_INVALID);

  /* Null callbacks, predefined or plain NULL, are accepted. */
  int k2 = MPI_KEYVAL_INVALID, k3 = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, NULL));
  CHECK_MPI(MPI_Keyval_create(NULL, NULL, &k3, NULL));
  CHECK(k2 != k3);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k2, &a));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, k3, &a));
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, k2));
  CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, k3));
  CHECK_MPI(MPI_Comm_free_keyval(&k2));
  CHECK_MPI(MPI_Keyval_free(&k3));

  /* A delete callback's error code reaches the caller; the value stays. */
  int eclass, ecode;
  CHECK_MPI(MPI_Add_error_class(&eclass));
  CHECK_MPI(MPI_Add_error_code(eclass, &ecode));
  behaviour failing = {1, NULL, ecode};
  int kf = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &kf, &failing));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, kf, &a));
  CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, kf, &b) == ecode);
  CHECK(get(MPI_COMM_WORLD, kf, &flag) == &a && flag == 1);
  CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kf) == ecode);
  CHECK(MPI_Attr_delete(MPI_COMM_WORLD, kf) == ecode);
  CHECK(get(MPI_COMM_WORLD, kf, &flag) == &a && flag == 1);
  int cls = -1;
  CHECK_MPI(MPI_Error_class(ecode, &cls));
  CHECK(cls == eclass);
  failing.fail_with = 0;
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kf));
  CHECK_MPI(MPI_Comm_free_keyval(&kf));

  /* Every way to get a keyval wrong is MPI_ERR_KEYVAL. */
  int tk = MPI_KEYVAL_INVALID, ck = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL));
  int bad[] = {MPI_KEYVAL_INVALID, 0, 12345, -1, tk, MPI_COMM_WORLD, ck ^ 0x00010000};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, bad[i], &a) == MPI_ERR_KEYVAL);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, bad[i], &v, &flag) == MPI_ERR_KEYVAL);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, bad[i]) == MPI_ERR_KEYVAL);
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, bad[i], &a) == MPI_ERR_KEYVAL);
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, bad[i], &v, &flag) == MPI_ERR_KEYVAL);
    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, bad[i]) == MPI_ERR_KEYVAL);
    int copy = bad[i];
    CHECK(MPI_Comm_free_keyval(&copy) == MPI_ERR_KEYVAL);
    CHECK(copy == bad[i]);
    CHECK(MPI_Keyval_free(&copy) == MPI_ERR_KEYVAL);
  }
  CHECK(MPI_Type_set_attr(MPI_INT, ck, &a) == MPI_ERR_KEYVAL);
  CHECK(MPI_Type_get_attr(MPI_INT, ck, &v, &flag) == MPI_ERR_KEYVAL);
  CHECK(MPI_Type_delete_attr(MPI_INT, ck) == MPI_ERR_KEYVAL);
  int copy = ck;
  CHECK(MPI_Type_free_keyval(&copy) == MPI_ERR_KEYVAL);
  CHECK(copy == ck);

  /* Other bad arguments. */
  CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_free_keyval(NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, ck, &v, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, ck, NULL, &flag) == MPI_ERR_ARG);
  CHECK(MPI_Comm_set_attr(MPI_COMM_NULL, ck, &a) == MPI_ERR_COMM);
  CHECK(MPI_Comm_get_attr(MPI_COMM_NULL, ck, &v, &flag) == MPI_ERR_COMM);
  CHECK(MPI_Comm_delete_attr(MPI_COMM_NULL, ck) == MPI_ERR_COMM);
  CHECK(MPI_Attr_put(0x44000777, ck, &a) == MPI_ERR_COMM);
  CHECK_MPI(MPI_Type_free_keyval(&tk));
  CHECK_MPI(MPI_Comm_free_keyval(&ck));

  MPI_Finalize();
  return 0;
}
