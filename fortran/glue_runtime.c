/* The converters the generated glue of the Fortran bindings calls
 * (glue.h), and the storage of the special constants. */
#include <string.h>

#include "glue.h"

/* Common blocks of mpif.h and `use mpi`: the storage is here, the program's
 * COMMON declarations name it (gfortran: /MPI_FORTRAN_BOTTOM/ is the
 * symbol mpi_fortran_bottom_), so every unit sees the same addresses. */
/* Aligned as gfortran aligns common blocks (16 bytes), which is more than
 * mpi_f08's TYPE(MPI_Status) (a long long) needs. */
#define RMPI_F_BLOCK __attribute__((aligned(16)))
MPI_Fint mpi_fortran_bottom_ RMPI_F_BLOCK;
MPI_Fint mpi_fortran_in_place_ RMPI_F_BLOCK;
MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE] RMPI_F_BLOCK;
MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE] RMPI_F_BLOCK;
MPI_Fint mpi_fortran_errcodes_ignore_[1] RMPI_F_BLOCK;
MPI_Fint mpi_fortran_unweighted_[1] RMPI_F_BLOCK;
MPI_Fint mpi_fortran_weights_empty_[1] RMPI_F_BLOCK;
char mpi_fortran_argv_null_[1] RMPI_F_BLOCK;
char mpi_fortran_argvs_null_[1] RMPI_F_BLOCK;

static size_t trimmed(const char *s, size_t len) {
  while (len > 0 && s[len - 1] == ' ') len--;
  return len;
}

static char *copy_trimmed(const char *s, size_t len) {
  size_t n = trimmed(s, len); /* a Fortran string's trailing blanks are padding */
  char *c = malloc(n + 1);
  if (c == NULL) abort();
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

char *rmpi_f_cstr(const char *s, size_t len) { return copy_trimmed(s, len); }

char *rmpi_f_cstr_info(const char *s, size_t len) {
  while (len > 0 && *s == ' ') s++, len--;
  return copy_trimmed(s, len);
}

/* An output string: C writes at most the MPI_MAX_* bound of the call (all
 * at most MPI_MAX_INFO_VAL), or what a length argument allows (bound:
 * MPI_Info_get's valuelen, ...), plus the NUL; the Fortran length may be
 * shorter (the copy back is cut to it). */
char *rmpi_f_outbuf(const char *s, size_t len, size_t bound) {
  (void)s;
  size_t n = len + 1;
  if (bound < ((size_t)1 << 30) && n < bound + 1) n = bound + 1; /* a negative valuelen is C's to refuse */
  if (n < MPI_MAX_INFO_VAL + 1) n = MPI_MAX_INFO_VAL + 1;
  char *c = calloc(n, 1);
  if (c == NULL) abort();
  return c;
}

void rmpi_f_padout(char *s, size_t len, const char *c) {
  size_t n = strlen(c);
  if (n > len) n = len;
  memcpy(s, c, n);
  memset(s + n, ' ', len - n);
}

char **rmpi_f_strings(const char *s, size_t len, int n) {
  if (n < 0) n = 0;
  char **a = calloc((size_t)n + 1, sizeof *a);
  if (a == NULL) abort();
  for (int i = 0; i < n; i++) a[i] = copy_trimmed(s + (size_t)i * len, len);
  return a;
}

/* argv of MPI_Comm_spawn: the entries up to the first blank one
 * (MPI-4.1 §11.8.2); MPI_ARGV_NULL is C's. */
char **rmpi_f_argv(const char *s, size_t len) {
  if (s == mpi_fortran_argv_null_) return MPI_ARGV_NULL;
  int n = 0;
  while (trimmed(s + (size_t)n * len, len) > 0) n++;
  return rmpi_f_strings(s, len, n);
}

/* array_of_argv(count, *) of MPI_Comm_spawn_multiple: column-major, the
 * i-th command's arguments are s(i, 1), s(i, 2), ... up to a blank one. */
char ***rmpi_f_argvs(const char *s, size_t len, int n) {
  if (s == mpi_fortran_argvs_null_) return MPI_ARGVS_NULL;
  if (n < 0) n = 0;
  char ***a = calloc((size_t)n + 1, sizeof *a);
  if (a == NULL) abort();
  for (int i = 0; i < n; i++) {
    int k = 0;
    while (trimmed(s + ((size_t)k * (size_t)n + (size_t)i) * len, len) > 0) k++;
    a[i] = calloc((size_t)k + 1, sizeof **a);
    if (a[i] == NULL) abort();
    for (int j = 0; j < k; j++) a[i][j] = copy_trimmed(s + ((size_t)j * (size_t)n + (size_t)i) * len, len);
  }
  return a;
}

void rmpi_f_free_strings(char **a) {
  if (a == NULL) return;
  for (char **p = a; *p; p++) free(*p);
  free(a);
}

void rmpi_f_free_argvs(char ***a, int n) {
  if (a == NULL) return;
  for (int i = 0; i < n; i++) rmpi_f_free_strings(a[i]);
  free(a);
}

void rmpi_f_indices_out(MPI_Fint *idx, int n) {
  if (n == MPI_UNDEFINED) return;
  for (int i = 0; i < n; i++) idx[i] += 1;
}
