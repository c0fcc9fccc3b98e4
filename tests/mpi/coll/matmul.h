/* 2x2 integer matrices (int[4], row major) for the collective tests: an
 * associative, non-commutative reduction operation whose result shows the
 * order in which the ranks' contributions were combined. */
#ifndef RINGMPI_TEST_MATMUL_H
#define RINGMPI_TEST_MATMUL_H
#include <mpi.h>
#include <string.h>

/* out = a * b (out may alias a or b). */
static inline void mat2_mul(const int a[4], const int b[4], int out[4]) {
  int r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
              a[2] * b[1] + a[3] * b[3]};
  memcpy(out, r, sizeof r);
}

/* The MPI user operation: inout = in * inout, element by element. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  const int *a = in;
  int *b = inout;
  for (int k = 0; k < *len; ++k, a += 4, b += 4) mat2_mul(a, b, b);
}
#endif
