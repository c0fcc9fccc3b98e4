/* The Fortran datatypes from C: sizes, names, envelopes; each one sent
 * around a ring and reduced with the ops MPI-3.1 §5.9.2 allows on it (and
 * refused with the others); MPI_Type_match_size; the parameterized types of
 * MPI_Type_create_f90_{integer,real,complex}; and the errors. */
#include <complex.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static int rank, np;

static int error_class(int e) {
  int cls;
  MPI_Error_class(e, &cls);
  return cls;
}

struct named {
  MPI_Datatype type;
  const char* name;
  int size;
};

static void check_named(void) {
  const struct named list[] = {
      {MPI_INTEGER, "MPI_INTEGER", 4},
      {MPI_REAL, "MPI_REAL", 4},
      {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
      {MPI_COMPLEX, "MPI_COMPLEX", 8},
      {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16},
      {MPI_LOGICAL, "MPI_LOGICAL", 4},
      {MPI_CHARACTER, "MPI_CHARACTER", 1},
      {MPI_2INTEGER, "MPI_2INTEGER", 8},
      {MPI_2REAL, "MPI_2REAL", 8},
      {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16},
      {MPI_INTEGER1, "MPI_INTEGER1", 1},
      {MPI_INTEGER2, "MPI_INTEGER2", 2},
      {MPI_INTEGER4, "MPI_INTEGER4", 4},
      {MPI_INTEGER8, "MPI_INTEGER8", 8},
      {MPI_REAL4, "MPI_REAL4", 4},
      {MPI_REAL8, "MPI_REAL8", 8},
      {MPI_REAL16, "MPI_REAL16", 16},
      {MPI_COMPLEX8, "MPI_COMPLEX8", 8},
      {MPI_COMPLEX16, "MPI_COMPLEX16", 16},
      {MPI_COMPLEX32, "MPI_COMPLEX32", 32},
  };
  for (size_t k = 0; k < sizeof list / sizeof list[0]; ++k) {
    if (list[k].type == MPI_DATATYPE_NULL) continue; /* MPI_REAL16 / MPI_COMPLEX32 without binary128 */
    int size, len, ni, na, nd, comb;
    MPI_Aint lb, extent;
    char name[MPI_MAX_OBJECT_NAME];
    CHECK_MPI(MPI_Type_size(list[k].type, &size));
    CHECK(size == list[k].size);
    CHECK_MPI(MPI_Type_get_extent(list[k].type, &lb, &extent));
    CHECK(lb == 0 && extent == list[k].size);
    CHECK_MPI(MPI_Type_get_name(list[k].type, name, &len));
    CHECK(strcmp(name, list[k].name) == 0 && len == (int)strlen(list[k].name));
    CHECK_MPI(MPI_Type_get_envelope(list[k].type, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);
    MPI_Datatype copy = list[k].type;
    CHECK(error_class(MPI_Type_free(&copy)) == MPI_ERR_TYPE && copy == list[k].type);
    /* Around the ring and back through MPI_Get_count. */
    unsigned char out[4 * 32], in[4 * 32];
    for (int i = 0; i < 4 * list[k].size; ++i) out[i] = (unsigned char)(rank * 31 + i);
    const int to = (rank + 1) % np, from = (rank + np - 1) % np;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 4, list[k].type, to, 1, in, 4, list[k].type, from, 1, MPI_COMM_WORLD, &st));
    int count;
    CHECK_MPI(MPI_Get_count(&st, list[k].type, &count));
    CHECK(count == 4);
    for (int i = 0; i < 4 * list[k].size; ++i) CHECK(in[i] == (unsigned char)(from * 31 + i));
  }
}

/* sum over ranks 0..np-1 of f(rank) for small integer-valued f */
static long long sum_ranks(int mul, int add) {
  long long s = 0;
  for (int r = 0; r < np; ++r) s += (long long)r * mul + add;
  return s;
}

static void check_integer_reductions(void) {
  const MPI_Datatype ints[] = {MPI_INTEGER, MPI_INTEGER4};
  for (int k = 0; k < 2; ++k) {
    int32_t v[3] = {rank + 1, -rank, 1 << rank}, r[3];
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_SUM, MPI_COMM_WORLD));
    CHECK(r[0] == sum_ranks(1, 1) && r[1] == -sum_ranks(1, 0));
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_MAX, MPI_COMM_WORLD));
    CHECK(r[0] == np && r[1] == 0);
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_MIN, MPI_COMM_WORLD));
    CHECK(r[0] == 1 && r[1] == -(np - 1));
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_BOR, MPI_COMM_WORLD));
    CHECK(r[2] == (1 << np) - 1);
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_BAND, MPI_COMM_WORLD));
    CHECK(r[2] == (np == 1 ? 1 : 0));
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_BXOR, MPI_COMM_WORLD));
    CHECK(r[2] == (1 << np) - 1);
    CHECK_MPI(MPI_Allreduce(v, r, 3, ints[k], MPI_PROD, MPI_COMM_WORLD));
    long long prod = 1;
    for (int q = 0; q < np; ++q) prod *= q + 1;
    CHECK(r[0] == prod);
  }
  int8_t a1 = (int8_t)(rank + 1), r1;
  CHECK_MPI(MPI_Allreduce(&a1, &r1, 1, MPI_INTEGER1, MPI_SUM, MPI_COMM_WORLD));
  CHECK(r1 == sum_ranks(1, 1));
  int16_t a2 = (int16_t)(rank * 100), r2;
  CHECK_MPI(MPI_Allreduce(&a2, &r2, 1, MPI_INTEGER2, MPI_MAX, MPI_COMM_WORLD));
  CHECK(r2 == (np - 1) * 100);
  int64_t a8 = (int64_t)1 << (40 + rank), r8;
  CHECK_MPI(MPI_Allreduce(&a8, &r8, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD));
  CHECK(r8 == (((int64_t)1 << (40 + np)) - ((int64_t)1 << 40)));
}

static void check_real_reductions(void) {
  float f = (float)rank + 0.5f, rf;
  CHECK_MPI(MPI_Allreduce(&f, &rf, 1, MPI_REAL, MPI_SUM, MPI_COMM_WORLD));
  CHECK(rf == (float)sum_ranks(1, 0) + 0.5f * np);
  CHECK_MPI(MPI_Allreduce(&f, &rf, 1, MPI_REAL4, MPI_MAX, MPI_COMM_WORLD));
  CHECK(rf == np - 0.5f);
  double d = rank * 2.0, rd;
  CHECK_MPI(MPI_Allreduce(&d, &rd, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD));
  CHECK(rd == 2.0 * (double)sum_ranks(1, 0));
  CHECK_MPI(MPI_Allreduce(&d, &rd, 1, MPI_REAL8, MPI_MIN, MPI_COMM_WORLD));
  CHECK(rd == 0.0);
  d = rank + 1.0;
  CHECK_MPI(MPI_Allreduce(&d, &rd, 1, MPI_REAL8, MPI_PROD, MPI_COMM_WORLD));
  double fact = 1;
  for (int q = 0; q < np; ++q) fact *= q + 1;
  CHECK(rd == fact);
  /* complex: SUM and PROD */
  float complex c = (float)rank + 1.0f * I, rc;
  CHECK_MPI(MPI_Allreduce(&c, &rc, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
  CHECK(crealf(rc) == (float)sum_ranks(1, 0) && cimagf(rc) == (float)np);
  double complex dc = 1.0 * I, rdc;
  CHECK_MPI(MPI_Allreduce(&dc, &rdc, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
  /* i^np */
  const double want_re[4] = {1, 0, -1, 0}, want_im[4] = {0, 1, 0, -1};
  CHECK(creal(rdc) == want_re[np % 4] && cimag(rdc) == want_im[np % 4]);
  CHECK_MPI(MPI_Allreduce(&c, &rc, 1, MPI_COMPLEX8, MPI_SUM, MPI_COMM_WORLD));
  CHECK(cimagf(rc) == (float)np);
  dc = (double)rank + 2.0 * I;
  CHECK_MPI(MPI_Allreduce(&dc, &rdc, 1, MPI_COMPLEX16, MPI_SUM, MPI_COMM_WORLD));
  CHECK(creal(rdc) == (double)sum_ranks(1, 0) && cimag(rdc) == 2.0 * np);
  if (MPI_REAL16 != MPI_DATATYPE_NULL) {
#if defined(__SIZEOF_FLOAT128__) && !(defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113)
    __float128 q = (__float128)rank + (__float128)0.25, rq;
    CHECK_MPI(MPI_Allreduce(&q, &rq, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD));
    CHECK(rq == (__float128)sum_ranks(1, 0) + (__float128)0.25 * np);
    __float128 cq[2] = {(__float128)rank, (__float128)1}, rcq[2];
    CHECK_MPI(MPI_Allreduce(cq, rcq, 1, MPI_COMPLEX32, MPI_SUM, MPI_COMM_WORLD));
    CHECK(rcq[0] == (__float128)sum_ranks(1, 0) && rcq[1] == (__float128)np);
#else
    long double q = (long double)rank + 0.25L, rq;
    CHECK_MPI(MPI_Allreduce(&q, &rq, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD));
    CHECK(rq == (long double)sum_ranks(1, 0) + 0.25L * np);
#endif
  }
}

static void check_logical_and_pairs(void) {
  /* LOGICAL: nonzero is .TRUE. (with one rank the result is the input itself, hence the != 0) */
  int32_t l[3] = {rank == 0 ? 0 : 7, 5, rank == 0 ? 1 : 0}, rl[3];
  CHECK_MPI(MPI_Allreduce(l, rl, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
  CHECK(rl[0] == 0 && rl[1] != 0 && (rl[2] != 0) == (np == 1));
  CHECK_MPI(MPI_Allreduce(l, rl, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD));
  CHECK((rl[0] != 0) == (np > 1) && rl[1] != 0 && rl[2] != 0);
  CHECK_MPI(MPI_Allreduce(l, rl, 3, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD));
  CHECK((rl[1] != 0) == (np % 2) && rl[2] != 0);
  if (np > 1) CHECK(rl[1] == 0 || rl[1] == 1); /* combined values are 0 or 1 */
  /* MINLOC / MAXLOC on the Fortran pairs (value, index of the same type) */
  int32_t ip[2] = {rank % 2, rank}, rip[2];
  CHECK_MPI(MPI_Allreduce(ip, rip, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD));
  CHECK(rip[0] == (np > 1) && rip[1] == (np > 1 ? 1 : 0)); /* ties: smallest index */
  CHECK_MPI(MPI_Allreduce(ip, rip, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD));
  CHECK(rip[0] == 0 && rip[1] == 0);
  float rp[2] = {(float)(10 - rank), (float)rank}, rrp[2];
  CHECK_MPI(MPI_Allreduce(rp, rrp, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD));
  CHECK(rrp[0] == (float)(10 - (np - 1)) && rrp[1] == (float)(np - 1));
  double dp[2] = {(double)rank * rank, (double)rank}, rdp[2];
  CHECK_MPI(MPI_Allreduce(dp, rdp, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD));
  CHECK(rdp[0] == (double)(np - 1) * (np - 1) && rdp[1] == (double)(np - 1));
}

/* Ops §5.9.2 does not define on a type are MPI_ERR_OP. */
static void check_refused_ops(void) {
  int32_t a[2] = {1, 2}, b[2] = {3, 4};
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_INTEGER, MPI_LAND)) == MPI_ERR_OP); /* no logical ops */
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_INTEGER8, MPI_LOR)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_LOGICAL, MPI_SUM)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_LOGICAL, MPI_BAND)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_REAL, MPI_BOR)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_COMPLEX, MPI_MAX)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_CHARACTER, MPI_SUM)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_2INTEGER, MPI_SUM)) == MPI_ERR_OP);
  CHECK(error_class(MPI_Reduce_local(a, b, 1, MPI_INTEGER, MPI_MINLOC)) == MPI_ERR_OP);
  CHECK_MPI(MPI_Reduce_local(a, b, 2, MPI_INTEGER, MPI_BXOR));
  CHECK(b[0] == 2 && b[1] == 6);
}

static void check_match_size(void) {
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 1, &t));
  CHECK(t == MPI_INTEGER1);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, (int)sizeof(int), &t));
  CHECK(t == MPI_INTEGER4);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
  CHECK(t == MPI_INTEGER8);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, (int)sizeof(float), &t));
  CHECK(t == MPI_REAL4);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, (int)sizeof(double), &t));
  CHECK(t == MPI_REAL8);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 8, &t));
  CHECK(t == MPI_COMPLEX8);
  CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t));
  CHECK(t == MPI_COMPLEX16);
  if (MPI_REAL16 != MPI_DATATYPE_NULL) {
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &t));
    CHECK(t == MPI_REAL16);
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 32, &t));
    CHECK(t == MPI_COMPLEX32);
  }
  CHECK(error_class(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 2, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 4, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_match_size(99, 4, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, NULL)) == MPI_ERR_ARG);
}

static void expect_f90(MPI_Datatype t, int combiner, int p, int r, int size) {
  int ni, na, nd, comb, ints[2] = {-7, -7};
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  CHECK(comb == combiner && na == 0 && nd == 0);
  CHECK(ni == (combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2));
  CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
  if (combiner == MPI_COMBINER_F90_INTEGER)
    CHECK(ints[0] == r);
  else
    CHECK(ints[0] == p && ints[1] == r);
  int s;
  CHECK_MPI(MPI_Type_size(t, &s));
  CHECK(s == size);
  /* predefined: cannot be freed */
  MPI_Datatype copy = t;
  CHECK(error_class(MPI_Type_free(&copy)) == MPI_ERR_TYPE);
}

static void check_f90(void) {
  MPI_Datatype i9, i9b, i2, i18, r6, r15, rbig, c15, t;
  CHECK_MPI(MPI_Type_create_f90_integer(9, &i9));
  expect_f90(i9, MPI_COMBINER_F90_INTEGER, 0, 9, 4);
  CHECK_MPI(MPI_Type_create_f90_integer(9, &i9b));
  CHECK(i9b == i9); /* the same (p, r): the same handle */
  CHECK_MPI(MPI_Type_create_f90_integer(2, &i2));
  expect_f90(i2, MPI_COMBINER_F90_INTEGER, 0, 2, 1);
  CHECK_MPI(MPI_Type_create_f90_integer(18, &i18));
  expect_f90(i18, MPI_COMBINER_F90_INTEGER, 0, 18, 8);
  CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r6));
  expect_f90(r6, MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4);
  CHECK_MPI(MPI_Type_create_f90_real(15, 307, &r15));
  expect_f90(r15, MPI_COMBINER_F90_REAL, 15, 307, 8);
  CHECK(r15 != MPI_REAL8);
  CHECK_MPI(MPI_Type_create_f90_complex(MPI_UNDEFINED, 200, &c15));
  expect_f90(c15, MPI_COMBINER_F90_COMPLEX, MPI_UNDEFINED, 200, 16);
  if (MPI_REAL16 != MPI_DATATYPE_NULL) {
    CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 400, &rbig));
    expect_f90(rbig, MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 400, 16);
    CHECK_MPI(MPI_Type_create_f90_complex(30, MPI_UNDEFINED, &t));
    expect_f90(t, MPI_COMBINER_F90_COMPLEX, 30, MPI_UNDEFINED, 32);
  }
  /* No kind has that range or precision. */
  CHECK(error_class(MPI_Type_create_f90_integer(19, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_real(6, 5000, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_complex(50, 10, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_integer(MPI_UNDEFINED, &t)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Type_create_f90_integer(4, NULL)) == MPI_ERR_ARG);

  /* In use: reduced, and inside a derived type that hands it back as itself. */
  int32_t v = rank + 1, s;
  CHECK_MPI(MPI_Allreduce(&v, &s, 1, i9, MPI_SUM, MPI_COMM_WORLD));
  CHECK(s == sum_ranks(1, 1));
  double dv[2] = {1.0, (double)rank}, ds[2];
  CHECK_MPI(MPI_Allreduce(dv, ds, 1, c15, MPI_SUM, MPI_COMM_WORLD));
  CHECK(ds[0] == np && ds[1] == (double)sum_ranks(1, 0));
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(2, 1, 2, r15, &vec));
  int ints[3];
  MPI_Aint addrs[1];
  MPI_Datatype types[1];
  CHECK_MPI(MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, types));
  CHECK(types[0] == r15);
  CHECK_MPI(MPI_Type_free(&vec));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_named();
  check_integer_reductions();
  check_real_reductions();
  check_logical_and_pairs();
  check_refused_ops();
  check_match_size();
  check_f90();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
