/* Bad input to the topology constructors and maps. `topo_bad CASE` does one
 * wrong thing under MPI_ERRORS_ARE_FATAL; `topo_bad returns` runs the cases
 * under MPI_ERRORS_RETURN with only the last rank passing a bad argument:
 * the verdict travels in the call's collective round, so every rank returns
 * (none is left waiting), the bad rank with its argument's class, the others
 * with the same class, and no communicator is made. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

static int rank, size;

#define NO_COMM(c)                                      \
  do {                                                  \
    if ((c) != MPI_COMM_NULL) MPI_Abort(MPI_COMM_WORLD, 7); \
  } while (0)

static int run(const char *name) {
  const int bad = rank == size - 1;
  MPI_Comm g = MPI_COMM_NULL;
  int e;
  if (!strcmp(name, "dist_graph_bad_dest")) {
    /* The last rank names a destination past the communicator. */
    int src = rank, deg = 1, dst = bad ? size + 4 : (rank + 1) % size;
    e = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    NO_COMM(g);
    return e;
  }
  if (!strcmp(name, "dist_graph_negative_weight")) {
    int src = rank, deg = 1, dst = (rank + 1) % size, w = bad ? -3 : 1;
    e = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, &dst, &w, MPI_INFO_NULL, 1, &g);
    NO_COMM(g);
    return e;
  }
  if (!strcmp(name, "adjacent_negative_indegree")) {
    int nb = (rank + 1) % size;
    e = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, bad ? -1 : 1, &nb, MPI_UNWEIGHTED, 1, &nb, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 1, &g);
    NO_COMM(g);
    return e;
  }
  if (!strcmp(name, "cart_create_zero_dim")) {
    int dims[1] = {bad ? 0 : size}, periods[1] = {1};
    e = MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &g);
    NO_COMM(g);
    return e;
  }
  if (!strcmp(name, "cart_map_negative_ndims")) {
    int dims[1] = {size}, periods[1] = {0}, r = -7;
    return MPI_Cart_map(MPI_COMM_WORLD, bad ? -2 : 1, dims, periods, &r);
  }
  if (!strcmp(name, "graph_create_bad_edge")) {
    /* A ring; the last rank's copy has an edge to node size + 2. */
    int *index = malloc(sizeof(int) * size), *edges = malloc(sizeof(int) * size);
    for (int i = 0; i < size; ++i) index[i] = i + 1, edges[i] = (i + 1) % size;
    if (bad) edges[0] = size + 2;
    e = MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g);
    free(index);
    free(edges);
    NO_COMM(g);
    return e;
  }
  if (!strcmp(name, "graph_map_bad_nnodes")) {
    int index[1] = {0}, edges[1] = {0}, r = -7;
    return MPI_Graph_map(MPI_COMM_WORLD, bad ? size + 1 : 1, index, edges, &r);
  }
  if (!strcmp(name, "cart_sub_null_remain")) {
    int dims[1] = {size}, periods[1] = {0}, keep[1] = {1};
    MPI_Comm cart;
    if (MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart) != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 8);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    e = MPI_Cart_sub(cart, bad ? NULL : keep, &g);
    NO_COMM(g);
    MPI_Comm_free(&cart);
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
  /* The bad rank's class, on every rank. */
  EXPECT(run("dist_graph_bad_dest"), MPI_ERR_RANK);
  EXPECT(run("dist_graph_negative_weight"), MPI_ERR_ARG);
  EXPECT(run("adjacent_negative_indegree"), MPI_ERR_ARG);
  EXPECT(run("cart_create_zero_dim"), MPI_ERR_DIMS);
  EXPECT(run("cart_map_negative_ndims"), MPI_ERR_DIMS);
  EXPECT(run("graph_create_bad_edge"), MPI_ERR_TOPOLOGY);
  EXPECT(run("graph_map_bad_nnodes"), MPI_ERR_ARG);
  EXPECT(run("cart_sub_null_remain"), MPI_ERR_ARG);
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
