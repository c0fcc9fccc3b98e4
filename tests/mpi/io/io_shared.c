/* The shared file pointer (MPI-3.1 13.4.4): write_shared from every rank
 * (each record lands exactly once, whole, in some order), seek_shared /
 * get_position_shared, read_shared; write_ordered / read_ordered in rank
 * order, and the split collectives read_ordered_begin/end and
 * write_ordered_begin/end. The shared pointer counts etypes of the view and
 * is independent of the individual file pointers. */
#include "io_common.h"

#define R 4 /* ints per record */
#define MAGIC 0x5EC0

static void record(int r, int *rec) {
  rec[0] = MAGIC;
  rec[1] = r;
  rec[2] = 7 * r + 1;
  rec[3] = ~r;
}

/* The rank whose whole record rec is, or -1. */
static int owner(const int *rec, int size) {
  int want[R];
  if (rec[0] != MAGIC || rec[1] < 0 || rec[1] >= size) return -1;
  record(rec[1], want);
  return memcmp(rec, want, sizeof want) == 0 ? rec[1] : -1;
}

static int ov(int r, int i) { return 1000 * r + i; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("shared", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st;
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* everyone looked before anyone writes */
  const MPI_Offset rbytes = R * sizeof(int);

  /* 13.4.4, noncollective operations: shared-pointer accesses are
   * serialized in some order; each moves the pointer past its own data. */
  int rec[R], in[R];
  record(rank, rec);
  CHECK_MPI(MPI_File_write_shared(fh, rec, R, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == R);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == size * rbytes); /* default view: etype MPI_BYTE */
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 0); /* the individual pointer did not move */
  if (rank == 0) {
    int *all = malloc(size * rbytes), *seen = calloc(size, sizeof(int));
    CHECK(all != NULL && seen != NULL);
    CHECK_MPI(MPI_File_read_at(fh, 0, all, size * R, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == size * R);
    for (int k = 0; k < size; ++k) {
      int o = owner(all + k * R, size);
      CHECK(o >= 0 && seen[o] == 0);
      seen[o] = 1;
    }
    free(all);
    free(seen);
  }
  /* A collective need not synchronize: without this barrier a fast rank's
   * seek_shared below could move the pointer before a slow rank looked. The
   * same holds before every later change of the shared pointer. */
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* 13.4.4, seek: seek_shared is collective (same arguments everywhere).
   * Every rank then reads one record through the shared pointer: each gets
   * a different whole record. */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_File_read_shared(fh, in, R, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == R);
  int got = owner(in, size);
  CHECK(got >= 0);
  int *gots = malloc(size * sizeof(int)), *seen = calloc(size, sizeof(int));
  CHECK(gots != NULL && seen != NULL);
  CHECK_MPI(MPI_Allgather(&got, 1, MPI_INT, gots, 1, MPI_INT, MPI_COMM_WORLD));
  for (int k = 0; k < size; ++k) {
    CHECK(seen[gots[k]] == 0);
    seen[gots[k]] = 1;
  }
  free(gots);
  free(seen);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == size * rbytes);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  /* The shared pointer at the end of file: reading there returns nothing.
   * (Where the pointer goes then is not checked: see NOTES.md.) */
  CHECK_MPI(MPI_File_read_shared(fh, in, R, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* 13.3: set_view resets the shared pointer to 0; from now on it counts
   * ints after the records. */
  CHECK_MPI(MPI_File_set_view(fh, size * rbytes, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == 0);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* 13.4.4, collective operations: write_ordered puts the data in rank
   * order (rank r writes r+1 ints); on return the pointer is past everything
   * all ranks wrote. */
  const int total = size * (size + 1) / 2;
  int *mine = malloc((size + 1) * sizeof(int)), *back = malloc((size + 1) * sizeof(int));
  CHECK(mine != NULL && back != NULL);
  for (int i = 0; i <= rank; ++i) mine[i] = ov(rank, i);
  CHECK_MPI(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == rank + 1);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == total);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  if (rank == 0) {
    int *all = malloc(total * sizeof(int));
    CHECK(all != NULL);
    CHECK_MPI(MPI_File_read_at(fh, 0, all, total, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == total);
    int k = 0;
    for (int r = 0; r < size; ++r)
      for (int i = 0; i <= r; ++i) CHECK(all[k++] == ov(r, i));
    free(all);
  }

  /* read_ordered gives every rank back exactly what it wrote. */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, &st));
  CHECK(io_count(&st, MPI_INT) == rank + 1);
  for (int i = 0; i <= rank; ++i) CHECK(back[i] == ov(rank, i));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == total);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  /* The split form (13.4.5); the status comes from _end. */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  memset(back, 0, (size + 1) * sizeof(int));
  CHECK_MPI(MPI_File_read_ordered_begin(fh, back, rank + 1, MPI_INT));
  CHECK_MPI(MPI_File_read_ordered_end(fh, back, &st));
  CHECK(io_count(&st, MPI_INT) == rank + 1);
  for (int i = 0; i <= rank; ++i) CHECK(back[i] == ov(rank, i));

  /* write_ordered_begin/end appends one int per rank, in rank order. */
  int one = 5000 + rank;
  CHECK_MPI(MPI_File_seek_shared(fh, total, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_write_ordered_begin(fh, &one, 1, MPI_INT));
  CHECK_MPI(MPI_File_write_ordered_end(fh, &one, &st));
  CHECK(io_count(&st, MPI_INT) == 1);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == total + size);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  int tail = -1;
  CHECK_MPI(MPI_File_read_at(fh, total + (size - 1 - rank), &tail, 1, MPI_INT, &st));
  CHECK(tail == 5000 + size - 1 - rank);

  /* seek_shared with SEEK_CUR, in etypes of the view (SEEK_END with a
   * displaced view: io_shared_seek). */
  CHECK_MPI(MPI_File_seek_shared(fh, -size, MPI_SEEK_CUR));
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == total);
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == 0);

  free(mine);
  free(back);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
