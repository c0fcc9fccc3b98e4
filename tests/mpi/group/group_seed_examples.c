/* The group examples of MPI-3.1 §6.5 (chapter 5 of the seed documents),
 * made runnable and checked: "current practice #3" (everybody but rank 0),
 * example #4 (a subgroup ring), library example #2 (two overlapping
 * subgroups), and the translate_ranks step of the intercommunicator server
 * example. Rank lists naming ranks past the world size are cut to it. */
#include "check.h"

#define TAG_ARBITRARY 12345
#define SOME_COUNT 50

static int rank, size;

/* Current practice #3: a communicator of all but rank 0. */
static void practice3(void) {
  MPI_Group world_group, grpem;
  static int ranks[] = {0};
  MPI_Comm commslave;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  CHECK_MPI(MPI_Group_excl(world_group, 1, ranks, &grpem)); /* local */
  int n, me;
  CHECK_MPI(MPI_Group_size(grpem, &n));
  CHECK(n == size - 1);
  CHECK_MPI(MPI_Group_rank(grpem, &me));
  CHECK(me == (rank == 0 ? MPI_UNDEFINED : rank - 1));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, grpem, &commslave));
  if (rank != 0) {
    int send = rank, recv = -1;
    CHECK_MPI(MPI_Reduce(&send, &recv, 1, MPI_INT, MPI_SUM, 1 % (size - 1), commslave));
    if (me == 1 % (size - 1)) CHECK(recv == size * (size - 1) / 2);
  } else {
    CHECK(commslave == MPI_COMM_NULL);
  }
  int send2 = 1, recv2 = -1;
  CHECK_MPI(MPI_Reduce(&send2, &recv2, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
  if (rank == 0) CHECK(recv2 == size);
  if (commslave != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&commslave));
  CHECK_MPI(MPI_Group_free(&world_group));
  CHECK_MPI(MPI_Group_free(&grpem));
}

/* Example #4: ranks {2, 4, 6, 8} form a ring; point-to-point and
 * collective traffic on the same communicator do not mix. */
static void example4(void) {
  MPI_Group world_group, subgroup;
  int list[] = {2, 4, 6, 8}, ranks[4], k = 0;
  for (int i = 0; i < 4; ++i)
    if (list[i] < size) ranks[k++] = list[i];
  MPI_Comm the_comm;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  CHECK_MPI(MPI_Group_incl(world_group, k, ranks, &subgroup)); /* local */
  if (k == 0) CHECK(subgroup == MPI_GROUP_EMPTY);
  int me;
  CHECK_MPI(MPI_Group_rank(subgroup, &me)); /* local */
  CHECK(me == ((rank >= 2 && rank % 2 == 0 && rank <= 8) ? rank / 2 - 1 : MPI_UNDEFINED));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, subgroup, &the_comm));
  if (me != MPI_UNDEFINED) {
    double buff1 = -1.0, buff2 = me;
    MPI_Request request[2];
    MPI_Status status[2];
    CHECK_MPI(MPI_Irecv(&buff1, 1, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_ARBITRARY, the_comm, request));
    CHECK_MPI(MPI_Isend(&buff2, 1, MPI_DOUBLE, (me + 1) % k, TAG_ARBITRARY, the_comm, request + 1));
    for (int i = 0; i < SOME_COUNT; i++) {
      int v = i + me, sum = -1;
      CHECK_MPI(MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, the_comm));
      if (me == 0) CHECK(sum == k * i + k * (k - 1) / 2);
    }
    CHECK_MPI(MPI_Waitall(2, request, status));
    CHECK(buff1 == (double)((me + k - 1) % k));
    CHECK(status[0].MPI_SOURCE == (me + k - 1) % k);
    CHECK_MPI(MPI_Comm_free(&the_comm));
  } else {
    CHECK(the_comm == MPI_COMM_NULL);
  }
  CHECK_MPI(MPI_Group_free(&world_group));
  if (subgroup != MPI_GROUP_EMPTY) CHECK_MPI(MPI_Group_free(&subgroup));
}

/* Library example #2 (variant 2B): lists {0, 1} and {0, 2, 3}; the
 * library's rank 0 collects one message from every other rank. */
static int lib_call(MPI_Comm comm) {
  int me, n, got = 0;
  CHECK_MPI(MPI_Comm_rank(comm, &me));
  CHECK_MPI(MPI_Comm_size(comm, &n));
  if (me == 0) {
    for (int done = 0; done < n - 1; ++done) {
      int v;
      MPI_Status st;
      CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
      CHECK(v == st.MPI_SOURCE * 10 + st.MPI_TAG);
      got += v;
    }
  } else {
    const int v = me * 10 + 7;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 7, comm));
  }
  return got;
}

static void library2(void) {
  static int all_a[] = {0, 1}, all_b[] = {0, 2, 3};
  int list_a[2], list_b[3], na = 0, nb = 0;
  for (int i = 0; i < 2; ++i)
    if (all_a[i] < size) list_a[na++] = all_a[i];
  for (int i = 0; i < 3; ++i)
    if (all_b[i] < size) list_b[nb++] = all_b[i];
  MPI_Group world_group, group_a, group_b;
  MPI_Comm comm_a, comm_b;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
  CHECK_MPI(MPI_Group_incl(world_group, na, list_a, &group_a));
  CHECK_MPI(MPI_Group_incl(world_group, nb, list_b, &group_b));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, group_a, &comm_a));
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, group_b, &comm_b));
  int ma, mb;
  CHECK_MPI(MPI_Group_rank(group_a, &ma));
  CHECK_MPI(MPI_Group_rank(group_b, &mb));
  CHECK((ma == MPI_UNDEFINED) == (comm_a == MPI_COMM_NULL));
  CHECK((mb == MPI_UNDEFINED) == (comm_b == MPI_COMM_NULL));
  MPI_Group ab;
  int res;
  CHECK_MPI(MPI_Group_intersection(group_a, group_b, &ab));
  int n_ab;
  CHECK_MPI(MPI_Group_size(ab, &n_ab));
  CHECK(n_ab == 1); /* rank 0 is in both lists */
  CHECK_MPI(MPI_Group_compare(group_a, group_b, &res));
  CHECK(res == (size == 1 ? MPI_IDENT : MPI_UNEQUAL));
  if (ma != MPI_UNDEFINED) {
    const int got = lib_call(comm_a);
    if (ma == 0) CHECK(got == (na == 2 ? 17 : 0));
  }
  if (mb != MPI_UNDEFINED) {
    int got = lib_call(comm_b);
    got += lib_call(comm_b);
    if (mb == 0) CHECK(got == 2 * (nb >= 2 ? 17 : 0) + 2 * (nb >= 3 ? 27 : 0));
  }
  if (comm_a != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comm_a));
  if (comm_b != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&comm_b));
  CHECK_MPI(MPI_Group_free(&ab));
  CHECK_MPI(MPI_Group_free(&group_a));
  CHECK_MPI(MPI_Group_free(&group_b));
  CHECK_MPI(MPI_Group_free(&world_group));
}

/* The intercommunicator server example: the clients split off, then find
 * the peer leader's rank in their new communicator by translate_ranks. */
static void server_split(void) {
  if (size < 2) return;
  const int rank_of_server = size - 1, key = 0;
  const int peer_leader = (rank_of_server + 1) % size; /* arbitrary choice */
  const int color = (rank == rank_of_server);
  MPI_Comm temp_comm;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, key, &temp_comm));
  if (!color) {
    MPI_Group peer_group, temp_group;
    int peer_leader_rank_in_temp_comm = -5;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &peer_group));
    CHECK_MPI(MPI_Comm_group(temp_comm, &temp_group));
    CHECK_MPI(MPI_Group_translate_ranks(peer_group, 1, &peer_leader, temp_group, &peer_leader_rank_in_temp_comm));
    CHECK(peer_leader_rank_in_temp_comm == peer_leader); /* ranks 0..size-2 keep their order */
    int server_in_temp = -5;
    CHECK_MPI(MPI_Group_translate_ranks(peer_group, 1, &rank_of_server, temp_group, &server_in_temp));
    CHECK(server_in_temp == MPI_UNDEFINED);
    CHECK_MPI(MPI_Group_free(&peer_group));
    CHECK_MPI(MPI_Group_free(&temp_group));
  }
  CHECK_MPI(MPI_Comm_free(&temp_comm));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  if (size > 1) practice3();
  example4();
  library2();
  server_split();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
