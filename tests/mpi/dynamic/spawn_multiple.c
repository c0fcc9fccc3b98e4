/* MPI_Comm_spawn_multiple: two commands (the program itself with different
 * argv), MPI_APPNUM 0 and 1, the "wdir" and "soft" info keys, per-process
 * error codes, and all children in one MPI_COMM_WORLD. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (parent != MPI_COMM_NULL) {
    int *appnum, flag;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag));
    CHECK(flag);
    CHECK(size == 3);
    if (*appnum == 0) {
      CHECK(rank == 0 && argc == 2 && strcmp(argv[1], "first") == 0);
    } else {
      CHECK(*appnum == 1 && rank >= 1 && argc == 3 && strcmp(argv[1], "second") == 0 &&
            strcmp(argv[2], "x y") == 0);
      char cwd[4096];
      CHECK(getcwd(cwd, sizeof cwd) != NULL && strcmp(cwd, "/tmp") == 0);  /* the wdir info key */
    }
    int code = *appnum * 100 + rank;
    CHECK_MPI(MPI_Send(&code, 1, MPI_INT, 0, 0, parent));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
  } else {
    /* Absolute: a relative command is looked up from the child's wdir. */
    char self[4096];
    CHECK(realpath(argv[0], self) != NULL);
    char* cmds[2] = {self, self};
    char* a0[] = {"first", NULL};
    char* a1[] = {"second", "x y", NULL};
    char** argvs[2] = {a0, a1};
    int maxprocs[2] = {1, 2};
    MPI_Info infos[2];
    infos[0] = MPI_INFO_NULL;
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "wdir", "/tmp");
    MPI_Info_set(infos[1], "soft", "1:2");
    MPI_Info_set(infos[1], "arch", "whatever");  /* ignored */
    int codes[3] = {-1, -1, -1};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, &inter, codes));
    MPI_Info_free(&infos[1]);
    if (rank == 0) {
      for (int i = 0; i < 3; ++i) CHECK(codes[i] == MPI_SUCCESS);
      int seen[3] = {0, 0, 0};
      for (int i = 0; i < 3; ++i) {
        int code;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&code, 1, MPI_INT, MPI_ANY_SOURCE, 0, inter, &st));
        CHECK(code == (st.MPI_SOURCE == 0 ? 0 : 100 + st.MPI_SOURCE));
        seen[st.MPI_SOURCE]++;
      }
      CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    if (rank == 0) printf("spawn_multiple: ok\n");
  }
  MPI_Finalize();
  return 0;
}
