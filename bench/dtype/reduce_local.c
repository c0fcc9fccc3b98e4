/* MPI_Reduce_local against a plain C loop and memcpy (issue 36), standard
 * MPI C so that the same file builds against MPICH and Open MPI: float,
 * double and int with MPI_SUM and MPI_MAX, 4 B .. 1 MiB per buffer (every
 * power of 4), the best of 5 repetitions of back-to-back calls on the same
 * two buffers (they stay in cache up to the cache's size), microseconds per
 * call. The plain loop is `inout[i] = in[i] op inout[i]` compiled here (with
 * this file's flags, called through a function pointer as a library's loop
 * would be); memcpy copies the same bytes between the same two buffers.
 *
 *   mpiexec -n 1 reduce_local [REPS]
 *
 * One line per type, op and size:
 *   TYPE OP BYTES REDUCE_LOCAL_US PLAIN_LOOP_US MEMCPY_US */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAIN(NAME, T, EXPR)                                                \
  static void NAME(const void* in, void* inout, int n) {                    \
    const T* a = (const T*)in;                                              \
    T* b = (T*)inout;                                                       \
    for (int i = 0; i < n; ++i) b[i] = EXPR;                                \
  }
PLAIN(float_sum, float, a[i] + b[i])
PLAIN(float_max, float, a[i] > b[i] ? a[i] : b[i])
PLAIN(double_sum, double, a[i] + b[i])
PLAIN(double_max, double, a[i] > b[i] ? a[i] : b[i])
PLAIN(int_sum, int, a[i] + b[i])
PLAIN(int_max, int, a[i] > b[i] ? a[i] : b[i])

typedef void (*plain_fn)(const void*, void*, int);
/* Called through this (volatile) pointer: the compiler cannot inline the
 * loop into the timing loop or drop repeated calls. */
static void* (*volatile copy_fn)(void*, const void*, size_t) = memcpy;

enum { ALIGN = 64, MAXB = 1 << 20 };

/* Seconds per call of `what` (0: MPI_Reduce_local, 1: plain loop, 2:
 * memcpy), the best of `reps` repetitions. */
static double best_time(int what, int reps, void* a, void* c, int n, long bytes, MPI_Datatype t, MPI_Op op,
                        plain_fn plain) {
  long it = (128L << 20) / (bytes + 128);
  if (it > 100000) it = 100000;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const double t0 = MPI_Wtime();
    if (what == 0)
      for (long i = 0; i < it; ++i) MPI_Reduce_local(a, c, n, t, op);
    else if (what == 1)
      for (long i = 0; i < it; ++i) plain(a, c, n);
    else
      for (long i = 0; i < it; ++i) copy_fn(c, a, (size_t)bytes);
    const double s = (MPI_Wtime() - t0) / (double)it;
    if (s < best) best = s;
  }
  return best;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int reps = argc > 1 ? atoi(argv[1]) : 5;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  struct {
    const char *tname, *oname;
    MPI_Datatype type;
    MPI_Op op;
    int size;
    plain_fn plain;
  } cases[] = {
      {"float", "SUM", MPI_FLOAT, MPI_SUM, 4, float_sum},    {"float", "MAX", MPI_FLOAT, MPI_MAX, 4, float_max},
      {"double", "SUM", MPI_DOUBLE, MPI_SUM, 8, double_sum}, {"double", "MAX", MPI_DOUBLE, MPI_MAX, 8, double_max},
      {"int", "SUM", MPI_INT, MPI_SUM, 4, int_sum},          {"int", "MAX", MPI_INT, MPI_MAX, 4, int_max},
  };
  void* a = NULL;
  void* c = NULL;
  if (posix_memalign(&a, ALIGN, MAXB) != 0 || posix_memalign(&c, ALIGN, MAXB) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  /* Small integers: sums stay exact and no float overflows, whatever the
   * number of calls; MAX leaves the values as they are. */
  for (int i = 0; i < MAXB / 4; ++i) ((int*)a)[i] = 0, ((int*)c)[i] = 0;
  if (rank == 0) printf("# TYPE OP BYTES REDUCE_LOCAL_US PLAIN_LOOP_US MEMCPY_US (best of %d)\n", reps);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
    for (long b = 4; b <= MAXB; b *= 4) {
      if (b < cases[k].size) continue;
      const int n = (int)(b / cases[k].size);
      double t[3];
      for (int w = 0; w < 3; ++w) t[w] = best_time(w, reps, a, c, n, b, cases[k].type, cases[k].op, cases[k].plain);
      if (rank == 0)
        printf("%s %s %ld %.4f %.4f %.4f\n", cases[k].tname, cases[k].oname, b, t[0] * 1e6, t[1] * 1e6, t[2] * 1e6);
    }
  free(a);
  free(c);
  MPI_Finalize();
  return 0;
}
