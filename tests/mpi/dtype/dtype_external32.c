/* MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size with
 * "external32" (MPI-3.1 §13.5.2): exact byte images of basic types (big
 * endian, the standard's sizes: MPI_LONG 4 bytes, MPI_WCHAR 2,
 * MPI_LONG_DOUBLE 16 ...), pair and Fortran types, derived types (a struct,
 * a strided vector, a large count that crosses the library's chunking),
 * round trips, packed data sent between ranks, and the errors. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"

static const char* const X32 = "external32";

static int error_class(int e) {
  int cls;
  MPI_Error_class(e, &cls);
  return cls;
}

/* Packs one element of `type` from `value`, checks the image and its size,
 * then unpacks it and checks that the native bytes come back (n bytes). */
static void image(MPI_Datatype type, const void* value, size_t n, const unsigned char* want, int want_len) {
  unsigned char out[64], back[64];
  MPI_Aint size, pos = 0;
  CHECK_MPI(MPI_Pack_external_size(X32, 1, type, &size));
  CHECK(size == want_len);
  memset(out, 0xAA, sizeof out);
  CHECK_MPI(MPI_Pack_external(X32, value, 1, type, out, sizeof out, &pos));
  CHECK(pos == want_len);
  CHECK(memcmp(out, want, (size_t)want_len) == 0);
  CHECK(out[want_len] == 0xAA); /* nothing written past it */
  memset(back, 0, sizeof back);
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, out, want_len, &pos, back, 1, type));
  CHECK(pos == want_len);
  CHECK(memcmp(back, value, n) == 0);
}

static void check_basic_images(void) {
  const int one = 1, minus2 = -2;
  image(MPI_INT, &one, sizeof one, (const unsigned char[]){0, 0, 0, 1}, 4);
  image(MPI_INT, &minus2, sizeof minus2, (const unsigned char[]){0xff, 0xff, 0xff, 0xfe}, 4);
  const unsigned u = 0xdeadbeefu;
  image(MPI_UNSIGNED, &u, sizeof u, (const unsigned char[]){0xde, 0xad, 0xbe, 0xef}, 4);
  const short s = 0x0102;
  image(MPI_SHORT, &s, sizeof s, (const unsigned char[]){1, 2}, 2);
  /* MPI_LONG is 4 bytes in external32, whatever sizeof(long) is here. */
  const long l1 = 1, lm = -2, lbig = 0x12345678L;
  image(MPI_LONG, &l1, sizeof l1, (const unsigned char[]){0, 0, 0, 1}, 4);
  image(MPI_LONG, &lm, sizeof lm, (const unsigned char[]){0xff, 0xff, 0xff, 0xfe}, 4);
  image(MPI_LONG, &lbig, sizeof lbig, (const unsigned char[]){0x12, 0x34, 0x56, 0x78}, 4);
  const unsigned long ul = 0xfffffffful;
  image(MPI_UNSIGNED_LONG, &ul, sizeof ul, (const unsigned char[]){0xff, 0xff, 0xff, 0xff}, 4);
  const long long ll = -1LL;
  image(MPI_LONG_LONG, &ll, sizeof ll, (const unsigned char[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 8);
  const long long ll2 = 0x0102030405060708LL;
  image(MPI_LONG_LONG_INT, &ll2, sizeof ll2, (const unsigned char[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
  const MPI_Aint a = 258;
  image(MPI_AINT, &a, sizeof a, (const unsigned char[]){0, 0, 0, 0, 0, 0, 1, 2}, 8);
  const float f = 1.0f;
  image(MPI_FLOAT, &f, sizeof f, (const unsigned char[]){0x3f, 0x80, 0, 0}, 4);
  const double d = 1.0, dm = -2.5;
  image(MPI_DOUBLE, &d, sizeof d, (const unsigned char[]){0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, 8);
  image(MPI_DOUBLE, &dm, sizeof dm, (const unsigned char[]){0xc0, 0x04, 0, 0, 0, 0, 0, 0}, 8);
  /* long double: IEEE binary128, 1.0 = 3fff 0000 ... ; -3.25 = c000 a000 ... */
  long double ld = 1.0L, ldm = -3.25L;
  const unsigned char ld_one[16] = {0x3f, 0xff}, ld_m[16] = {0xc0, 0x00, 0xa0};
  unsigned char out[16];
  MPI_Aint pos = 0, size;
  CHECK_MPI(MPI_Pack_external_size(X32, 1, MPI_LONG_DOUBLE, &size));
  CHECK(size == 16);
  CHECK_MPI(MPI_Pack_external(X32, &ld, 1, MPI_LONG_DOUBLE, out, 16, &pos));
  CHECK(pos == 16 && memcmp(out, ld_one, 16) == 0);
  pos = 0;
  CHECK_MPI(MPI_Pack_external(X32, &ldm, 1, MPI_LONG_DOUBLE, out, 16, &pos));
  CHECK(memcmp(out, ld_m, 16) == 0);
  long double back = 0;
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, out, 16, &pos, &back, 1, MPI_LONG_DOUBLE));
  CHECK(back == -3.25L);
  /* bool: one byte; any nonzero byte unpacks as true */
  const _Bool t = 1;
  image(MPI_C_BOOL, &t, sizeof t, (const unsigned char[]){1}, 1);
  const unsigned char two = 2;
  _Bool b = 0;
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, &two, 1, &pos, &b, 1, MPI_C_BOOL));
  CHECK(b == 1);
  /* wchar: 2 bytes */
  const wchar_t w = L'A';
  image(MPI_WCHAR, &w, sizeof w, (const unsigned char[]){0, 0x41}, 2);
  const char c = 'z';
  image(MPI_CHAR, &c, 1, (const unsigned char[]){'z'}, 1);
  /* complex: the real part, then the imaginary part */
  const float cf[2] = {1.0f, 2.0f};
  image(MPI_C_FLOAT_COMPLEX, cf, sizeof cf, (const unsigned char[]){0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}, 8);
  image(MPI_COMPLEX, cf, sizeof cf, (const unsigned char[]){0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}, 8);
}

static void check_pairs_and_fortran(void) {
  /* Pair types: value then int, no padding. */
  struct {
    double v;
    int i;
  } di = {1.0, 7};
  image(MPI_DOUBLE_INT, &di, 12, (const unsigned char[]){0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}, 12);
  struct {
    long v;
    int i;
  } li = {-1, 3};
  unsigned char out[32];
  MPI_Aint pos = 0;
  CHECK_MPI(MPI_Pack_external(X32, &li, 1, MPI_LONG_INT, out, sizeof out, &pos));
  CHECK(pos == 8);
  const unsigned char li_want[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 3};
  CHECK(memcmp(out, li_want, 8) == 0);
  const int two[2] = {5, -1};
  image(MPI_2INT, two, sizeof two, (const unsigned char[]){0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff}, 8);
  /* Fortran types */
  const int integer = 5, logical = 1;
  image(MPI_INTEGER, &integer, 4, (const unsigned char[]){0, 0, 0, 5}, 4);
  image(MPI_LOGICAL, &logical, 4, (const unsigned char[]){0, 0, 0, 1}, 4);
  const float real = 1.0f;
  image(MPI_REAL, &real, 4, (const unsigned char[]){0x3f, 0x80, 0, 0}, 4);
  const double dp = 1.0;
  image(MPI_DOUBLE_PRECISION, &dp, 8, (const unsigned char[]){0x3f, 0xf0, 0, 0, 0, 0, 0, 0}, 8);
  const float r2[2] = {1.0f, 2.0f};
  image(MPI_2REAL, r2, 8, (const unsigned char[]){0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}, 8);
  const long long i8 = 1;
  image(MPI_INTEGER8, &i8, 8, (const unsigned char[]){0, 0, 0, 0, 0, 0, 0, 1}, 8);
  const short i2 = -2;
  image(MPI_INTEGER2, &i2, 2, (const unsigned char[]){0xff, 0xfe}, 2);
  MPI_Aint size;
  CHECK_MPI(MPI_Pack_external_size(X32, 3, MPI_DOUBLE_COMPLEX, &size));
  CHECK(size == 48);
  CHECK_MPI(MPI_Pack_external_size(X32, 1, MPI_CHARACTER, &size));
  CHECK(size == 1);
  if (MPI_REAL16 != MPI_DATATYPE_NULL) {
    /* binary128 already: only the byte order changes */
    unsigned char native[16], want[16], got[16];
    for (int k = 0; k < 16; ++k) native[k] = (unsigned char)(k + 1);
    for (int k = 0; k < 16; ++k) want[k] = native[15 - k];
    pos = 0;
    CHECK_MPI(MPI_Pack_external(X32, native, 1, MPI_REAL16, got, 16, &pos));
    CHECK(pos == 16 && memcmp(got, want, 16) == 0);
    CHECK_MPI(MPI_Pack_external_size(X32, 1, MPI_COMPLEX32, &size));
    CHECK(size == 32);
  }
}

struct rec {
  char c;
  int i;
  double d;
  long l;
};

static MPI_Datatype rec_type(void) {
  int bl[4] = {1, 1, 1, 1};
  MPI_Aint disp[4] = {offsetof(struct rec, c), offsetof(struct rec, i), offsetof(struct rec, d),
                      offsetof(struct rec, l)};
  MPI_Datatype types[4] = {MPI_CHAR, MPI_INT, MPI_DOUBLE, MPI_LONG}, t;
  CHECK_MPI(MPI_Type_create_struct(4, bl, disp, types, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  return t;
}

static void check_derived(void) {
  MPI_Datatype t = rec_type();
  /* A struct: char(1) int(4) double(8) long(4) = 17 bytes, no padding. */
  struct rec r = {'a', 258, 1.0, -2};
  const unsigned char want[17] = {'a', 0, 0, 1, 2, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe};
  MPI_Aint size, pos = 0;
  CHECK_MPI(MPI_Pack_external_size(X32, 1, t, &size));
  CHECK(size == 17);
  unsigned char out[64];
  CHECK_MPI(MPI_Pack_external(X32, &r, 1, t, out, sizeof out, &pos));
  CHECK(pos == 17 && memcmp(out, want, 17) == 0);
  struct rec back;
  memset(&back, 0, sizeof back);
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, out, 17, &pos, &back, 1, t));
  CHECK(back.c == 'a' && back.i == 258 && back.d == 1.0 && back.l == -2);

  /* A strided vector: every other int, gaps left alone on unpack. */
  MPI_Datatype v;
  CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_INT, &v));
  CHECK_MPI(MPI_Type_commit(&v));
  const int src[6] = {1, 2, 3, 4, 5, 6};
  pos = 0;
  CHECK_MPI(MPI_Pack_external(X32, src, 1, v, out, sizeof out, &pos));
  const unsigned char vwant[12] = {0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 5};
  CHECK(pos == 12 && memcmp(out, vwant, 12) == 0);
  int dst[6] = {-1, -1, -1, -1, -1, -1};
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, out, 12, &pos, dst, 1, v));
  CHECK(dst[0] == 1 && dst[1] == -1 && dst[2] == 3 && dst[3] == -1 && dst[4] == 5 && dst[5] == -1);

  /* Positions accumulate: an int, then the struct, then unpacked in order. */
  pos = 0;
  const int lead = 9;
  CHECK_MPI(MPI_Pack_external(X32, &lead, 1, MPI_INT, out, sizeof out, &pos));
  CHECK_MPI(MPI_Pack_external(X32, &r, 1, t, out, sizeof out, &pos));
  CHECK(pos == 21 && memcmp(out + 4, want, 17) == 0);
  int lead_back = 0;
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, out, 21, &pos, &lead_back, 1, MPI_INT));
  memset(&back, 0, sizeof back);
  CHECK_MPI(MPI_Unpack_external(X32, out, 21, &pos, &back, 1, t));
  CHECK(pos == 21 && lead_back == 9 && back.i == 258 && back.l == -2);

  /* Many elements (well past one 64 KiB conversion chunk), round trip. */
  const int n = 20000;
  struct rec* many = malloc(sizeof(struct rec) * (size_t)n);
  struct rec* again = calloc((size_t)n, sizeof(struct rec));
  for (int k = 0; k < n; ++k) {
    many[k].c = (char)(k % 100);
    many[k].i = k * 7 - 1000;
    many[k].d = k * 0.25;
    many[k].l = -k;
  }
  CHECK_MPI(MPI_Pack_external_size(X32, n, t, &size));
  CHECK(size == 17 * (MPI_Aint)n);
  unsigned char* big = malloc((size_t)size);
  pos = 0;
  CHECK_MPI(MPI_Pack_external(X32, many, n, t, big, size, &pos));
  CHECK(pos == size);
  /* element k's int sits at 17k + 1, big-endian */
  for (int k = 0; k < n; k += 997) {
    const unsigned char* p = big + 17 * (size_t)k + 1;
    const unsigned v = ((unsigned)p[0] << 24) | ((unsigned)p[1] << 16) | ((unsigned)p[2] << 8) | p[3];
    CHECK((int)v == k * 7 - 1000);
  }
  pos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, big, size, &pos, again, n, t));
  for (int k = 0; k < n; ++k)
    CHECK(again[k].c == many[k].c && again[k].i == many[k].i && again[k].d == many[k].d && again[k].l == many[k].l);
  free(many);
  free(again);
  free(big);
  CHECK_MPI(MPI_Type_free(&v));
  CHECK_MPI(MPI_Type_free(&t));
}

/* Rank r packs, sends the bytes to r+1, which unpacks them. */
static void check_exchange(void) {
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Datatype t = rec_type();
  struct rec mine[3], theirs[3];
  for (int k = 0; k < 3; ++k) {
    mine[k].c = (char)('a' + rank);
    mine[k].i = rank * 100 + k;
    mine[k].d = rank + k * 0.5;
    mine[k].l = -rank - k;
  }
  unsigned char out[64], in[64];
  MPI_Aint pos = 0;
  CHECK_MPI(MPI_Pack_external(X32, mine, 3, t, out, sizeof out, &pos));
  const int from = (rank + np - 1) % np, to = (rank + 1) % np;
  CHECK_MPI(MPI_Sendrecv(out, (int)pos, MPI_BYTE, to, 3, in, (int)sizeof in, MPI_BYTE, from, 3, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  MPI_Aint ipos = 0;
  CHECK_MPI(MPI_Unpack_external(X32, in, pos, &ipos, theirs, 3, t));
  for (int k = 0; k < 3; ++k)
    CHECK(theirs[k].c == 'a' + from && theirs[k].i == from * 100 + k && theirs[k].d == from + k * 0.5 &&
          theirs[k].l == -from - k);
  CHECK_MPI(MPI_Type_free(&t));
}

static void check_errors(void) {
  int v = 1;
  unsigned char out[8];
  MPI_Aint pos = 0, size;
  CHECK(error_class(MPI_Pack_external("native", &v, 1, MPI_INT, out, 8, &pos)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Pack_external_size("internal", 1, MPI_INT, &size)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Unpack_external("external64", out, 8, &pos, &v, 1, MPI_INT)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Pack_external(NULL, &v, 1, MPI_INT, out, 8, &pos)) == MPI_ERR_ARG);
  /* too small a buffer: MPI_ERR_TRUNCATE, position untouched */
  pos = 6;
  CHECK(error_class(MPI_Pack_external(X32, &v, 1, MPI_INT, out, 8, &pos)) == MPI_ERR_TRUNCATE);
  CHECK(pos == 6);
  pos = 0;
  CHECK(error_class(MPI_Unpack_external(X32, out, 3, &pos, &v, 1, MPI_INT)) == MPI_ERR_TRUNCATE);
  /* position outside the buffer, NULL position, negative count */
  pos = 9;
  CHECK(error_class(MPI_Pack_external(X32, &v, 1, MPI_INT, out, 8, &pos)) == MPI_ERR_ARG);
  CHECK(error_class(MPI_Pack_external(X32, &v, 1, MPI_INT, out, 8, NULL)) == MPI_ERR_ARG);
  pos = 0;
  CHECK(error_class(MPI_Pack_external(X32, &v, -1, MPI_INT, out, 8, &pos)) == MPI_ERR_COUNT);
  /* an uncommitted or invalid datatype */
  MPI_Datatype raw;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &raw));
  CHECK(error_class(MPI_Pack_external_size(X32, 1, raw, &size)) == MPI_ERR_TYPE);
  CHECK(error_class(MPI_Pack_external(X32, &v, 1, MPI_DATATYPE_NULL, out, 8, &pos)) == MPI_ERR_TYPE);
  CHECK_MPI(MPI_Type_free(&raw));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check_basic_images();
  check_pairs_and_fortran();
  check_derived();
  check_exchange();
  check_errors();
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Finalize();
  return 0;
}
