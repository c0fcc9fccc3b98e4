/* Bad input to the topology constructors. `topo_bad CASE` does one wrong
 * thing under MPI_ERRORS_ARE_FATAL; `topo_bad returns` runs the cases under
 * MPI_ERRORS_RETURN: a bad argument on one rank of MPI_Dist_graph_create
 * fails the call on every rank (the verdict travels in its first round), so
 * nobody is left waiting. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

static int rank, size;

static int run(const char *name) {
  MPI_Comm g = MPI_COMM_NULL;
  if (!strcmp(name, "dist_graph_bad_dest")) {
    /* The last rank names a destination past the communicator. */
    int src = rank, deg = 1, dst = rank == size - 1 ? size + 4 : (rank + 1) % size;
    int e = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    if (g != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, 5);
    return e;
  }
  if (!strcmp(name, "dims_not_divisible")) {
    int d[2] = {5, 0};
    return MPI_Dims_create(12, 2, d);
  }
  fprintf(stderr, "topo_bad: unknown case %s\n", name);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2) MPI_Abort(MPI_COMM_WORLD, 2);
  if (strcmp(argv[1], "returns") != 0) {
    run(argv[1]);
    fprintf(stderr, "rank %d: case %s was not reported as an error\n", rank, argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 4);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT(run("dist_graph_bad_dest"), rank == size - 1 ? MPI_ERR_RANK : MPI_ERR_ARG);
  EXPECT(run("dims_not_divisible"), MPI_ERR_DIMS);
  /* Still usable afterwards. */
  MPI_Comm g;
  if (MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) != MPI_SUCCESS ||
      MPI_Comm_free(&g) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 6);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("topo_bad: all error codes as expected\n");
  MPI_Finalize();
  return 0;
}
