/* File views (MPI-3.1 13.3) and individual file pointers (13.4.3): ranks
 * interleave blocks through a displacement, an etype and a strided filetype
 * (vector resized to tile, subarray), checked byte for byte through the
 * default view; a non-contiguous memory type with a non-contiguous filetype;
 * get_view; get_position, seek (SET/CUR/END, in etypes relative to the view),
 * get_byte_offset; MPI_File_get_type_extent (13.5.1). */
#include "io_common.h"

#define HDR 16 /* bytes before the first view's data */
#define B 3    /* ints per block */
#define K 4    /* blocks per rank */
#define ROWS 4 /* rows of the subarray phase; each rank owns 2 columns */

static int va(int r, int j) { return 10000 + r * 100 + j; }
static int vb(int row, int col) { return 20000 + row * 100 + col; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("view", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));

  /* 13.3: the default view is a linear byte stream: displacement 0, etype
   * and filetype MPI_BYTE, "native". Predefined types come back as
   * themselves (only derived ones are for the user to free). */
  MPI_Offset gdisp = -1;
  MPI_Datatype getype = MPI_DATATYPE_NULL, gftype = MPI_DATATYPE_NULL;
  char rep[MPI_MAX_DATAREP_STRING + 1];
  CHECK_MPI(MPI_File_get_view(fh, &gdisp, &getype, &gftype, rep));
  CHECK(gdisp == 0 && getype == MPI_BYTE && gftype == MPI_BYTE && strcmp(rep, "native") == 0);

  /* A header in the default view, which the later views skip through their
   * displacement. */
  char hdr[HDR];
  memset(hdr, 'H', HDR);
  if (rank == 0) CHECK_MPI(MPI_File_write_at(fh, 0, hdr, HDR, MPI_BYTE, &st));

  /* Phase A: rank r sees blocks of B ints at r, r + size, r + 2 size, ...
   * (in blocks) after the header: a vector resized so that it tiles. */
  const MPI_Offset tile = (MPI_Offset)K * size * B * sizeof(int);
  MPI_Datatype vec, ftype;
  CHECK_MPI(MPI_Type_vector(K, B, size * B, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_create_resized(vec, 0, tile, &ftype));
  CHECK_MPI(MPI_Type_commit(&ftype));
  const MPI_Offset disp = HDR + (MPI_Offset)rank * B * sizeof(int);
  CHECK_MPI(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL));

  /* set_view resets the individual file pointer to 0 (13.3). */
  MPI_Offset pos = -1, off = -1;
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 0);

  /* Half with MPI_File_write, half with the collective MPI_File_write_all;
   * the pointer advances in etypes (13.4.3). */
  int a[K * B], in[K * B];
  for (int j = 0; j < K * B; ++j) a[j] = va(rank, j);
  CHECK_MPI(MPI_File_write(fh, a, K / 2 * B, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == K / 2 * B);
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == K / 2 * B);
  CHECK_MPI(MPI_File_write_all(fh, a + K / 2 * B, K / 2 * B, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == K / 2 * B);
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == K * B);

  /* get_byte_offset maps a view offset (etypes) to an absolute byte. */
  CHECK_MPI(MPI_File_get_byte_offset(fh, 0, &off));
  CHECK(off == disp);
  CHECK_MPI(MPI_File_get_byte_offset(fh, 1, &off));
  CHECK(off == disp + (MPI_Offset)sizeof(int));
  CHECK_MPI(MPI_File_get_byte_offset(fh, B + 1, &off));
  CHECK(off == disp + (MPI_Offset)(size * B * sizeof(int) + sizeof(int)));
  CHECK_MPI(MPI_File_get_byte_offset(fh, K * B, &off)); /* the next tile */
  CHECK(off == disp + tile);

  /* seek: SET and CUR in etypes of the view; reads of one's own data. */
  CHECK_MPI(MPI_File_seek(fh, B + 1, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read(fh, in, 1, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 1 && in[0] == va(rank, B + 1));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == B + 2);
  CHECK_MPI(MPI_File_seek(fh, -2, MPI_SEEK_CUR));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == B);
  CHECK_MPI(MPI_File_read(fh, in, 1, MPI_INT, &st));
  CHECK(in[0] == va(rank, B));
  CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_all(fh, in, K * B, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == K * B);
  for (int j = 0; j < K * B; ++j) CHECK(in[j] == va(rank, j));

  /* get_view: the displacement, a predefined etype as itself, a derived
   * filetype as a new committed type with the same type map, which the
   * user frees; the data representation. */
  CHECK_MPI(MPI_File_get_view(fh, &gdisp, &getype, &gftype, rep));
  CHECK(gdisp == disp);
  CHECK(getype == MPI_INT);
  CHECK(strcmp(rep, "native") == 0);
  int ni, na, nd, combiner, tsize;
  MPI_Aint lb, extent;
  CHECK_MPI(MPI_Type_get_envelope(gftype, &ni, &na, &nd, &combiner));
  CHECK(combiner != MPI_COMBINER_NAMED);
  CHECK_MPI(MPI_Type_size(gftype, &tsize));
  CHECK(tsize == K * B * (int)sizeof(int));
  CHECK_MPI(MPI_Type_get_extent(gftype, &lb, &extent));
  CHECK(lb == 0 && extent == tile);
  CHECK_MPI(MPI_Type_free(&gftype));
  CHECK(gftype == MPI_DATATYPE_NULL);

  /* 13.5.1: with "native" the extent in the file is the extent in memory. */
  MPI_Aint fext = -1;
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &fext));
  CHECK(fext == (MPI_Aint)sizeof(int));
  CHECK_MPI(MPI_File_get_type_extent(fh, ftype, &fext));
  CHECK(fext == tile);

  /* Phase B: a ROWS x 2*size global int array after phase A; rank r owns
   * columns 2r and 2r+1 (a subarray filetype). In memory each row has a
   * third, padding int that the vector memory type skips. */
  const MPI_Offset dispb = HDR + tile;
  MPI_Datatype sub, mtype;
  int gsizes[2] = {ROWS, 2 * size}, lsizes[2] = {ROWS, 2}, starts[2] = {0, 2 * rank};
  CHECK_MPI(MPI_Type_create_subarray(2, gsizes, lsizes, starts, MPI_ORDER_C, MPI_INT, &sub));
  CHECK_MPI(MPI_Type_commit(&sub));
  CHECK_MPI(MPI_Type_vector(ROWS, 2, 3, MPI_INT, &mtype));
  CHECK_MPI(MPI_Type_commit(&mtype));
  CHECK_MPI(MPI_File_set_view(fh, dispb, MPI_INT, sub, "native", MPI_INFO_NULL));
  int mem[ROWS][3], back[ROWS][3];
  for (int i = 0; i < ROWS; ++i) {
    mem[i][0] = vb(i, 2 * rank);
    mem[i][1] = vb(i, 2 * rank + 1);
    mem[i][2] = -1; /* not part of mtype: must not reach the file */
  }
  CHECK_MPI(MPI_File_write_all(fh, mem, 1, mtype, &st));
  CHECK(io_count(&st, mtype) == 1);
  int elems = -1;
  CHECK_MPI(MPI_Get_elements(&st, mtype, &elems));
  CHECK(elems == 2 * ROWS);
  CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_SET));
  memset(back, 0x5a, sizeof back);
  CHECK_MPI(MPI_File_read_all(fh, back, 1, mtype, &st));
  CHECK(io_count(&st, mtype) == 1);
  for (int i = 0; i < ROWS; ++i) {
    CHECK(back[i][0] == mem[i][0] && back[i][1] == mem[i][1]);
    CHECK(back[i][2] == 0x5a5a5a5a); /* the gap in memory is left alone */
  }

  /* Check the whole file byte for byte through the default view on rank 0,
   * after sync-barrier-sync (13.6.1). */
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  const MPI_Offset total = HDR + tile + (MPI_Offset)ROWS * 2 * size * sizeof(int);
  MPI_Offset fsize = -1;
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == total);
  if (rank == 0) {
    unsigned char *want = malloc(total), *got = malloc(total + 16);
    CHECK(want != NULL && got != NULL);
    memcpy(want, hdr, HDR);
    int *w = (int *)(want + HDR);
    for (int j = 0; j < K; ++j)
      for (int r = 0; r < size; ++r)
        for (int b = 0; b < B; ++b) *w++ = va(r, j * B + b);
    for (int i = 0; i < ROWS; ++i)
      for (int c = 0; c < 2 * size; ++c) *w++ = vb(i, c);
    CHECK_MPI(MPI_File_read_at(fh, 0, got, (int)total + 16, MPI_BYTE, &st));
    CHECK(io_count(&st, MPI_BYTE) == (int)total);
    CHECK(memcmp(want, got, total) == 0);
    free(want);
    free(got);
  }

  /* Phase C: a contiguous view of ints after the header. SEEK_END puts the
   * pointer at the end of file plus offset, in etypes of the view. */
  CHECK_MPI(MPI_File_set_view(fh, HDR, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  const MPI_Offset nints = (total - HDR) / (MPI_Offset)sizeof(int);
  CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == nints);
  CHECK_MPI(MPI_File_seek(fh, -1, MPI_SEEK_END));
  CHECK_MPI(MPI_File_read(fh, in, 2, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 1 && in[0] == vb(ROWS - 1, 2 * size - 1));
  CHECK_MPI(MPI_File_seek(fh, -nints, MPI_SEEK_END));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 0);
  CHECK_MPI(MPI_File_read(fh, in, 1, MPI_INT, &st));
  CHECK(in[0] == va(0, 0));
  CHECK_MPI(MPI_File_get_byte_offset(fh, 5, &off));
  CHECK(off == HDR + 5 * (MPI_Offset)sizeof(int));

  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Type_free(&vec));
  CHECK_MPI(MPI_Type_free(&ftype));
  CHECK_MPI(MPI_Type_free(&sub));
  CHECK_MPI(MPI_Type_free(&mtype));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
