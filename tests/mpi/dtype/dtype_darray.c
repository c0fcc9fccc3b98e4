/* MPI_Type_create_darray against a brute-force owner function: for block,
 * cyclic, block-cyclic and undistributed dimensions, C and Fortran order,
 * 1-D to 3-D, every rank of each process grid must own exactly the elements
 * the owner function gives it, in increasing address order, with lb 0 and
 * the whole array as extent. Then the type in use (each rank sends its part,
 * rank 0 receives them into the global array through the other ranks'
 * darray types), and the bad arguments under MPI_ERRORS_RETURN. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAXD 3

/* The process-grid coordinate that owns global index g of one dimension. */
static int owner_coord(int distrib, int darg, int gsize, int psize, int g) {
  if (distrib == MPI_DISTRIBUTE_NONE) return 0;
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
    return g / b;
  }
  const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  return (g / b) % psize;
}

/* Fills owned[] with the linear addresses (in elements) this rank owns, in
 * increasing order; returns how many. */
static int brute_force(int rank, int ndims, const int* gs, const int* ds, const int* da, const int* ps, int order,
                       int* owned) {
  int coords[MAXD], total = 1, n = 0;
  for (int i = ndims - 1, r = rank; i >= 0; --i) { /* the grid is row-major */
    coords[i] = r % ps[i];
    r /= ps[i];
  }
  for (int i = 0; i < ndims; ++i) total *= gs[i];
  for (int addr = 0; addr < total; ++addr) {
    int idx[MAXD], rest = addr;
    if (order == MPI_ORDER_C) {
      for (int i = ndims - 1; i >= 0; --i) idx[i] = rest % gs[i], rest /= gs[i];
    } else {
      for (int i = 0; i < ndims; ++i) idx[i] = rest % gs[i], rest /= gs[i];
    }
    int mine = 1;
    for (int i = 0; i < ndims; ++i)
      if (owner_coord(ds[i], da[i], gs[i], ps[i], idx[i]) != coords[i]) mine = 0;
    if (mine) owned[n++] = addr;
  }
  return n;
}

struct darray_case {
  int ndims;
  int gsizes[MAXD], distribs[MAXD], dargs[MAXD], psizes[MAXD];
};

#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define D MPI_DISTRIBUTE_DFLT_DARG

static const struct darray_case cases[] = {
    {1, {10}, {B}, {D}, {3}},
    {1, {10}, {B}, {4}, {3}},
    {1, {3}, {B}, {2}, {3}}, /* rank 2 owns nothing */
    {1, {10}, {C}, {D}, {3}},
    {1, {10}, {C}, {2}, {3}},
    {1, {10}, {C}, {3}, {4}},
    {1, {7}, {N}, {D}, {1}},
    {2, {5, 7}, {B, C}, {D, 2}, {2, 3}},
    {2, {6, 4}, {C, N}, {D, D}, {3, 1}},
    {2, {9, 8}, {C, C}, {2, 3}, {2, 2}},
    {2, {4, 9}, {N, B}, {D, 4}, {1, 3}},
    {3, {4, 5, 6}, {B, C, C}, {D, 2, D}, {2, 1, 3}},
    {3, {5, 3, 7}, {C, B, C}, {2, D, 3}, {2, 3, 2}},
};

/* One type for (case, rank, order, oldtype) against the brute force; the
 * old type is MPI_INT or two ints (contiguous), so each owned element is
 * `per` ints. */
static void check_one(const struct darray_case* c, int size, int rank, int order, MPI_Datatype old, int per) {
  int total = 1;
  for (int i = 0; i < c->ndims; ++i) total *= c->gsizes[i];
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_darray(size, rank, c->ndims, c->gsizes, c->distribs, c->dargs, c->psizes, order, old,
                                   &t));
  CHECK_MPI(MPI_Type_commit(&t));
  int* owned = malloc(sizeof(int) * (size_t)total);
  const int n = brute_force(rank, c->ndims, c->gsizes, c->distribs, c->dargs, c->psizes, order, owned);

  int tsize;
  MPI_Aint lb, extent;
  CHECK_MPI(MPI_Type_size(t, &tsize));
  CHECK(tsize == n * per * (int)sizeof(int));
  CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
  CHECK(lb == 0 && extent == (MPI_Aint)total * per * (MPI_Aint)sizeof(int));

  /* Two copies of the global array, element k holding k: packing two
   * darray elements gives the owned addresses, then those of the second copy. */
  int* global = malloc(sizeof(int) * (size_t)(2 * total * per));
  for (int k = 0; k < 2 * total * per; ++k) global[k] = k;
  int* packed = malloc(sizeof(int) * (size_t)(2 * total * per) + 1);
  int pos = 0;
  CHECK_MPI(MPI_Pack(global, 2, t, packed, (int)sizeof(int) * 2 * total * per + 1, &pos, MPI_COMM_SELF));
  CHECK(pos == 2 * n * per * (int)sizeof(int));
  for (int copy = 0; copy < 2; ++copy)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < per; ++j) CHECK(packed[(copy * n + k) * per + j] == (copy * total + owned[k]) * per + j);

  /* The envelope says how it was made. */
  int ni, na, nd, comb;
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * c->ndims + 4 && na == 0 && nd == 1);
  int ints[4 * MAXD + 4];
  MPI_Aint addrs[1];
  MPI_Datatype types[1];
  CHECK_MPI(MPI_Type_get_contents(t, ni, 0, 1, ints, addrs, types));
  CHECK(ints[0] == size && ints[1] == rank && ints[2] == c->ndims && ints[4 * c->ndims + 3] == order);
  for (int i = 0; i < c->ndims; ++i) {
    CHECK(ints[3 + i] == c->gsizes[i]);
    CHECK(ints[3 + c->ndims + i] == c->distribs[i]);
    CHECK(ints[3 + 2 * c->ndims + i] == c->dargs[i]);
    CHECK(ints[3 + 3 * c->ndims + i] == c->psizes[i]);
  }
  if (old == MPI_INT)
    CHECK(types[0] == MPI_INT);
  else
    CHECK_MPI(MPI_Type_free(&types[0]));
  CHECK_MPI(MPI_Type_free(&t));
  free(owned);
  free(global);
  free(packed);
}

static void check_all_cases(void) {
  MPI_Datatype two;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  for (int k = 0; k < ncases; ++k) {
    const struct darray_case* c = &cases[k];
    int size = 1;
    for (int i = 0; i < c->ndims; ++i) size *= c->psizes[i];
    /* Every element has exactly one owner. */
    int total = 1;
    for (int i = 0; i < c->ndims; ++i) total *= c->gsizes[i];
    for (int o = 0; o < 2; ++o) {
      const int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
      int* owned = malloc(sizeof(int) * (size_t)total);
      int* count = calloc((size_t)total, sizeof(int));
      for (int r = 0; r < size; ++r) {
        const int n = brute_force(r, c->ndims, c->gsizes, c->distribs, c->dargs, c->psizes, order, owned);
        for (int j = 0; j < n; ++j) count[owned[j]]++;
        check_one(c, size, r, order, MPI_INT, 1);
        check_one(c, size, r, order, two, 2);
      }
      for (int j = 0; j < total; ++j) CHECK(count[j] == 1);
      free(owned);
      free(count);
    }
  }
  CHECK_MPI(MPI_Type_free(&two));
}

/* The darray type in communication: a 2-D block-cyclic distribution over a
 * grid of all ranks; each rank sends its part packed, rank 0 receives each
 * into the global array with that rank's darray type. */
static void check_gather(void) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int psizes[2] = {0, 0};
  CHECK_MPI(MPI_Dims_create(np, 2, psizes));
  const int gsizes[2] = {11, 13}, distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
  const int dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
  const int total = gsizes[0] * gsizes[1];
  for (int o = 0; o < 2; ++o) {
    const int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
    MPI_Datatype mine;
    CHECK_MPI(MPI_Type_create_darray(np, rank, 2, gsizes, distribs, dargs, psizes, order, MPI_DOUBLE, &mine));
    CHECK_MPI(MPI_Type_commit(&mine));
    /* Each rank holds the whole array locally (value = address) and sends its part. */
    double* local = malloc(sizeof(double) * (size_t)total);
    for (int k = 0; k < total; ++k) local[k] = k + 0.5;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(local, 1, mine, 0, 7, MPI_COMM_WORLD, &req));
    if (rank == 0) {
      double* global = malloc(sizeof(double) * (size_t)total);
      for (int k = 0; k < total; ++k) global[k] = -1.0;
      for (int r = 0; r < np; ++r) {
        MPI_Datatype theirs;
        CHECK_MPI(
            MPI_Type_create_darray(np, r, 2, gsizes, distribs, dargs, psizes, order, MPI_DOUBLE, &theirs));
        CHECK_MPI(MPI_Type_commit(&theirs));
        CHECK_MPI(MPI_Recv(global, 1, theirs, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Type_free(&theirs));
      }
      for (int k = 0; k < total; ++k) CHECK(global[k] == k + 0.5);
      free(global);
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Type_free(&mine));
    free(local);
  }
}

static int error_class(int e) {
  int cls;
  MPI_Error_class(e, &cls);
  return cls;
}

static void check_errors(void) {
  const int g[2] = {10, 10}, bb[2] = {B, B}, dd[2] = {D, D}, p[2] = {2, 2};
  MPI_Datatype t = MPI_DATATYPE_NULL;
  /* size does not match the grid */
  CHECK(error_class(MPI_Type_create_darray(5, 0, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(3, 0, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* rank outside the group */
  CHECK(error_class(MPI_Type_create_darray(4, 4, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(4, -1, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(0, 0, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* block size too small for MPI_DISTRIBUTE_BLOCK: 2 x 4 < 10 */
  const int small[2] = {4, D};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bb, small, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* bad distrib, order, psizes, ndims, gsizes */
  const int bad_distrib[2] = {B, 999};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bad_distrib, dd, p, MPI_ORDER_C, MPI_INT, &t)) ==
        MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bb, dd, p, 12345, MPI_INT, &t)) == MPI_ERR_ARG);
  const int zero_p[2] = {4, 0};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bb, dd, zero_p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(4, 0, 0, g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  const int zero_g[2] = {10, 0};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, zero_g, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* cyclic darg <= 0 other than MPI_DISTRIBUTE_DFLT_DARG */
  const int cc[2] = {C, C}, zero_darg[2] = {0, D}, neg_darg[2] = {D, -3};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, cc, zero_darg, p, MPI_ORDER_C, MPI_INT, &t)) ==
        MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, cc, neg_darg, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* MPI_DISTRIBUTE_NONE on a dimension of the grid with more than one process */
  const int nn[2] = {N, B};
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, nn, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  /* NULL arrays, bad old type, NULL newtype */
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, NULL, bb, dd, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bb, dd, p, MPI_ORDER_C, MPI_DATATYPE_NULL, &t)) ==
        MPI_ERR_TYPE);
  CHECK(error_class(MPI_Type_create_darray(4, 0, 2, g, bb, dd, p, MPI_ORDER_C, MPI_INT, NULL)) == MPI_ERR_ARG);
  CHECK(t == MPI_DATATYPE_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_all_cases();
  check_gather();
  check_errors();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
