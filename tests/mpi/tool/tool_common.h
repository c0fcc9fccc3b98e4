/* Helpers of the tool information interface tests (MPI-3.1 §14.3). Only the
 * standard API: the programs also compile against Open MPI and MPICH; what
 * holds for ringmpi alone is under #ifdef RINGMPI.
 *
 * TCHECK exits with status 3 instead of calling MPI_Abort: these programs
 * also check before MPI_Init, after MPI_Finalize and without MPI_Init at all,
 * where no MPI call may be made (mpiexec takes the job down on the exit). */
#ifndef RINGMPI_TEST_TOOL_COMMON_H
#define RINGMPI_TEST_TOOL_COMMON_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TCHECK(cond)                                                                  \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "CHECK failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
      fflush(stderr);                                                                 \
      exit(3);                                                                        \
    }                                                                                 \
  } while (0)
#define TCHECK_OK(call) TCHECK((call) == MPI_SUCCESS)
/* An MPI_T call that must fail with exactly this class (and must return it,
 * not hand it to an error handler: the default handler would end the job). */
#define EXPECT(call, code) TCHECK((call) == (code))

/* A string of an MPI_T get_info call, by the protocol of §14.3.3: the length
 * first (NULL buffer), then a buffer of exactly that size. */
typedef int (*tool_string_fn)(int index, char *buf, int *len, void *ctx);

static inline char *tool_fetch_string(tool_string_fn fn, int index, void *ctx) {
  int len = -1;
  TCHECK_OK(fn(index, NULL, &len, ctx));
#ifdef RINGMPI
  TCHECK(len >= 1); /* strlen + 1, also for an empty string */
#else
  TCHECK(len >= 0); /* Open MPI 4.1 answers 0 for a variable without a description */
  if (len == 0) len = 1;
#endif
  char *s = (char *)malloc((size_t)len);
  TCHECK(s != NULL);
  int len2 = len;
  s[0] = '\0';
  TCHECK_OK(fn(index, s, &len2, ctx));
  TCHECK((int)strlen(s) == len - 1);
#ifdef RINGMPI
  TCHECK(len2 == len);
#endif
  return s;
}

static inline int tool_cvar_name(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_cvar_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}
static inline int tool_cvar_desc(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, NULL, buf, len, NULL, NULL);
}
static inline int tool_pvar_name(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_pvar_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}
static inline int tool_pvar_desc(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, buf, len, NULL, NULL, NULL, NULL);
}
static inline int tool_cat_name(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_category_get_info(i, buf, len, NULL, NULL, NULL, NULL, NULL);
}
static inline int tool_cat_desc(int i, char *buf, int *len, void *ctx) {
  (void)ctx;
  return MPI_T_category_get_info(i, NULL, NULL, buf, len, NULL, NULL, NULL);
}
static inline int tool_enum_item(int i, char *buf, int *len, void *ctx) {
  int value = -1;
  return MPI_T_enum_get_item(*(MPI_T_enum *)ctx, i, &value, buf, len);
}

/* Reads control variable i through a fresh handle (into a buffer of `count`
 * elements of 16 bytes, enough for any datatype) and copies the first `size`
 * bytes of the value to buf; returns its datatype, or MPI_DATATYPE_NULL when
 * it is bound to an object (not read here). */
static inline MPI_Datatype tool_read_cvar(int i, void *buf, size_t size) {
  int bind = -1, count = -1;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  TCHECK_OK(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &type, NULL, NULL, NULL, &bind, NULL));
  if (bind != MPI_T_BIND_NO_OBJECT) return MPI_DATATYPE_NULL;
  MPI_T_cvar_handle h;
  TCHECK_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
  TCHECK(count >= 1);
  char *all = (char *)calloc((size_t)count, 16);
  TCHECK(all != NULL);
  TCHECK_OK(MPI_T_cvar_read(h, all));
  memcpy(buf, all, (size_t)count * 16 < size ? (size_t)count * 16 : size);
  free(all);
  TCHECK_OK(MPI_T_cvar_handle_free(&h));
  TCHECK(h == MPI_T_CVAR_HANDLE_NULL);
  return type;
}

/* The value of a control variable of datatype MPI_INT or MPI_UNSIGNED_LONG_LONG. */
static inline unsigned long long tool_cvar_number(const char *name) {
  int i = -1;
  TCHECK_OK(MPI_T_cvar_get_index(name, &i));
  union {
    int i;
    unsigned long long u;
    char bytes[4096];
  } v;
  const MPI_Datatype type = tool_read_cvar(i, &v, sizeof v);
  TCHECK(type == MPI_INT || type == MPI_UNSIGNED_LONG_LONG);
  return type == MPI_INT ? (unsigned long long)v.i : v.u;
}
#endif
