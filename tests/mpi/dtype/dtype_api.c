/* Datatype calls through the public API: constructors, extents, envelope and
 * contents, names, pack/unpack, MPI_BOTTOM, elements, shared ownership, and
 * the error classes returned under MPI_ERRORS_RETURN. */
#include <stddef.h>
#include <string.h>

#include "check.h"

struct cd {
  char c;
  double d;
};

static void check_struct_extent(void) {
  int bl[2] = {1, 1};
  MPI_Aint disp[2] = {offsetof(struct cd, c), offsetof(struct cd, d)};
  MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE}, t;
  CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
  MPI_Aint lb, ext, tlb, text;
  CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
  CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct cd) && ext == 16);
  CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
  CHECK(tlb == 0 && text == 16);
  int size;
  CHECK_MPI(MPI_Type_size(t, &size));
  CHECK(size == 9);
  MPI_Count lbx, extx, sizex;
  CHECK_MPI(MPI_Type_get_extent_x(t, &lbx, &extx));
  CHECK(lbx == 0 && extx == 16);
  CHECK_MPI(MPI_Type_size_x(t, &sizex));
  CHECK(sizex == 9);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(t == MPI_DATATYPE_NULL);
}

static void check_envelopes(void) {
  int ni, na, nd, comb;
  CHECK_MPI(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);
  CHECK_MPI(MPI_Type_get_envelope(MPI_DOUBLE_INT, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_NAMED);

  MPI_Datatype vec, ind, st, sub, res, dup;
  CHECK_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
  int ints[16];
  MPI_Aint addrs[8];
  MPI_Datatype dts[8];
  CHECK_MPI(MPI_Type_get_contents(vec, 16, 8, 8, ints, addrs, dts));
  CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && dts[0] == MPI_INT);

  int bl[2] = {1, 4}, dp[2] = {7, 0};
  CHECK_MPI(MPI_Type_indexed(2, bl, dp, vec, &ind));
  CHECK_MPI(MPI_Type_get_envelope(ind, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_INDEXED && ni == 5 && nd == 1);
  CHECK_MPI(MPI_Type_get_contents(ind, 16, 8, 8, ints, addrs, dts));
  CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 4 && ints[3] == 7 && ints[4] == 0);
  /* A derived member comes back as a new handle of an equivalent type. */
  CHECK(dts[0] != MPI_INT);
  int s1, s2;
  CHECK_MPI(MPI_Type_size(dts[0], &s1));
  CHECK_MPI(MPI_Type_size(vec, &s2));
  CHECK(s1 == s2 && s1 == 24);
  CHECK_MPI(MPI_Type_get_envelope(dts[0], &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_VECTOR);
  CHECK_MPI(MPI_Type_free(&dts[0]));

  int sbl[2] = {2, 1};
  MPI_Aint sdp[2] = {0, 16};
  MPI_Datatype sty[2] = {MPI_FLOAT, ind};
  CHECK_MPI(MPI_Type_create_struct(2, sbl, sdp, sty, &st));
  CHECK_MPI(MPI_Type_get_envelope(st, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2);
  CHECK_MPI(MPI_Type_get_contents(st, 16, 8, 8, ints, addrs, dts));
  CHECK(ints[1] == 2 && addrs[1] == 16 && dts[0] == MPI_FLOAT);
  CHECK_MPI(MPI_Type_free(&dts[1]));

  int sizes[3] = {4, 6, 8}, subs[3] = {2, 3, 4}, starts[3] = {1, 2, 3};
  CHECK_MPI(MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sub));
  CHECK_MPI(MPI_Type_get_envelope(sub, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 11 && na == 0 && nd == 1);
  CHECK_MPI(MPI_Type_get_contents(sub, 16, 8, 8, ints, addrs, dts));
  CHECK(ints[0] == 3 && ints[4] == 2 && ints[9] == 3 && ints[10] == MPI_ORDER_FORTRAN);
  MPI_Aint lb, ext;
  CHECK_MPI(MPI_Type_get_extent(sub, &lb, &ext));
  CHECK(lb == 0 && ext == 4 * 6 * 8 * 8);

  CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 16, &res));
  CHECK_MPI(MPI_Type_get_envelope(res, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1);
  CHECK_MPI(MPI_Type_get_contents(res, 0, 2, 1, ints, addrs, dts));
  CHECK(addrs[0] == -4 && addrs[1] == 16 && dts[0] == MPI_INT);

  CHECK_MPI(MPI_Type_dup(st, &dup));
  CHECK_MPI(MPI_Type_get_envelope(dup, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1);

  MPI_Datatype hv, hi, ib, hib;
  MPI_Aint hd[2] = {0, 40};
  int id[2] = {0, 3};
  CHECK_MPI(MPI_Type_create_hvector(2, 1, 24, MPI_INT, &hv));
  CHECK_MPI(MPI_Type_get_envelope(hv, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1);
  CHECK_MPI(MPI_Type_create_hindexed(2, bl, hd, MPI_INT, &hi));
  CHECK_MPI(MPI_Type_get_envelope(hi, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_HINDEXED && ni == 3 && na == 2);
  CHECK_MPI(MPI_Type_create_indexed_block(2, 2, id, MPI_INT, &ib));
  CHECK_MPI(MPI_Type_get_envelope(ib, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_INDEXED_BLOCK && ni == 4 && na == 0);
  CHECK_MPI(MPI_Type_create_hindexed_block(2, 2, hd, MPI_INT, &hib));
  CHECK_MPI(MPI_Type_get_envelope(hib, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_HINDEXED_BLOCK && ni == 2 && na == 2);
  MPI_Datatype c3;
  CHECK_MPI(MPI_Type_contiguous(3, hib, &c3));
  CHECK_MPI(MPI_Type_get_envelope(c3, &ni, &na, &nd, &comb));
  CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1);

  /* Contents of a named type are an error (returned under MPI_ERRORS_RETURN). */
  int e = MPI_Type_get_contents(MPI_INT, 16, 8, 8, ints, addrs, dts);
  CHECK(e != MPI_SUCCESS);
  /* Arrays too small. */
  int cls;
  e = MPI_Type_get_contents(vec, 2, 8, 8, ints, addrs, dts);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_ARG);

  MPI_Datatype all[] = {vec, ind, st, sub, res, dup, hv, hi, ib, hib, c3};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK_MPI(MPI_Type_free(&all[i]));
}

static void check_names(void) {
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  CHECK_MPI(MPI_Type_get_name(MPI_INT, name, &len));
  CHECK(strcmp(name, "MPI_INT") == 0 && len == 7);
  CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE_INT, name, &len));
  CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0);
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
  CHECK_MPI(MPI_Type_get_name(t, name, &len));
  CHECK(len == 0 && name[0] == '\0');
  CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
  CHECK_MPI(MPI_Type_get_name(t, name, &len));
  CHECK(strcmp(name, "pair of ints") == 0 && len == 12);
  CHECK(MPI_Type_f2c(MPI_Type_c2f(t)) == t);
  CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE);
  CHECK_MPI(MPI_Type_free(&t));
}

/* A vector of a struct, packed, unpacked into a different layout with the
 * same signature, with MPI_Pack_size and positions. */
static void check_pack(void) {
  struct item {
    int i;
    double d;
  } items[6];
  for (int k = 0; k < 6; ++k) {
    items[k].i = 10 * k;
    items[k].d = k + 0.5;
  }
  int bl[2] = {1, 1};
  MPI_Aint disp[2] = {offsetof(struct item, i), offsetof(struct item, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, it, every_other;
  CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &it));
  CHECK_MPI(MPI_Type_vector(3, 1, 2, it, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int need;
  CHECK_MPI(MPI_Pack_size(1, every_other, MPI_COMM_WORLD, &need));
  CHECK(need == 36);
  char buf[64];
  int pos = 0, head = 77;
  CHECK_MPI(MPI_Pack(&head, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack(items, 1, every_other, buf, sizeof buf, &pos, MPI_COMM_WORLD));
  CHECK(pos == 40);

  /* Receiver layout: doubles first in memory, then ints, but the same signature. */
  struct flip {
    double d;
    int i;
  } out[3];
  memset(out, 0, sizeof out);
  MPI_Aint fdisp[2] = {offsetof(struct flip, i), offsetof(struct flip, d)};
  MPI_Datatype ft;
  CHECK_MPI(MPI_Type_create_struct(2, bl, fdisp, types, &ft));
  CHECK_MPI(MPI_Type_commit(&ft));
  int got, upos = 0;
  CHECK_MPI(MPI_Unpack(buf, pos, &upos, &got, 1, MPI_INT, MPI_COMM_WORLD));
  CHECK(got == 77);
  CHECK_MPI(MPI_Unpack(buf, pos, &upos, out, 3, ft, MPI_COMM_WORLD));
  CHECK(upos == 40);
  for (int k = 0; k < 3; ++k) CHECK(out[k].i == 20 * k && out[k].d == 2 * k + 0.5);

  /* A too-small buffer is an error, not an overflow. */
  int small = 0;
  int e = MPI_Pack(items, 1, every_other, buf, 20, &small, MPI_COMM_WORLD);
  CHECK(e != MPI_SUCCESS && small == 0);
  CHECK_MPI(MPI_Type_free(&it));
  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&ft));
}

/* Absolute addresses: a struct over unrelated variables, used with MPI_BOTTOM. */
static void check_bottom(void) {
  int a = 5;
  double b = 2.25;
  short c[3] = {1, 2, 3};
  MPI_Aint addr[3];
  CHECK_MPI(MPI_Get_address(&a, &addr[0]));
  CHECK_MPI(MPI_Get_address(&b, &addr[1]));
  CHECK_MPI(MPI_Get_address(c, &addr[2]));
  MPI_Aint base;
  CHECK_MPI(MPI_Get_address(&a, &base));
  CHECK(MPI_Aint_diff(addr[1], base) == (char*)&b - (char*)&a);
  CHECK(MPI_Aint_add(base, MPI_Aint_diff(addr[2], base)) == addr[2]);
  int bl[3] = {1, 1, 3};
  MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT}, t;
  CHECK_MPI(MPI_Type_create_struct(3, bl, addr, types, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  char buf[32];
  int pos = 0;
  CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
  CHECK(pos == 4 + 8 + 6);
  a = 0;
  b = 0;
  c[0] = c[1] = c[2] = 0;
  pos = 0;
  CHECK_MPI(MPI_Unpack(buf, 18, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
  CHECK(a == 5 && b == 2.25 && c[0] == 1 && c[2] == 3);
  CHECK_MPI(MPI_Type_free(&t));
}

static void check_elements(void) {
  MPI_Status st;
  int bl[2] = {2, 1};
  MPI_Aint disp[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
  CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  CHECK_MPI(MPI_Status_set_elements(&st, t, 5)); /* one whole struct (3 elements) and 2 ints: 24 bytes */
  int n, count;
  CHECK_MPI(MPI_Get_elements(&st, t, &n));
  CHECK(n == 5);
  CHECK_MPI(MPI_Get_count(&st, t, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Status_set_elements(&st, t, 6));
  CHECK_MPI(MPI_Get_count(&st, t, &count));
  CHECK(count == 2);
  MPI_Count nx;
  CHECK_MPI(MPI_Get_elements_x(&st, t, &nx));
  CHECK(nx == 6);
  /* Counted in another type of the same bytes: 32 bytes are 8 ints. */
  CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &n));
  CHECK(n == 8);
  /* Bytes that end inside a double. */
  CHECK_MPI(MPI_Status_set_elements(&st, MPI_INT, 3));
  CHECK_MPI(MPI_Get_elements(&st, t, &n));
  CHECK(n == MPI_UNDEFINED); /* 12 bytes: 2 ints and half a double */
  CHECK_MPI(MPI_Get_elements(&st, MPI_DOUBLE, &n));
  CHECK(n == MPI_UNDEFINED);
  CHECK_MPI(MPI_Get_elements(&st, MPI_2INT, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Type_free(&t));
}

/* Freeing a type that a derived type uses keeps the derived one valid. */
static void check_shared_ownership(void) {
  MPI_Datatype inner, outer;
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &inner));
  CHECK_MPI(MPI_Type_contiguous(2, inner, &outer));
  CHECK_MPI(MPI_Type_free(&inner));
  CHECK_MPI(MPI_Type_commit(&outer));
  int src[16], buf[4], pos = 0;
  for (int i = 0; i < 16; ++i) src[i] = i;
  CHECK_MPI(MPI_Pack(src, 1, outer, buf, sizeof buf, &pos, MPI_COMM_WORLD));
  /* inner: ints 0 and 3, extent 4 ints; outer: two of them. */
  CHECK(buf[0] == 0 && buf[1] == 3 && buf[2] == 4 && buf[3] == 7);
  MPI_Datatype d;
  CHECK_MPI(MPI_Type_dup(outer, &d));
  CHECK_MPI(MPI_Type_free(&outer));
  pos = 0;
  memset(buf, 0, sizeof buf);
  CHECK_MPI(MPI_Pack(src, 1, d, buf, sizeof buf, &pos, MPI_COMM_WORLD)); /* dup of a committed type is committed */
  CHECK(buf[3] == 7);
  CHECK_MPI(MPI_Type_free(&d));
}

static void add_ints(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_INT);
  for (int i = 0; i < *len; ++i) ((int*)inout)[i] = 2 * ((int*)inout)[i] + ((int*)in)[i];
}

static void check_ops(void) {
  int a[4] = {1, 5, -3, 7}, b[4] = {4, 2, -1, 7};
  CHECK_MPI(MPI_Reduce_local(a, b, 4, MPI_INT, MPI_MAX));
  CHECK(b[0] == 4 && b[1] == 5 && b[2] == -1 && b[3] == 7);
  double x[2] = {1.5, 2.0}, y[2] = {2.0, 4.0};
  CHECK_MPI(MPI_Reduce_local(x, y, 2, MPI_DOUBLE, MPI_PROD));
  CHECK(y[0] == 3.0 && y[1] == 8.0);
  struct {
    double v;
    int i;
  } p[2] = {{1.0, 3}, {5.0, 0}}, q[2] = {{1.0, 1}, {2.0, 9}};
  CHECK_MPI(MPI_Reduce_local(p, q, 2, MPI_DOUBLE_INT, MPI_MAXLOC));
  CHECK(q[0].v == 1.0 && q[0].i == 1 && q[1].v == 5.0 && q[1].i == 0);

  MPI_Op op;
  int commute = -1;
  CHECK_MPI(MPI_Op_create(add_ints, 0, &op));
  CHECK_MPI(MPI_Op_commutative(op, &commute));
  CHECK(commute == 0);
  CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
  CHECK(commute == 1);
  int u[2] = {1, 2}, v[2] = {10, 20};
  CHECK_MPI(MPI_Reduce_local(u, v, 2, MPI_INT, op));
  CHECK(v[0] == 21 && v[1] == 42);
  CHECK_MPI(MPI_Op_free(&op));
  CHECK(op == MPI_OP_NULL);

  int cls;
  unsigned char bytes[2] = {1, 2}, bytes2[2] = {3, 4};
  int e = MPI_Reduce_local(bytes, bytes2, 2, MPI_BYTE, MPI_SUM);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_OP);
  CHECK(bytes2[0] == 3);
  e = MPI_Reduce_local(a, b, 4, MPI_INT, MPI_MINLOC);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_OP);
  MPI_Op sum = MPI_SUM;
  e = MPI_Op_free(&sum);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_OP);
}

static void check_errors(void) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  int cls, e;
  e = MPI_Type_contiguous(-1, MPI_INT, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_COUNT);
  e = MPI_Type_vector(2, -1, 1, MPI_INT, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_ARG);
  int bl[2] = {1, -2}, dp[2] = {0, 1};
  e = MPI_Type_indexed(2, bl, dp, MPI_INT, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_ARG);
  e = MPI_Type_indexed(2, NULL, dp, MPI_INT, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_ARG);
  e = MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_TYPE);
  MPI_Datatype freed;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &freed));
  MPI_Datatype keep = freed;
  CHECK_MPI(MPI_Type_free(&freed));
  e = MPI_Type_commit(&keep);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_TYPE);
  MPI_Datatype predefined = MPI_INT;
  e = MPI_Type_free(&predefined);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_TYPE);
  /* An uncommitted type cannot be used to pack. */
  MPI_Datatype raw;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &raw));
  int src[2] = {1, 2}, pos = 0;
  char out[8];
  e = MPI_Pack(src, 1, raw, out, 8, &pos, MPI_COMM_WORLD);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_TYPE);
  CHECK_MPI(MPI_Type_free(&raw));
  int sizes[1] = {4}, subs[1] = {5}, starts[1] = {0};
  e = MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t);
  MPI_Error_class(e, &cls);
  CHECK(cls == MPI_ERR_ARG);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_struct_extent();
  check_envelopes();
  check_names();
  check_pack();
  check_bottom();
  check_elements();
  check_shared_ownership();
  check_ops();
  check_errors();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
