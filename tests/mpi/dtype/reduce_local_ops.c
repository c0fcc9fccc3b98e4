/* MPI_Reduce_local with every predefined op on every predefined type family
 * (C integers of each width and sign, floating, complex, bool, byte) against
 * a plain C loop (issue 36): lengths that run the vectorised kernels' empty
 * case, the element-by-element tail, the vector loop and the unrolled
 * 128-byte loop alone and together (0 .. 1000 elements), buffers placed at
 * odd byte offsets (misaligned for the element type) with guard bytes after
 * them that must stay untouched, and the input buffer left as it was.
 * Floating values include NaN, infinities and signed zeros: MAX/MIN keep the
 * inout value when either side is NaN (the `a > b ? a : b` of the plain
 * loop). Each rank runs the same checks with its own values. */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const int kLengths[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 257, 1000};
enum { NLEN = sizeof kLengths / sizeof kLengths[0], GUARD = 16, MAXN = 1000 };

static int rank;

/* A scrambled small value -16..15 for element k of stream `s`. */
static int small(unsigned k, unsigned s) { return (int)(((k * 2654435761u) ^ (s * 40503u)) >> 27) - 16; }

#define INTEGER_VALUE(T, k, s) ((T)(small((k), (s)) % 4 == 0 ? 0 : small((k), (s))))

static double float_value(unsigned k, unsigned s) {
  switch ((k + s) % 13) {
    case 3: return NAN;
    case 7: return INFINITY;
    case 8: return -INFINITY;
    case 9: return -0.0;
    case 10: return 0.0;
    default: return small(k, s) / 4.0;
  }
}

/* Same bits, or both NaN (which NaN a sum of two gives depends on operand order). */
#define SAME_INT(x, y) ((x) == (y))
#define SAME_FLOAT(x, y) ((isnan(x) && isnan(y)) || (!isnan(x) && !isnan(y) && (x) == (y) && signbit(x) == signbit(y)))
#define SAME_COMPLEX(x, y) (SAME_FLOAT(creal(x), creal(y)) && SAME_FLOAT(cimag(x), cimag(y)))

static const char* op_name(MPI_Op op) {
  return op == MPI_MAX ? "MAX" : op == MPI_MIN ? "MIN" : op == MPI_SUM ? "SUM" : op == MPI_PROD ? "PROD"
       : op == MPI_LAND ? "LAND" : op == MPI_LOR ? "LOR" : op == MPI_LXOR ? "LXOR" : op == MPI_BAND ? "BAND"
       : op == MPI_BOR ? "BOR" : "BXOR";
}

/* One type: for each op, length and pair of offsets, fill byte buffers with
 * values placed by memcpy, compute the plain loop's result, call
 * MPI_Reduce_local and compare. */
#define DEFINE_CHECK(NAME, T, VALUE, REF, SAME)                                                          \
  static void NAME(MPI_Datatype type, const char* tname, const MPI_Op* ops, int nops) {                   \
    const size_t S = sizeof(T);                                                                           \
    unsigned char* in = malloc(3 + MAXN * S + GUARD);                                                     \
    unsigned char* io = malloc(5 + MAXN * S + GUARD);                                                     \
    unsigned char* in0 = malloc(3 + MAXN * S + GUARD);                                                    \
    unsigned char* io0 = malloc(5 + MAXN * S + GUARD);                                                    \
    T* want = malloc(MAXN * S);                                                                           \
    for (int o = 0; o < nops; ++o)                                                                        \
      for (int l = 0; l < NLEN; ++l)                                                                      \
        for (size_t ain = 0; ain <= 3; ain += 3)                                                          \
          for (size_t aio = 0; aio <= 5; aio += 5) {                                                      \
            const int n = kLengths[l];                                                                    \
            const MPI_Op op = ops[o];                                                                     \
            memset(in, 0xA5, 3 + MAXN * S + GUARD);                                                       \
            memset(io, 0x5A, 5 + MAXN * S + GUARD);                                                       \
            for (int i = 0; i < n; ++i) {                                                                 \
              const T a = VALUE(T, (unsigned)i * 3 + (unsigned)n, (unsigned)rank);                        \
              const T b = VALUE(T, (unsigned)i * 5 + 1, (unsigned)rank + 1);                              \
              memcpy(in + ain + i * S, &a, S);                                                            \
              memcpy(io + aio + i * S, &b, S);                                                            \
              want[i] = REF(op, a, b);                                                                    \
            }                                                                                             \
            memcpy(in0, in, 3 + MAXN * S + GUARD);                                                        \
            memcpy(io0, io, 5 + MAXN * S + GUARD);                                                        \
            CHECK_MPI(MPI_Reduce_local(in + ain, io + aio, n, type, op));                                 \
            int bad = -1;                                                                                 \
            for (int i = 0; i < n && bad < 0; ++i) {                                                      \
              T got;                                                                                      \
              memcpy(&got, io + aio + i * S, S);                                                          \
              if (!(SAME(got, want[i]))) bad = i;                                                         \
            }                                                                                             \
            if (bad >= 0)                                                                                 \
              fprintf(stderr, "rank %d: MPI_%s on %s, %d elements, offsets %zu/%zu: element %d wrong\n",  \
                      rank, op_name(op), tname, n, ain, aio, bad);                                        \
            CHECK(bad < 0);                                                                               \
            CHECK(memcmp(in, in0, 3 + MAXN * S + GUARD) == 0);             /* input untouched */          \
            CHECK(memcmp(io, io0, aio) == 0);                              /* before inout */             \
            CHECK(memcmp(io + aio + n * S, io0 + aio + n * S, GUARD) == 0); /* after inout */             \
          }                                                                                               \
    free(in), free(io), free(in0), free(io0), free(want);                                                 \
  }

#define INT_REF(op, a, b)                                                                                     \
  ((op) == MPI_MAX ? ((a) > (b) ? (a) : (b)) : (op) == MPI_MIN ? ((a) < (b) ? (a) : (b))                      \
   : (op) == MPI_SUM ? (a) + (b) : (op) == MPI_PROD ? (a) * (b)                                               \
   : (op) == MPI_LAND ? ((a) != 0 && (b) != 0) : (op) == MPI_LOR ? ((a) != 0 || (b) != 0)                     \
   : (op) == MPI_LXOR ? (((a) != 0) != ((b) != 0)) : (op) == MPI_BAND ? ((a) & (b))                           \
   : (op) == MPI_BOR ? ((a) | (b)) : ((a) ^ (b)))
#define FLOAT_REF(op, a, b)                                                                                   \
  ((op) == MPI_MAX ? ((a) > (b) ? (a) : (b)) : (op) == MPI_MIN ? ((a) < (b) ? (a) : (b))                      \
   : (op) == MPI_SUM ? (a) + (b) : (a) * (b))
#define COMPLEX_REF(op, a, b) ((a) + (b)) /* MPI_SUM only (a product's rounding may differ by formula) */
#define BOOL_REF(op, a, b) ((op) == MPI_LAND ? ((a) && (b)) : (op) == MPI_LOR ? ((a) || (b)) : ((a) != (b)))
#define BYTE_REF(op, a, b) ((op) == MPI_BAND ? ((a) & (b)) : (op) == MPI_BOR ? ((a) | (b)) : ((a) ^ (b)))

#define FLOAT_VALUE(T, k, s) ((T)float_value((k), (s)))
#define COMPLEX_VALUE(T, k, s) ((T)(float_value((k), (s)) + float_value((k) + 1, (s)) * I))
#define BOOL_VALUE(T, k, s) ((T)(small((k), (s)) > 0))
#define BYTE_VALUE(T, k, s) ((T)(small((k), (s)) * 37))

DEFINE_CHECK(check_schar, signed char, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_uchar, unsigned char, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_short, short, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_ushort, unsigned short, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_int, int, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_uint, unsigned, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_long, long, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_ulong, unsigned long, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_llong, long long, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_ullong, unsigned long long, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_i8, int8_t, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_u16, uint16_t, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_i32, int32_t, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_u64, uint64_t, INTEGER_VALUE, INT_REF, SAME_INT)
DEFINE_CHECK(check_float, float, FLOAT_VALUE, FLOAT_REF, SAME_FLOAT)
DEFINE_CHECK(check_double, double, FLOAT_VALUE, FLOAT_REF, SAME_FLOAT)
DEFINE_CHECK(check_ldouble, long double, FLOAT_VALUE, FLOAT_REF, SAME_FLOAT)
DEFINE_CHECK(check_fcomplex, float _Complex, COMPLEX_VALUE, COMPLEX_REF, SAME_COMPLEX)
DEFINE_CHECK(check_dcomplex, double _Complex, COMPLEX_VALUE, COMPLEX_REF, SAME_COMPLEX)
DEFINE_CHECK(check_bool, bool, BOOL_VALUE, BOOL_REF, SAME_INT)
DEFINE_CHECK(check_byte, unsigned char, BYTE_VALUE, BYTE_REF, SAME_INT)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  static const MPI_Op integer[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                                   MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
  static const MPI_Op floating[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};
  static const MPI_Op sum[] = {MPI_SUM};
  static const MPI_Op logical[] = {MPI_LAND, MPI_LOR, MPI_LXOR};
  static const MPI_Op bitwise[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
  check_schar(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", integer, 10);
  check_uchar(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", integer, 10);
  check_short(MPI_SHORT, "MPI_SHORT", integer, 10);
  check_ushort(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", integer, 10);
  check_int(MPI_INT, "MPI_INT", integer, 10);
  check_uint(MPI_UNSIGNED, "MPI_UNSIGNED", integer, 10);
  check_long(MPI_LONG, "MPI_LONG", integer, 10);
  check_ulong(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", integer, 10);
  check_llong(MPI_LONG_LONG, "MPI_LONG_LONG", integer, 10);
  check_ullong(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", integer, 10);
  check_i8(MPI_INT8_T, "MPI_INT8_T", integer, 10);
  check_u16(MPI_UINT16_T, "MPI_UINT16_T", integer, 10);
  check_i32(MPI_INT32_T, "MPI_INT32_T", integer, 10);
  check_u64(MPI_UINT64_T, "MPI_UINT64_T", integer, 10);
  check_float(MPI_FLOAT, "MPI_FLOAT", floating, 4);
  check_double(MPI_DOUBLE, "MPI_DOUBLE", floating, 4);
  check_ldouble(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", floating, 4);
  check_fcomplex(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", sum, 1);
  check_dcomplex(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", sum, 1);
  check_bool(MPI_C_BOOL, "MPI_C_BOOL", logical, 3);
  check_byte(MPI_BYTE, "MPI_BYTE", bitwise, 3);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("reduce_local_ops: every op on every type family matches the plain loop\n");
  MPI_Finalize();
  return 0;
}
