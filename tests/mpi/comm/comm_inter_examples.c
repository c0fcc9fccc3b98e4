/* The intercommunication examples of MPI-1 §5.6.3 (seed 003): the
 * three-group "pipeline" and the three-group "ring", with the seed's
 * leaders and tags and some work pushed through the intercommunicators.
 * Groups: membershipKey = rank % 3, so group k's world ranks are k, k+3, ...
 * and its leader is world rank k. Needs at least 3 ranks. */
#include "check.h"

static int rank, size;

static int group_size(int k) { return (size - k + 2) / 3; }

/* Local rank j of group `from` sends v to remote rank j (if it exists). */
static void send_across(MPI_Comm ic, int v, int tag) {
  int j, rs;
  CHECK_MPI(MPI_Comm_rank(ic, &j));
  CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
  if (j < rs) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, j, tag, ic));
}
/* Local rank j receives from remote rank j; -1 when there is none. */
static int recv_across(MPI_Comm ic, int tag) {
  int j, rs, v = -1;
  CHECK_MPI(MPI_Comm_rank(ic, &j));
  CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
  if (j < rs) {
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, j, tag, ic, &st));
    CHECK(st.MPI_SOURCE == j);
  }
  return v;
}

static void check_inter(MPI_Comm ic, int local_group, int remote_group) {
  int flag, ls, rs;
  CHECK_MPI(MPI_Comm_test_inter(ic, &flag));
  CHECK_MPI(MPI_Comm_size(ic, &ls));
  CHECK_MPI(MPI_Comm_remote_size(ic, &rs));
  CHECK(flag && ls == group_size(local_group) && rs == group_size(remote_group));
}

static void pipeline(void) {
  MPI_Comm myComm, myFirstComm, mySecondComm;
  int membershipKey = rank % 3;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, membershipKey, rank, &myComm));
  if (membershipKey == 0) {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 1, 1, &myFirstComm));
  } else if (membershipKey == 1) {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 0, 1, &myFirstComm));
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 2, 12, &mySecondComm));
  } else {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 1, 12, &myFirstComm));
  }

  /* Work: group 0 feeds world ranks into the pipe, group 1 adds one, group
   * 2 checks. Local rank j of every group talks to remote rank j. */
  int j;
  CHECK_MPI(MPI_Comm_rank(myComm, &j));
  if (membershipKey == 0) {
    check_inter(myFirstComm, 0, 1);
    send_across(myFirstComm, rank, 5);
  } else if (membershipKey == 1) {
    check_inter(myFirstComm, 1, 0);
    check_inter(mySecondComm, 1, 2);
    int v = recv_across(myFirstComm, 5);
    send_across(mySecondComm, v < 0 ? v : v + 1, 5);
  } else {
    check_inter(myFirstComm, 2, 1);
    int v = recv_across(myFirstComm, 5);
    if (j < group_size(1)) CHECK(v == (j < group_size(0) ? 3 * j + 1 : -1));
  }
  /* Intercommunicator barriers: group 1 is in both. */
  CHECK_MPI(MPI_Barrier(myFirstComm));
  if (membershipKey == 1) CHECK_MPI(MPI_Barrier(mySecondComm));

  switch (membershipKey) {
    case 1:
      CHECK_MPI(MPI_Comm_free(&mySecondComm));
      /* fall through */
    case 0:
    case 2:
      CHECK_MPI(MPI_Comm_free(&myFirstComm));
      break;
  }
  CHECK_MPI(MPI_Comm_free(&myComm));
}

static void ring(void) {
  MPI_Comm myComm, myFirstComm, mySecondComm;
  int membershipKey = rank % 3;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, membershipKey, rank, &myComm));
  if (membershipKey == 0) {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 1, 1, &myFirstComm));
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 2, 2, &mySecondComm));
  } else if (membershipKey == 1) {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 0, 1, &myFirstComm));
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 2, 12, &mySecondComm));
  } else {
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 0, 2, &myFirstComm));
    CHECK_MPI(MPI_Intercomm_create(myComm, 0, MPI_COMM_WORLD, 1, 12, &mySecondComm));
  }
  /* Work: around the ring 0 -> 1 -> 2 -> 0, each hop through the
   * intercommunicator the seed sets up between those groups. */
  MPI_Comm to_next = membershipKey == 1 ? mySecondComm : myFirstComm;  /* 0->1, 1->2, 2->0 */
  MPI_Comm from_prev = membershipKey == 1 ? myFirstComm : mySecondComm; /* 2->0, 0->1, 1->2 */
  int j;
  CHECK_MPI(MPI_Comm_rank(myComm, &j));
  const int prev = (membershipKey + 2) % 3;
  MPI_Request q = MPI_REQUEST_NULL;
  int rs, v = -1, out = 100 * membershipKey + j;
  CHECK_MPI(MPI_Comm_remote_size(from_prev, &rs));
  if (j < rs) CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, j, 6, from_prev, &q));
  send_across(to_next, out, 6);
  CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
  if (j < group_size(prev)) CHECK(v == 100 * prev + j);
  CHECK_MPI(MPI_Barrier(myFirstComm));
  CHECK_MPI(MPI_Barrier(mySecondComm));

  CHECK_MPI(MPI_Comm_free(&myFirstComm));
  CHECK_MPI(MPI_Comm_free(&mySecondComm));
  CHECK_MPI(MPI_Comm_free(&myComm));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(size >= 3);
  pipeline();
  ring();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
