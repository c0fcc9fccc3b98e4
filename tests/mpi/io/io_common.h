/* Helpers shared by the MPI-IO tests (MPI-3.1 chapter 13): a file name
 * unique to the run, and error classes. */
#ifndef RINGMPI_TEST_IO_COMMON_H
#define RINGMPI_TEST_IO_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#define IO_PATH_MAX 1024

/* Rank 0 makes "<$TMPDIR or /tmp>/ringmpi_<tag>_<pid>" and broadcasts it, so
 * that every rank names the same files and two runs never share one. */
static inline void io_base_name(const char *tag, char *out) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  memset(out, 0, IO_PATH_MAX);
  if (rank == 0) {
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0') dir = "/tmp";
    int n = snprintf(out, IO_PATH_MAX, "%s/ringmpi_%s_%ld", dir, tag, (long)getpid());
    CHECK(n > 0 && n < IO_PATH_MAX - 64);
  }
  CHECK_MPI(MPI_Bcast(out, IO_PATH_MAX, MPI_CHAR, 0, MPI_COMM_WORLD));
}

/* base + suffix, e.g. io_name(path, base, ".data"). */
static inline void io_name(char *out, const char *base, const char *suffix) {
  int n = snprintf(out, IO_PATH_MAX, "%s%s", base, suffix);
  CHECK(n > 0 && n < IO_PATH_MAX);
}

static inline int io_class(int code) {
  int c = -1;
  CHECK_MPI(MPI_Error_class(code, &c));
  return c;
}

/* Whether code's class is one of the n classes listed. */
static inline int io_class_in(int code, const int *classes, int n) {
  int c = io_class(code);
  for (int i = 0; i < n; ++i)
    if (c == classes[i]) return 1;
  return 0;
}

/* code is an error (not MPI_SUCCESS) whose class is one of those listed,
 * and MPI_Error_string describes it. */
#define CHECK_ERR_CLASS(code, ...)                                          \
  do {                                                                      \
    const int accept_[] = {__VA_ARGS__};                                    \
    int code_ = (code);                                                     \
    CHECK(code_ != MPI_SUCCESS);                                            \
    CHECK(io_class_in(code_, accept_, sizeof accept_ / sizeof accept_[0])); \
    char msg_[MPI_MAX_ERROR_STRING];                                        \
    int len_ = -1;                                                          \
    CHECK_MPI(MPI_Error_string(code_, msg_, &len_));                        \
    CHECK(len_ > 0);                                                        \
  } while (0)

static inline int io_count(const MPI_Status *st, MPI_Datatype type) {
  int n = -1;
  CHECK_MPI(MPI_Get_count(st, type, &n));
  return n;
}

/* Makes writes by other ranks visible to reads on this rank, in nonatomic
 * mode: MPI-3.1 13.6.1 "sync-barrier-sync" on the same file handle. */
static inline void io_sync_barrier(MPI_File fh, MPI_Comm comm) {
  CHECK_MPI(MPI_File_sync(fh));
  CHECK_MPI(MPI_Barrier(comm));
  CHECK_MPI(MPI_File_sync(fh));
}
#endif
