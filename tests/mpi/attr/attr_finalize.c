/* MPI_Finalize first deletes the attributes of MPI_COMM_SELF, in the reverse
 * order they were set, while MPI is still fully usable (MPI-3.1 §8.7.1);
 * those of MPI_COMM_WORLD are deleted as well, after SELF's. The order is
 * checked after MPI_Finalize returns; a wrong one makes the process exit 1. */
#include <stdio.h>

#include "../check.h"

static int order[8];
static int n_order = 0;
static int problems = 0;

static int at_exit(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)keyval;
  (void)extra;
  int finalized = 1, rank = -1;
  MPI_Finalized(&finalized);
  if (finalized) ++problems;                                      /* must still be false */
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS) ++problems;      /* MPI still works */
  if (n_order < 8) order[n_order] = *(int *)value;
  ++n_order;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  static int one = 1, two = 2, three = 3, four = 4, world = 10;
  int k1, k2, k3, k4, kw;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_exit, &k1, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_exit, &k2, NULL));
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, at_exit, &k3, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_exit, &k4, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_exit, &kw, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, kw, &world)); /* set first, deleted after SELF's */
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k2, &two));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k1, &one));
  CHECK_MPI(MPI_Attr_put(MPI_COMM_SELF, k3, &three));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k4, &four));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, k1, &one)); /* set again: now the most recent */
  CHECK(n_order == 1);                                    /* the overwrite deleted the old value */
  n_order = 0;
  /* A freed keyval still gets its attribute deleted at the end. */
  CHECK_MPI(MPI_Comm_free_keyval(&k4));
  MPI_Finalize();

  const int want[] = {1, 4, 3, 2, 10};
  int ok = n_order == 5 && problems == 0;
  for (int i = 0; ok && i < 5; ++i) ok = order[i] == want[i];
  if (!ok) {
    fprintf(stderr, "attr_finalize: %d deletions (want 5), %d problems, order:", n_order, problems);
    for (int i = 0; i < n_order && i < 8; ++i) fprintf(stderr, " %d", order[i]);
    fprintf(stderr, " (want 1 4 3 2 10)\n");
    return 1;
  }
  return 0;
}
