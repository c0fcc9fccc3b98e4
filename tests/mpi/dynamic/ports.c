/* Ports, names and MPI_Comm_join inside one job:
 * - the two halves of MPI_COMM_WORLD (np >= 2) meet through a published
 *   name: the low half opens a port and publishes it, the high half looks it
 *   up and connects; a bcast and an allreduce on the new intercommunicator;
 *   unpublish, close; then a lookup gives MPI_ERR_NAME and a connect to the
 *   closed port MPI_ERR_PORT;
 * - ranks 0 and 1 join over a Unix socket (MPI_Comm_join);
 * - a spawned child connects back to its parents' port (name passed over
 *   the parent intercommunicator). */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"

static void child(MPI_Comm parent) {
  char port[MPI_MAX_PORT_NAME];
  CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, parent));
  MPI_Comm back;
  CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &back));
  int v = 0;
  CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 5, back, MPI_STATUS_IGNORE));
  CHECK(v == 77);
  CHECK_MPI(MPI_Comm_disconnect(&back));
  CHECK_MPI(MPI_Comm_disconnect(&parent));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    child(parent);
    MPI_Finalize();
    return 0;
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int pid0 = (int)getpid();
  MPI_Bcast(&pid0, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char service[64];
  snprintf(service, sizeof service, "ringmpi-test-ports-%d", pid0);

  if (size >= 2) {
    const int low = rank < size / 2;
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : 1, rank, &half));
    char port[MPI_MAX_PORT_NAME] = "";
    if (low && rank == 0) {
      CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
      CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  /* published before anyone looks */
    MPI_Comm inter;
    if (low) {
      CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter));
    } else {
      char found[MPI_MAX_PORT_NAME] = "";
      int hrank;
      MPI_Comm_rank(half, &hrank);
      if (hrank == 0) CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
      CHECK_MPI(MPI_Comm_connect(found, MPI_INFO_NULL, 0, half, &inter));
    }
    int rsize, flag;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(flag && rsize == (low ? size - size / 2 : size / 2));
    int b = low ? 99 : 0;
    int hrank;
    MPI_Comm_rank(half, &hrank);
    CHECK_MPI(MPI_Bcast(&b, 1, MPI_INT, low ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter));
    CHECK(b == 99);
    int one = 1, other = 0;
    CHECK_MPI(MPI_Allreduce(&one, &other, 1, MPI_INT, MPI_SUM, inter));
    CHECK(other == rsize);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    MPI_Comm_free(&half);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
      CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
      CHECK_MPI(MPI_Close_port(port));
      MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      char found[MPI_MAX_PORT_NAME];
      int e = MPI_Lookup_name(service, MPI_INFO_NULL, found), cls;
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_NAME);
      MPI_Comm none;
      e = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &none);
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_PORT && none == MPI_COMM_NULL);
      e = MPI_Comm_connect("no-such-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &none);
      MPI_Error_class(e, &cls);
      CHECK(cls == MPI_ERR_PORT);
      MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }

    /* MPI_Comm_join between ranks 0 and 1 over an abstract Unix socket. */
    if (rank <= 1) {
      struct sockaddr_un addr;
      memset(&addr, 0, sizeof addr);
      addr.sun_family = AF_UNIX;
      snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "ringmpi-test-join-%d", pid0);
      socklen_t len = (socklen_t)(sizeof(sa_family_t) + 1 + strlen(addr.sun_path + 1));
      int fd = -1, lfd = -1;
      if (rank == 0) {
        lfd = socket(AF_UNIX, SOCK_STREAM, 0);
        CHECK(lfd >= 0 && bind(lfd, (struct sockaddr*)&addr, len) == 0 && listen(lfd, 1) == 0);
      }
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      if (rank == 0) {
        fd = accept(lfd, NULL, NULL);
      } else {
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        CHECK(connect(fd, (struct sockaddr*)&addr, len) == 0);
      }
      CHECK(fd >= 0);
      MPI_Comm joined;
      CHECK_MPI(MPI_Comm_join(fd, &joined));
      int v = rank == 0 ? 31 : 0;
      if (rank == 0) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 3, joined));
      else CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 3, joined, MPI_STATUS_IGNORE));
      CHECK(v == 31);
      CHECK_MPI(MPI_Comm_free(&joined));
      close(fd);
      if (lfd >= 0) close(lfd);
    } else {
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
  }

  /* A spawned child connects back to the parents' port. */
  MPI_Comm kid;
  CHECK_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &kid, MPI_ERRCODES_IGNORE));
  char port[MPI_MAX_PORT_NAME] = "";
  if (rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
  CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, kid));
  MPI_Comm back;
  CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &back));
  int v = 77;
  if (rank == 0) CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 5, back));
  CHECK_MPI(MPI_Comm_disconnect(&back));
  if (rank == 0) CHECK_MPI(MPI_Close_port(port));
  CHECK_MPI(MPI_Comm_disconnect(&kid));
  if (rank == 0) printf("ports: ok\n");
  MPI_Finalize();
  return 0;
}
