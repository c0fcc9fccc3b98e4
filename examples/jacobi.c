/* Jacobi on a Cartesian grid. The Laplace equation on a G x G grid, with
 * fixed boundary values, relaxed by Jacobi sweeps (each point becomes the
 * mean of its four neighbours). The ranks form a 2-D grid (MPI_Dims_create,
 * MPI_Cart_create); each owns a block of points plus a one-point halo, and
 * before each sweep swaps edges with its four neighbours found by
 * MPI_Cart_shift. Ranks on the border get MPI_PROC_NULL as a neighbour: the
 * exchange with it does nothing, so their halo keeps the boundary values.
 * Rows are contiguous; a column is an MPI_Type_vector of stride (row length).
 * At the end every rank compares its block with a serial solve that rank 0
 * made and broadcast: the decomposition must not change a single digit. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { G = 24, SWEEPS = 200 };

static double boundary(int x, int y) { return (double)x + 2.0 * (double)y; }

/* First global index and size of part `coord` of `parts` parts of n points. */
static void part(int n, int parts, int coord, int *first, int *len) {
  *len = n / parts + (coord < n % parts);
  *first = coord * (n / parts) + (coord < n % parts ? coord : n % parts);
}

/* The whole grid, serially, for the check. g is (G+2) x (G+2). */
static void serial(double *g) {
  double *next = malloc(sizeof(double) * (G + 2) * (G + 2));
  for (int x = 0; x < G + 2; ++x)
    for (int y = 0; y < G + 2; ++y)
      g[x * (G + 2) + y] = next[x * (G + 2) + y] =
          (x == 0 || y == 0 || x == G + 1 || y == G + 1) ? boundary(x, y) : 0.0;
  for (int s = 0; s < SWEEPS; ++s) {
    for (int x = 1; x <= G; ++x)
      for (int y = 1; y <= G; ++y)
        next[x * (G + 2) + y] = 0.25 * (g[(x - 1) * (G + 2) + y] + g[(x + 1) * (G + 2) + y] +
                                        g[x * (G + 2) + y - 1] + g[x * (G + 2) + y + 1]);
    for (int x = 1; x <= G; ++x)
      for (int y = 1; y <= G; ++y) g[x * (G + 2) + y] = next[x * (G + 2) + y];
  }
  free(next);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, rank, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  int up, down, left, right;
  MPI_Cart_shift(cart, 0, 1, &up, &down);    /* neighbours along x (rows) */
  MPI_Cart_shift(cart, 1, 1, &left, &right); /* neighbours along y (columns) */

  int x0, nx, y0, ny; /* my block: global rows x0+1..x0+nx, columns y0+1..y0+ny */
  part(G, dims[0], coords[0], &x0, &nx);
  part(G, dims[1], coords[1], &y0, &ny);
  const int w = ny + 2; /* local row length, halo included */
  double *u = malloc(sizeof(double) * (nx + 2) * w), *next = malloc(sizeof(double) * (nx + 2) * w);
  for (int i = 0; i < nx + 2; ++i)
    for (int j = 0; j < w; ++j) {
      const int x = x0 + i, y = y0 + j;
      u[i * w + j] = (x == 0 || y == 0 || x == G + 1 || y == G + 1) ? boundary(x, y) : 0.0;
    }
  MPI_Datatype column;
  MPI_Type_vector(nx, 1, w, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  for (int s = 0; s < SWEEPS; ++s) {
    /* Halo exchange: my first row goes up while my bottom halo comes from below, etc. */
    MPI_Sendrecv(&u[1 * w + 1], ny, MPI_DOUBLE, up, 0, &u[(nx + 1) * w + 1], ny, MPI_DOUBLE, down, 0, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[nx * w + 1], ny, MPI_DOUBLE, down, 1, &u[0 * w + 1], ny, MPI_DOUBLE, up, 1, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1 * w + 1], 1, column, left, 2, &u[1 * w + ny + 1], 1, column, right, 2, cart,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1 * w + ny], 1, column, right, 3, &u[1 * w + 0], 1, column, left, 3, cart, MPI_STATUS_IGNORE);
    for (int i = 1; i <= nx; ++i)
      for (int j = 1; j <= ny; ++j)
        next[i * w + j] = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
    for (int i = 1; i <= nx; ++i)
      for (int j = 1; j <= ny; ++j) u[i * w + j] = next[i * w + j];
  }

  /* The check: rank 0 solves serially and broadcasts the whole grid. */
  double *ref = malloc(sizeof(double) * (G + 2) * (G + 2));
  if (rank == 0) serial(ref);
  MPI_Bcast(ref, (G + 2) * (G + 2), MPI_DOUBLE, 0, cart);
  double diff = 0.0, maxdiff = 0.0;
  for (int i = 1; i <= nx; ++i)
    for (int j = 1; j <= ny; ++j) {
      const double d = fabs(u[i * w + j] - ref[(x0 + i) * (G + 2) + y0 + j]);
      if (d > diff) diff = d;
    }
  MPI_Allreduce(&diff, &maxdiff, 1, MPI_DOUBLE, MPI_MAX, cart);
  if (rank == 0)
    printf("jacobi: %d sweeps on a %dx%d grid over %dx%d ranks, centre value %.6f, largest difference from the "
           "serial solve %.1e\n",
           SWEEPS, G, G, dims[0], dims[1], ref[(G / 2) * (G + 2) + G / 2], maxdiff);
  if (maxdiff > 1e-12) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  free(u);
  free(next);
  free(ref);
  MPI_Finalize();
  return 0;
}
