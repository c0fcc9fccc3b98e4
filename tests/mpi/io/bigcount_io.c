/* The large-count (_c) MPI-IO calls of MPI-4.1 with counts that fit an int:
 * the 28 read and write forms (explicit offset, individual and shared file
 * pointers, ordered, nonblocking, split collective) move what the int forms
 * move, and their statuses count it; MPI_File_get_type_extent_c and
 * MPI_Register_datarep_c answer as their int forms (io_datarep.c runs
 * registered representations). */
#include <stdlib.h>
#include <string.h>

#include "io_common.h"

enum { N = 16 };

static void fill(int* b, int seed) {
  for (int i = 0; i < N; ++i) b[i] = seed * 100 + i;
}
static void expect(const int* b, int seed) {
  for (int i = 0; i < N; ++i) CHECK(b[i] == seed * 100 + i);
}
static void count_is(MPI_Status* st, MPI_Count n) {
  MPI_Count c = -1;
  CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &c));
  CHECK(c == n);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("bigcount", base);
  io_name(path, base, ".data");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  const MPI_Offset blk = (MPI_Offset)(N * sizeof(int));
  /* Each form writes this rank's block number k (in a region of its own)
   * and reads it back. */
  int out[N], in[N];
  MPI_Status st;
  MPI_Request r;
  MPI_Offset region = 0;  /* bytes; each form gets size blocks */
#define AT(k) (region + (MPI_Offset)(k) * blk)
#define NEXT() (region += (MPI_Offset)size * blk)
  /* explicit offsets */
  fill(out, rank + 1);
  CHECK_MPI(MPI_File_write_at_c(fh, AT(rank), out, N, MPI_INT, &st));
  count_is(&st, N);
  CHECK_MPI(MPI_File_read_at_c(fh, AT(rank), in, N, MPI_INT, &st));
  count_is(&st, N);
  expect(in, rank + 1);
  NEXT();
  fill(out, rank + 2);
  CHECK_MPI(MPI_File_write_at_all_c(fh, AT(rank), out, N, MPI_INT, &st));
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_File_read_at_all_c(fh, AT(rank), in, N, MPI_INT, &st));
  expect(in, rank + 2);
  NEXT();
  fill(out, rank + 3);
  CHECK_MPI(MPI_File_iwrite_at_c(fh, AT(rank), out, N, MPI_INT, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  count_is(&st, N);
  CHECK_MPI(MPI_File_iread_at_c(fh, AT(rank), in, N, MPI_INT, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  expect(in, rank + 3);
  NEXT();
  fill(out, rank + 4);
  CHECK_MPI(MPI_File_iwrite_at_all_c(fh, AT(rank), out, N, MPI_INT, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_File_iread_at_all_c(fh, AT(rank), in, N, MPI_INT, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  expect(in, rank + 4);
  NEXT();
  fill(out, rank + 5);
  CHECK_MPI(MPI_File_write_at_all_begin_c(fh, AT(rank), out, N, MPI_INT));
  CHECK_MPI(MPI_File_write_at_all_end(fh, out, &st));
  count_is(&st, N);
  CHECK_MPI(MPI_File_read_at_all_begin_c(fh, AT(rank), in, N, MPI_INT));
  CHECK_MPI(MPI_File_read_at_all_end(fh, in, &st));
  expect(in, rank + 5);
  NEXT();
  /* individual file pointers (seek to the block, in etypes = bytes) */
  const int forms = 5;
  for (int f = 0; f < forms; ++f) {
    const int seed = rank + 10 + f;
    fill(out, seed);
    CHECK_MPI(MPI_File_seek(fh, AT(rank), MPI_SEEK_SET));
    if (f == 0) CHECK_MPI(MPI_File_write_c(fh, out, N, MPI_INT, &st));
    if (f == 1) CHECK_MPI(MPI_File_write_all_c(fh, out, N, MPI_INT, &st));
    if (f == 2) {
      CHECK_MPI(MPI_File_iwrite_c(fh, out, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    if (f == 3) {
      CHECK_MPI(MPI_File_iwrite_all_c(fh, out, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    if (f == 4) {
      CHECK_MPI(MPI_File_write_all_begin_c(fh, out, N, MPI_INT));
      CHECK_MPI(MPI_File_write_all_end(fh, out, &st));
    }
    count_is(&st, N);
    MPI_Offset pos = -1;
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == AT(rank) + blk);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_seek(fh, AT(rank), MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    if (f == 0) CHECK_MPI(MPI_File_read_c(fh, in, N, MPI_INT, &st));
    if (f == 1) CHECK_MPI(MPI_File_read_all_c(fh, in, N, MPI_INT, &st));
    if (f == 2) {
      CHECK_MPI(MPI_File_iread_c(fh, in, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    if (f == 3) {
      CHECK_MPI(MPI_File_iread_all_c(fh, in, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    if (f == 4) {
      CHECK_MPI(MPI_File_read_all_begin_c(fh, in, N, MPI_INT));
      CHECK_MPI(MPI_File_read_all_end(fh, in, &st));
    }
    count_is(&st, N);
    expect(in, seed);
    NEXT();
  }
  /* shared file pointer: ordered forms put rank k's block at k */
  CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
  fill(out, rank + 20);
  CHECK_MPI(MPI_File_write_ordered_c(fh, out, N, MPI_INT, &st));
  count_is(&st, N);
  CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_ordered_c(fh, in, N, MPI_INT, &st));
  expect(in, rank + 20);
  NEXT();
  CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
  fill(out, rank + 21);
  CHECK_MPI(MPI_File_write_ordered_begin_c(fh, out, N, MPI_INT));
  CHECK_MPI(MPI_File_write_ordered_end(fh, out, &st));
  CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_ordered_begin_c(fh, in, N, MPI_INT));
  CHECK_MPI(MPI_File_read_ordered_end(fh, in, &st));
  expect(in, rank + 21);
  NEXT();
  /* unordered shared-pointer forms: every rank writes a block somewhere in
   * the region; afterwards each block read back is some rank's block. */
  for (int f = 0; f < 2; ++f) {
    CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
    fill(out, 30 + f);
    if (f == 0) CHECK_MPI(MPI_File_write_shared_c(fh, out, N, MPI_INT, &st));
    if (f == 1) {
      CHECK_MPI(MPI_File_iwrite_shared_c(fh, out, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    count_is(&st, N);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_seek_shared(fh, region, MPI_SEEK_SET));
    memset(in, 0, sizeof in);
    if (f == 0) CHECK_MPI(MPI_File_read_shared_c(fh, in, N, MPI_INT, &st));
    if (f == 1) {
      CHECK_MPI(MPI_File_iread_shared_c(fh, in, N, MPI_INT, &r));
      CHECK_MPI(MPI_Wait(&r, &st));
    }
    count_is(&st, N);
    expect(in, 30 + f);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    NEXT();
  }
  /* get_type_extent_c and the int form */
  {
    MPI_Count e = 0;
    MPI_Aint ei = 0;
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(3, 1, 4, MPI_INT, &v));
    CHECK_MPI(MPI_File_get_type_extent_c(fh, v, &e));
    CHECK_MPI(MPI_File_get_type_extent(fh, v, &ei));
    CHECK(e == ei && e == 9 * (MPI_Count)sizeof(int));
    MPI_Type_free(&v);
  }
  CHECK_MPI(MPI_File_close(&fh));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  /* MPI_Register_datarep_c: a predefined name is MPI_ERR_DUP_DATAREP, a
   * representation needs an extent function. */
  MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
  CHECK_ERR_CLASS(MPI_Register_datarep_c("native", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C, NULL, NULL),
                  MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep_c("mine", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C, NULL, NULL),
                  MPI_ERR_ARG);
  MPI_Finalize();
  return 0;
}
