/* The motivating examples of MPI-1 §5.5 (seed 003), made runnable: the three
 * "current practice" programs, example #4 and the two library examples
 * (2A, 2B, 2C). Broadcast and reduce steps are written with point-to-point
 * on the same communicators, on purpose with the same tags, so a context
 * that leaked traffic would show up as a wrong value. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int me, size;

/* "Reduce" of one int to root over comm, with point-to-point and tag 0. */
static int p2p_reduce_sum(int v, int root, MPI_Comm comm) {
  int r, n, sum = v;
  CHECK_MPI(MPI_Comm_rank(comm, &r));
  CHECK_MPI(MPI_Comm_size(comm, &n));
  if (r != root) {
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, root, 0, comm));
    return -1;
  }
  /* Named sources: with MPI_ANY_SOURCE a fast rank's next reduce could be
   * taken for this one (the "back-masking" of library example #2). */
  for (int i = 0; i < n; ++i) {
    if (i == root) continue;
    int x;
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, i, 0, comm, MPI_STATUS_IGNORE));
    sum += x;
  }
  return sum;
}

/* #1a and #1b: ranks, sizes, even sends to odd on MPI_COMM_WORLD. */
static void practice_1(void) {
  CHECK(me >= 0 && me < size);
  const int SOME_TAG = 0;
  int v = me;
  if (me % 2 == 0) {
    if (me + 1 < size) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, me + 1, SOME_TAG, MPI_COMM_WORLD));
  } else {
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, me - 1, SOME_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(v == me - 1);
  }
}

/* #2: rank 0 makes "data", everybody gets it (a broadcast by hand). */
static void practice_2(void) {
  char data[64];
  int count = 0;
  if (me == 0) {
    strcpy(data, "input read by rank 0");
    count = (int)strlen(data) + 1;
    for (int q = 1; q < size; ++q) CHECK_MPI(MPI_Send(data, count, MPI_BYTE, q, 0, MPI_COMM_WORLD));
  } else {
    MPI_Status st;
    CHECK_MPI(MPI_Recv(data, (int)sizeof data, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
  }
  CHECK(count == 21 && strcmp(data, "input read by rank 0") == 0);
}

/* #3: commslave = everybody but 0; a reduce inside it, then one over
 * MPI_COMM_WORLD to 0, which gets there at once: both with tag 0. */
static void practice_3(void) {
  MPI_Group world, grpem;
  MPI_Comm commslave;
  static int ranks[] = {0};
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_excl(world, 1, ranks, &grpem));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, grpem, &commslave));
  if (me != 0) {
    int s = p2p_reduce_sum(me, 0, commslave); /* root: world rank 1 */
    if (me == 1) CHECK(s == size * (size - 1) / 2);
  } else {
    CHECK(commslave == MPI_COMM_NULL);
  }
  int s = p2p_reduce_sum(10 * me, 0, MPI_COMM_WORLD);
  if (me == 0) CHECK(s == 10 * size * (size - 1) / 2);
  if (commslave != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&commslave));
  CHECK_MPI(MPI_Group_free(&world));
  CHECK_MPI(MPI_Group_free(&grpem));
}

/* #4: a pending wildcard receive on the_comm survives SOME_COUNT collective
 * calls on the_comm (here barriers, plus reduces by hand with another tag). */
static void example_4(void) {
  enum { TAG_ARBITRARY = 12345, SOME_COUNT = 50 };
  int ranks[4], n = 0;
  for (int w = 2; w <= 8 && n < 4; w += 2)
    if (w < size) ranks[n++] = w; /* the seed's {2, 4, 6, 8}, as far as the job goes */
  MPI_Group world, subgroup;
  MPI_Comm the_comm;
  int sub_me = MPI_UNDEFINED;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_incl(world, n, ranks, &subgroup));
  CHECK_MPI(MPI_Group_rank(subgroup, &sub_me));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, subgroup, &the_comm));
  if (sub_me != MPI_UNDEFINED) {
    double buff1[8], buff2[8];
    for (int i = 0; i < 8; ++i) buff2[i] = 100.0 * sub_me + i;
    MPI_Request request[2];
    MPI_Status status[2];
    CHECK_MPI(MPI_Irecv(buff1, 8, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_ARBITRARY, the_comm, request));
    CHECK_MPI(MPI_Isend(buff2, 8, MPI_DOUBLE, (sub_me + 1) % n, TAG_ARBITRARY, the_comm, request + 1));
    for (int i = 0; i < SOME_COUNT; i++) {
      CHECK_MPI(MPI_Barrier(the_comm));
      int s = p2p_reduce_sum(i, 0, the_comm);
      if (sub_me == 0) CHECK(s == i * n);
    }
    CHECK_MPI(MPI_Waitall(2, request, status));
    const int from = (sub_me - 1 + n) % n;
    CHECK(status[0].MPI_SOURCE == from && status[0].MPI_TAG == TAG_ARBITRARY);
    for (int i = 0; i < 8; ++i) CHECK(buff1[i] == 100.0 * from + i);
    CHECK_MPI(MPI_Comm_free(&the_comm));
  } else {
    CHECK(the_comm == MPI_COMM_NULL);
  }
  CHECK_MPI(MPI_Group_free(&world));
  CHECK_MPI(MPI_Group_free(&subgroup));
}

/* Library example #1: two instances of one library, each on its own dup of
 * MPI_COMM_WORLD, with operations pending while the main program reduces
 * on MPI_COMM_WORLD. Same tags everywhere. */
typedef struct {
  MPI_Comm comm;
  MPI_Request irecv_handle, isend_handle;
  int out, in;
} user_lib_t;

static void init_user_lib(MPI_Comm comm, user_lib_t **handle) {
  user_lib_t *save = calloc(1, sizeof *save);
  CHECK(save != NULL);
  CHECK_MPI(MPI_Comm_dup(comm, &save->comm));
  *handle = save;
}
static void user_start_op(user_lib_t *h, int data) {
  int r, n;
  CHECK_MPI(MPI_Comm_rank(h->comm, &r));
  CHECK_MPI(MPI_Comm_size(h->comm, &n));
  h->out = data;
  CHECK_MPI(MPI_Irecv(&h->in, 1, MPI_INT, (r - 1 + n) % n, 0, h->comm, &h->irecv_handle));
  CHECK_MPI(MPI_Isend(&h->out, 1, MPI_INT, (r + 1) % n, 0, h->comm, &h->isend_handle));
}
static void user_end_op(user_lib_t *h) {
  MPI_Status status;
  CHECK_MPI(MPI_Wait(&h->isend_handle, &status));
  CHECK_MPI(MPI_Wait(&h->irecv_handle, &status));
}
static void uninit_user_lib(user_lib_t *h) {
  CHECK_MPI(MPI_Comm_free(&h->comm));
  free(h);
}

static void library_1(void) {
  user_lib_t *libh_a, *libh_b;
  init_user_lib(MPI_COMM_WORLD, &libh_a);
  init_user_lib(MPI_COMM_WORLD, &libh_b);
  user_start_op(libh_a, 1000 + me);
  user_start_op(libh_b, 2000 + me);
  for (int round = 0; round < 3; ++round) {
    int s = p2p_reduce_sum(round, 0, MPI_COMM_WORLD);
    if (me == 0) CHECK(s == round * size);
  }
  user_end_op(libh_a);
  user_end_op(libh_b);
  const int left = (me - 1 + size) % size;
  CHECK(libh_a->in == 1000 + left);
  CHECK(libh_b->in == 2000 + left);
  uninit_user_lib(libh_a);
  uninit_user_lib(libh_b);
}

/* Library example #2: lib_call's rank 0 takes (size - 1) messages from any
 * source with any tag; each message says which call sent it. */
static int calls_seen[2];
static void lib_call(MPI_Comm comm, int call, int with_barrier, int check_call) {
  int r, n;
  CHECK_MPI(MPI_Comm_rank(comm, &r));
  CHECK_MPI(MPI_Comm_size(comm, &n));
  if (r == 0) {
    for (int done = 0; done < n - 1; ++done) {
      int msg;
      CHECK_MPI(MPI_Recv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, MPI_STATUS_IGNORE));
      if (check_call) CHECK(msg == call);
      CHECK(msg == 0 || msg == 1);
      calls_seen[msg]++;
    }
  } else {
    CHECK_MPI(MPI_Send(&call, 1, MPI_INT, 0, 7 /* ARBITRARY_TAG */, comm));
  }
  if (with_barrier) CHECK_MPI(MPI_Barrier(comm));
}

static void library_2(char variant) {
  static int list_a[] = {0, 1};
  int list_b[3] = {0, 2, 3};
  const int size_b = variant == 'A' ? 2 : 3;
  MPI_Group world, group_a, group_b;
  MPI_Comm comm_a, comm_b;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_incl(world, 2, list_a, &group_a));
  CHECK_MPI(MPI_Group_incl(world, size_b, list_b, &group_b));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, group_a, &comm_a));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, group_b, &comm_b));
  calls_seen[0] = calls_seen[1] = 0;
  /* 2A: one sender per communicator, ordering alone keeps calls apart.
   * 2C: the barrier keeps them apart. 2B: only the totals are certain. */
  const int exact = variant != 'B';
  if (comm_a != MPI_COMM_NULL) lib_call(comm_a, 0, variant == 'C', 1);
  if (comm_b != MPI_COMM_NULL) {
    lib_call(comm_b, 0, variant == 'C', exact);
    lib_call(comm_b, 1, variant == 'C', exact);
  }
  if (me == 0) CHECK(calls_seen[0] == 1 + (size_b - 1) && calls_seen[1] == size_b - 1);
  if (comm_a != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comm_a));
  if (comm_b != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comm_b));
  CHECK_MPI(MPI_Group_free(&group_a));
  CHECK_MPI(MPI_Group_free(&group_b));
  CHECK_MPI(MPI_Group_free(&world));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &me));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  practice_1();
  practice_2();
  if (size >= 2) practice_3();
  example_4();
  library_1();
  if (size >= 3) library_2('A');
  if (size >= 4) {
    library_2('B');
    library_2('C');
  }
  CHECK_MPI(MPI_Finalize());
  return 0;
}
