/* The bytes of the large-count tests' messages of more than 2^31 elements
 * (tests/mpi/<area>/bigcount_huge_*.c): a pattern of period 251 that is fast
 * to write (doubling copies) and to check (every byte of the first and last
 * MiB, one in 4093 in between). */
#ifndef RINGMPI_TEST_BIGCOUNT_PATTERN_H
#define RINGMPI_TEST_BIGCOUNT_PATTERN_H
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* 2^31 + 7 elements: beyond an int, a few seconds to move at np 2. */
static const MPI_Count kHuge = ((MPI_Count)1 << 31) + 7;

static inline unsigned char huge_byte(MPI_Count i, int salt) { return (unsigned char)((i * 131 + salt) % 251); }

static inline void huge_fill(unsigned char* b, MPI_Count n, int salt) {
  const MPI_Count period = 251 * 16;
  for (MPI_Count i = 0; i < period && i < n; ++i) b[i] = huge_byte(i, salt);
  for (MPI_Count have = period; have < n;) {
    const MPI_Count k = have < n - have ? have : n - have;
    memcpy(b + have, b, (size_t)k);
    have += k;
  }
}

static inline void huge_verify(const unsigned char* b, MPI_Count n, int salt) {
  const MPI_Count edge = (MPI_Count)1 << 20;
  for (MPI_Count i = 0; i < edge && i < n; ++i) CHECK(b[i] == huge_byte(i, salt));
  for (MPI_Count i = n > edge ? n - edge : 0; i < n; ++i) CHECK(b[i] == huge_byte(i, salt));
  for (MPI_Count i = edge; i < n - edge; i += 4093) CHECK(b[i] == huge_byte(i, salt));
}

/* Every byte of b[0 .. n) (memcmp against one period of the pattern, then
 * the first differing byte named). */
static inline void huge_verify_all(const unsigned char* b, MPI_Count n, int salt) {
  enum { kPeriod = 251 * 64 };
  unsigned char ref[kPeriod];
  for (int i = 0; i < kPeriod; ++i) ref[i] = huge_byte(i, salt);
  for (MPI_Count at = 0; at < n; at += kPeriod) {
    const size_t k = (size_t)(n - at < kPeriod ? n - at : kPeriod);
    if (memcmp(b + at, ref, k) != 0)
      for (size_t i = 0; i < k; ++i) CHECK(b[at + (MPI_Count)i] == huge_byte(at + (MPI_Count)i, salt));
  }
}

static inline unsigned char* huge_alloc(void) {
  unsigned char* b = malloc((size_t)kHuge);
  CHECK(b != NULL);
  return b;
}
#endif
