/* File views at their corners (MPI-3.1 13.3, 13.5.2):
 * - MPI_DISPLACEMENT_CURRENT (MPI_MODE_SEQUENTIAL files): every rank's new
 *   displacement is the shared file pointer's byte position, the same on
 *   all ranks, view after view;
 * - a filetype without data on one rank (HDF5 makes them for empty
 *   selections): set_view succeeds everywhere, the others' data lands, that
 *   rank reads nothing and cannot write;
 * - "external32": the file holds big-endian data, read back unchanged;
 *   memory types of another external32 size (MPI_LONG) convert; a view
 *   whose etype and filetype are MPI_LONG is laid out in external32 sizes;
 *   MPI_File_get_type_extent answers in the view's representation;
 * - etypes and filetypes against 13.1.1 (displacements non-negative and
 *   nondecreasing, no overlap in a file open for writing): MPI_ERR_IO, the
 *   class MPICH gives (the standard names none); overlap is fine read-only. */
#include <stdint.h>

#include "io_common.h"

static void displacement_current(const char* base, int rank, int size) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".cur");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL |
                          MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  for (int round = 1; round <= 20; ++round) {
    int v[4] = {rank, round, 0, 0};
    CHECK_MPI(MPI_File_write_ordered(fh, v, 4, MPI_INT, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MPI_Offset disp;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, rep));
    /* Every round writes 4 ints per rank; the views before count ints from the previous displacement. */
    CHECK(disp == (MPI_Offset)round * size * 4 * (MPI_Offset)sizeof(int));
    MPI_Offset all_min, all_max;
    CHECK_MPI(MPI_Allreduce(&disp, &all_min, 1, MPI_OFFSET, MPI_MIN, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(&disp, &all_max, 1, MPI_OFFSET, MPI_MAX, MPI_COMM_WORLD));
    CHECK(all_min == all_max);
  }
  CHECK_MPI(MPI_File_close(&fh));
}

static void empty_filetype(const char* base, int rank, int size) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".empty");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  /* Rank r holds int r of each tile of `size` ints, except the last rank (when there are two or more), whose filetype has no data. */
  const int empty = size > 1 && rank == size - 1;
  int one = 1, disp = rank;
  MPI_Datatype t0, ft;
  CHECK_MPI(MPI_Type_create_indexed_block(empty ? 0 : 1, one, &disp, MPI_INT, &t0));
  CHECK_MPI(MPI_Type_create_resized(t0, 0, (MPI_Aint)(size * sizeof(int)), &ft));
  CHECK_MPI(MPI_Type_commit(&ft));
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL));
  int v[2] = {100 + rank, 200 + rank};
  MPI_Status st;
  CHECK_MPI(MPI_File_write_all(fh, v, empty ? 0 : 2, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == (empty ? 0 : 2));
  if (empty) {
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    CHECK(MPI_File_write_at(fh, 0, v, 1, MPI_INT, &st) != MPI_SUCCESS); /* no place to put it */
    int got = -7;
    CHECK_MPI(MPI_File_read_at(fh, 0, &got, 1, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == 0 && got == -7); /* nothing to read */
  }
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  if (rank == 0) {
    int all[64];
    CHECK(2 * size <= 64);
    CHECK_MPI(MPI_File_read_at(fh, 0, all, 2 * size, MPI_INT, &st));
    const int writers = size > 1 ? size - 1 : 1;
    for (int r = 0; r < writers; ++r) {
      CHECK(all[r] == 100 + r);
      CHECK(all[size + r] == 200 + r);
    }
  }
  CHECK_MPI(MPI_Type_free(&t0));
  CHECK_MPI(MPI_Type_free(&ft));
  CHECK_MPI(MPI_File_close(&fh));
}

static void external32(const char* base, int rank) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".ext32");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
  MPI_Aint ext;
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
  CHECK(ext == 4); /* the standard's table: MPI_LONG is 4 bytes in external32 */
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
  CHECK(ext == 8);
  /* Rank r: 2 ints at position 4r, 2 longs (4 bytes each in the file) at 4r + 2. */
  int v[2] = {0x01020304 + rank, -2};
  long l[2] = {70000 + rank, -9};
  MPI_Status st;
  CHECK_MPI(MPI_File_write_at_all(fh, 4 * rank, v, 2, MPI_INT, &st));
  CHECK_MPI(MPI_File_write_at_all(fh, 4 * rank + 2, l, 2, MPI_LONG, &st));
  CHECK(io_count(&st, MPI_LONG) == 2);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  int vb[2] = {0, 0};
  long lb[2] = {0, 0};
  CHECK_MPI(MPI_File_read_at(fh, 4 * rank, vb, 2, MPI_INT, &st));
  CHECK(vb[0] == v[0] && vb[1] == v[1]);
  CHECK_MPI(MPI_File_read_at(fh, 4 * rank + 2, lb, 2, MPI_LONG, &st));
  CHECK(io_count(&st, MPI_LONG) == 2 && lb[0] == l[0] && lb[1] == l[1]);
  /* The bytes in the file are big-endian whatever this machine is. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  unsigned char raw[16];
  CHECK_MPI(MPI_File_read_at(fh, 16 * rank, raw, 16, MPI_BYTE, &st));
  const unsigned char want[16] = {0x01, 0x02, 0x03, (unsigned char)(0x04 + rank), 0xff, 0xff, 0xff, 0xfe,
                                  0x00, 0x01, (unsigned char)((70000 + rank) >> 8 & 0xff),
                                  (unsigned char)((70000 + rank) & 0xff), 0xff, 0xff, 0xff, 0xf7};
  CHECK(memcmp(raw, want, 16) == 0);
  /* A view of MPI_LONG, 4 bytes in external32 (8 here): the filetype is laid
   * out in external32 sizes (MPI-4.1 14.5.1), a vector of stride `size`
   * longs is 4-byte longs every 4 * size bytes, from each rank's 4 * rank. */
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype vl;
  CHECK_MPI(MPI_Type_vector(1, 1, size, MPI_LONG, &vl));
  MPI_Datatype tile;
  CHECK_MPI(MPI_Type_create_resized(vl, 0, 4 * size, &tile)); /* byte extent: as the file has it */
  CHECK_MPI(MPI_Type_commit(&tile));
  const MPI_Offset at = 16 * (MPI_Offset)size;
  CHECK_MPI(MPI_File_set_view(fh, at + 4 * rank, MPI_LONG, tile, "external32", MPI_INFO_NULL));
  long ls[3] = {-(long)rank - 1, 0x7fffffffL - rank, 17};
  CHECK_MPI(MPI_File_write_all(fh, ls, 3, MPI_LONG, &st));
  MPI_Offset byte;
  CHECK_MPI(MPI_File_get_byte_offset(fh, 2, &byte));
  CHECK(byte == at + 4 * rank + 8 * size);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  long lr[3] = {0, 0, 0};
  CHECK_MPI(MPI_File_read_at(fh, 0, lr, 3, MPI_LONG, &st));
  CHECK(io_count(&st, MPI_LONG) == 3 && lr[0] == ls[0] && lr[1] == ls[1] && lr[2] == ls[2]);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  unsigned char four[4];
  CHECK_MPI(MPI_File_read_at(fh, at + 4 * rank + 4 * size, four, 4, MPI_BYTE, &st));
  CHECK(four[0] == 0x7f && four[1] == 0xff && four[2] == 0xff && four[3] == (unsigned char)(0xff - rank));
  CHECK_MPI(MPI_Type_free(&vl));
  CHECK_MPI(MPI_Type_free(&tile));
  CHECK_MPI(MPI_File_close(&fh));
}

static int view_with(MPI_File fh, int d0, int b0, int d1, int b1, int as_etype) {
  int blen[2] = {b0, b1}, disp[2] = {d0, d1};
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_indexed(2, blen, disp, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  const int rc = MPI_File_set_view(fh, 0, as_etype ? t : MPI_INT, t, "native", MPI_INFO_NULL);
  CHECK_MPI(MPI_Type_free(&t));
  return rc;
}

static void bad_typemaps(const char* base) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".bad");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  for (int e = 0; e <= 1; ++e) {
    CHECK_ERR_CLASS(view_with(fh, -2, 1, 2, 1, e), MPI_ERR_IO);  /* negative displacement */
    CHECK_ERR_CLASS(view_with(fh, 3, 1, 0, 1, e), MPI_ERR_IO);   /* decreasing */
    CHECK_ERR_CLASS(view_with(fh, 0, 3, 1, 1, e), MPI_ERR_IO);   /* overlap, writable */
    CHECK_MPI(view_with(fh, 0, 1, 3, 1, e));                     /* holes are fine */
  }
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  CHECK_MPI(view_with(fh, 0, 3, 1, 1, 0));                       /* overlap, read-only: allowed */
  CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX];
  io_base_name("view_corners", base);
  displacement_current(base, rank, size);
  empty_filetype(base, rank, size);
  external32(base, rank);
  bad_typemaps(base);
  MPI_Finalize();
  return 0;
}
