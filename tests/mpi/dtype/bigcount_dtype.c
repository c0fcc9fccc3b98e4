/* The large-count (_c) datatype, packing and reduction-operation calls of
 * MPI-4.1. With values that fit an int each constructor builds the type its
 * int form builds (same size, bounds, packed bytes, envelope and contents);
 * with a value that does not, the type still works and holds its values as
 * large counts: MPI_Type_get_envelope_c/get_contents_c return them, the int
 * forms fail with MPI_ERR_VALUE_TOO_LARGE, MPI_Type_size answers
 * MPI_UNDEFINED (§5.1.5). Also MPI_(Un)pack(_external)(_size)_c,
 * MPI_Op_create_c with MPI_Reduce_local_c, and the extent queries. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int error_class(int code) {
  int c = -1;
  MPI_Error_class(code, &c);
  return c;
}

/* a and b: same size, bounds, true bounds, and the same packed bytes of
 * `count` elements over `buf`. */
static void same_type(MPI_Datatype a, MPI_Datatype b, const void* buf, int count) {
  MPI_Count sa, sb, la, ea, lb, eb;
  CHECK_MPI(MPI_Type_size_c(a, &sa));
  CHECK_MPI(MPI_Type_size_c(b, &sb));
  CHECK(sa == sb);
  CHECK_MPI(MPI_Type_get_extent_c(a, &la, &ea));
  CHECK_MPI(MPI_Type_get_extent_c(b, &lb, &eb));
  CHECK(la == lb && ea == eb);
  MPI_Aint lai, eai;
  CHECK_MPI(MPI_Type_get_extent(a, &lai, &eai));
  CHECK(lai == la && eai == ea);
  CHECK_MPI(MPI_Type_get_true_extent_c(a, &la, &ea));
  CHECK_MPI(MPI_Type_get_true_extent_c(b, &lb, &eb));
  CHECK(la == lb && ea == eb);
  MPI_Count na, nb;
  CHECK_MPI(MPI_Pack_size_c(count, a, MPI_COMM_WORLD, &na));
  CHECK_MPI(MPI_Pack_size_c(count, b, MPI_COMM_WORLD, &nb));
  CHECK(na == nb && na == sa * count);
  char* pa = malloc((size_t)na + 1);
  char* pb = malloc((size_t)nb + 1);
  MPI_Count posa = 0;
  int posb = 0;
  CHECK_MPI(MPI_Pack_c(buf, count, a, pa, na, &posa, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack(buf, count, b, pb, (int)nb, &posb, MPI_COMM_WORLD));
  CHECK(posa == na && posb == (int)nb);
  CHECK(memcmp(pa, pb, (size_t)na) == 0);
  free(pa);
  free(pb);
}

/* The envelope and contents of t, made by a _c constructor with values that
 * fit, are those of the int constructor's u (read by both forms). */
static void same_contents(MPI_Datatype t, MPI_Datatype u) {
  int ni, na, nd, comb, ni2, na2, nd2, comb2;
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
  CHECK_MPI(MPI_Type_get_envelope(u, &ni2, &na2, &nd2, &comb2));
  CHECK(ni == ni2 && na == na2 && nd == nd2 && comb == comb2);
  MPI_Count ci, ca, cc, cd;
  CHECK_MPI(MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &comb2));
  CHECK(ci == ni && ca == na && cc == 0 && cd == nd && comb2 == comb);
  int* ints = malloc(sizeof(int) * (size_t)(ni + 1));
  int* ints2 = malloc(sizeof(int) * (size_t)(ni + 1));
  MPI_Aint* addrs = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
  MPI_Aint* addrs2 = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
  MPI_Datatype* types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
  MPI_Datatype* types2 = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
  CHECK_MPI(MPI_Type_get_contents(u, ni, na, nd, ints2, addrs2, types2));
  CHECK_MPI(MPI_Type_get_contents_c(t, ci, ca, 0, cd, ints, addrs, NULL, types));
  CHECK(memcmp(ints, ints2, sizeof(int) * (size_t)ni) == 0);
  CHECK(memcmp(addrs, addrs2, sizeof(MPI_Aint) * (size_t)na) == 0);
  for (int i = 0; i < nd; ++i) {
    CHECK(types[i] != MPI_DATATYPE_NULL);
    int c1, c2, x;
    CHECK_MPI(MPI_Type_get_envelope(types[i], &x, &x, &x, &c1));
    CHECK_MPI(MPI_Type_get_envelope(types2[i], &x, &x, &x, &c2));
    CHECK(c1 == c2);
    if (c1 != MPI_COMBINER_NAMED) {
      MPI_Type_free(&types[i]);
      MPI_Type_free(&types2[i]);
    }
  }
  free(ints);
  free(ints2);
  free(addrs);
  free(addrs2);
  free(types);
  free(types2);
}

static void check_pair(MPI_Datatype t, MPI_Datatype u, const void* buf, int count) {
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Type_commit(&u));
  same_type(t, u, buf, count);
  same_contents(t, u);
  MPI_Type_free(&t);
  MPI_Type_free(&u);
}

/* A user function with an MPI_Count length: a sum of ints. */
static void sum_c(void* in, void* inout, MPI_Count* len, MPI_Datatype* dt) {
  CHECK(*dt == MPI_INT);
  for (MPI_Count i = 0; i < *len; ++i) ((int*)inout)[i] += ((const int*)in)[i];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  enum { M = 4096 };
  int* buf = malloc(M * sizeof(int));
  for (int i = 0; i < M; ++i) buf[i] = i * 3 + 1;
  MPI_Datatype t, u;

  /* Every constructor, _c against int, values that fit. */
  CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &t));
  CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &u));
  check_pair(t, u, buf, 3);
  CHECK_MPI(MPI_Type_vector_c(4, 2, 3, MPI_INT, &t));
  CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_INT, &u));
  check_pair(t, u, buf, 2);
  CHECK_MPI(MPI_Type_vector_c(3, 1, -2, MPI_INT, &t));
  CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &u));
  check_pair(t, u, buf + 8, 1);
  CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &t));
  CHECK_MPI(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &u));
  check_pair(t, u, buf, 2);
  {
    const MPI_Count blc[3] = {1, 3, 2}, dc[3] = {0, 5, 11};
    const int bl[3] = {1, 3, 2}, d[3] = {0, 5, 11};
    const MPI_Count hdc[3] = {0, 20, 44};
    const MPI_Aint hd[3] = {0, 20, 44};
    CHECK_MPI(MPI_Type_indexed_c(3, blc, dc, MPI_INT, &t));
    CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &u));
    check_pair(t, u, buf, 2);
    CHECK_MPI(MPI_Type_create_hindexed_c(3, blc, hdc, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &u));
    check_pair(t, u, buf, 2);
    CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, dc, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &u));
    check_pair(t, u, buf, 2);
    CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, hdc, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &u));
    check_pair(t, u, buf, 2);
    const MPI_Datatype ty[3] = {MPI_INT, MPI_CHAR, MPI_SHORT};
    CHECK_MPI(MPI_Type_create_struct_c(3, blc, hdc, ty, &t));
    CHECK_MPI(MPI_Type_create_struct(3, bl, hd, ty, &u));
    check_pair(t, u, buf, 2);
  }
  {
    const MPI_Count sc[2] = {8, 6}, ssc[2] = {3, 2}, stc[2] = {4, 1};
    const int s[2] = {8, 6}, ss[2] = {3, 2}, st[2] = {4, 1};
    CHECK_MPI(MPI_Type_create_subarray_c(2, sc, ssc, stc, MPI_ORDER_C, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_subarray(2, s, ss, st, MPI_ORDER_C, MPI_INT, &u));
    check_pair(t, u, buf, 1);
    const MPI_Count gc[2] = {9, 10};
    const int g[2] = {9, 10}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
              darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 2};
    CHECK_MPI(MPI_Type_create_darray_c(4, 3, 2, gc, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_INT, &t));
    CHECK_MPI(MPI_Type_create_darray(4, 3, 2, g, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_INT, &u));
    check_pair(t, u, buf, 1);
  }
  CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &t));
  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &u));
  check_pair(t, u, buf + 4, 3);

  /* Values that do not fit an int. */
  const MPI_Count big = ((MPI_Count)1 << 31) + 5;
  CHECK_MPI(MPI_Type_contiguous_c(big, MPI_CHAR, &t));
  {
    MPI_Count sz, lb, ex;
    CHECK_MPI(MPI_Type_size_c(t, &sz));
    CHECK(sz == big);
    int szi = 0;
    CHECK_MPI(MPI_Type_size(t, &szi));
    CHECK(szi == MPI_UNDEFINED);
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ex));
    CHECK(lb == 0 && ex == big);
    CHECK_MPI(MPI_Type_get_true_extent_c(t, &lb, &ex));
    CHECK(lb == 0 && ex == big);
    MPI_Count ci, ca, cc, cd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ci == 0 && ca == 0 && cc == 1 && cd == 1);
    MPI_Count got = 0;
    MPI_Datatype old = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, &got, &old));
    CHECK(got == big && old == MPI_CHAR);
    int x;
    CHECK(error_class(MPI_Type_get_envelope(t, &x, &x, &x, &comb)) == MPI_ERR_VALUE_TOO_LARGE);
    int ints[4];
    MPI_Aint addrs[4];
    MPI_Datatype types[4];
    CHECK(error_class(MPI_Type_get_contents(t, 4, 4, 4, ints, addrs, types)) == MPI_ERR_VALUE_TOO_LARGE);
    /* Too small a max_large_counts. */
    CHECK(error_class(MPI_Type_get_contents_c(t, 0, 0, 0, 1, NULL, NULL, &got, &old)) == MPI_ERR_ARG);
    MPI_Count ps = 0;
    CHECK_MPI(MPI_Type_commit(&t));
    CHECK_MPI(MPI_Pack_size_c(2, t, MPI_COMM_WORLD, &ps));
    CHECK(ps == 2 * big);
    CHECK(error_class(MPI_Pack_size(2, t, MPI_COMM_WORLD, &x)) != MPI_SUCCESS);
    MPI_Type_free(&t);
  }
  {
    /* A vector whose stride and count exceed an int; a struct with a block
     * beyond an int and a displacement beyond an int. */
    CHECK_MPI(MPI_Type_vector_c(3, 2, big, MPI_CHAR, &t));
    MPI_Count sz, lb, ex;
    CHECK_MPI(MPI_Type_size_c(t, &sz));
    CHECK(sz == 6);
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ex));
    CHECK(lb == 0 && ex == 2 * big + 2);
    MPI_Count ci, ca, cc, cd;
    int comb;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &comb));
    CHECK(comb == MPI_COMBINER_VECTOR && ci == 0 && ca == 0 && cc == 3 && cd == 1);
    MPI_Count lc[3];
    MPI_Datatype old;
    CHECK_MPI(MPI_Type_get_contents_c(t, 0, 0, 3, 1, NULL, NULL, lc, &old));
    CHECK(lc[0] == 3 && lc[1] == 2 && lc[2] == big && old == MPI_CHAR);
    MPI_Type_free(&t);
    const MPI_Count bl[2] = {1, big}, d[2] = {0, big};
    const MPI_Datatype ty[2] = {MPI_INT, MPI_CHAR};
    CHECK_MPI(MPI_Type_create_struct_c(2, bl, d, ty, &t));
    CHECK_MPI(MPI_Type_size_c(t, &sz));
    CHECK(sz == 4 + big);
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &comb));
    CHECK(comb == MPI_COMBINER_STRUCT && ci == 0 && ca == 0 && cc == 5 && cd == 2);
    MPI_Type_free(&t);
    const MPI_Count sizes[1] = {big}, subs[1] = {10}, starts[1] = {big - 10};
    CHECK_MPI(MPI_Type_create_subarray_c(1, sizes, subs, starts, MPI_ORDER_C, MPI_CHAR, &t));
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &ex));
    CHECK(lb == 0 && ex == big);
    CHECK_MPI(MPI_Type_get_true_extent_c(t, &lb, &ex));
    CHECK(lb == big - 10 && ex == 10);
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ci, &ca, &cc, &cd, &comb));
    CHECK(comb == MPI_COMBINER_SUBARRAY && ci == 2 && ca == 0 && cc == 3 && cd == 1);
    MPI_Type_free(&t);
  }
  /* Bad arguments of the _c constructors. */
  CHECK(error_class(MPI_Type_contiguous_c(-1, MPI_INT, &t)) == MPI_ERR_COUNT);
  CHECK(error_class(MPI_Type_vector_c(2, -1, 1, MPI_INT, &t)) == MPI_ERR_ARG);

  /* Pack and unpack, native and external32, _c against int. */
  {
    char packed[64], packed2[64];
    MPI_Count pos = 0;
    int posi = 0;
    CHECK_MPI(MPI_Pack_c(buf, 5, MPI_INT, packed, 64, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(buf, 5, MPI_INT, packed2, 64, &posi, MPI_COMM_WORLD));
    CHECK(pos == 20 && posi == 20 && memcmp(packed, packed2, 20) == 0);
    int back[5] = {0};
    pos = 0;
    CHECK_MPI(MPI_Unpack_c(packed, 64, &pos, back, 5, MPI_INT, MPI_COMM_WORLD));
    CHECK(pos == 20 && memcmp(back, buf, sizeof back) == 0);
    pos = 0;
    CHECK(error_class(MPI_Pack_c(buf, 5, MPI_INT, packed, 10, &pos, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE);
    MPI_Count es = 0;
    MPI_Aint esi = 0;
    CHECK_MPI(MPI_Pack_external_size_c("external32", 5, MPI_INT, &es));
    CHECK_MPI(MPI_Pack_external_size("external32", 5, MPI_INT, &esi));
    CHECK(es == 20 && esi == 20);
    pos = 0;
    MPI_Aint posa = 0;
    CHECK_MPI(MPI_Pack_external_c("external32", buf, 5, MPI_INT, packed, 64, &pos));
    CHECK_MPI(MPI_Pack_external("external32", buf, 5, MPI_INT, packed2, 64, &posa));
    CHECK(pos == 20 && posa == 20 && memcmp(packed, packed2, 20) == 0);
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", packed, 20, &pos, back, 5, MPI_INT));
    CHECK(pos == 20 && memcmp(back, buf, sizeof back) == 0);
  }

  /* MPI_Op_create_c and MPI_Reduce_local_c (and the same op in an allreduce). */
  {
    MPI_Op op;
    CHECK_MPI(MPI_Op_create_c(sum_c, 1, &op));
    int in[4] = {1, 2, 3, 4}, io[4] = {10, 20, 30, 40};
    CHECK_MPI(MPI_Reduce_local_c(in, io, 4, MPI_INT, op));
    CHECK(io[0] == 11 && io[3] == 44);
    CHECK_MPI(MPI_Reduce_local_c(in, io, 4, MPI_INT, MPI_SUM));
    CHECK(io[0] == 12 && io[3] == 48);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine = rank + 1, all = 0;
    CHECK_MPI(MPI_Allreduce_c(&mine, &all, 1, MPI_INT, op, MPI_COMM_WORLD));
    CHECK(all == size * (size + 1) / 2);
    MPI_Op_free(&op);
    CHECK(error_class(MPI_Reduce_local_c(in, io, -1, MPI_INT, MPI_SUM)) == MPI_ERR_COUNT);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
