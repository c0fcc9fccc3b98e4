/* Atomic mode (MPI-3.1 13.6.1): set_atomicity/get_atomicity, and in atomic
 * mode overlapping writes by all ranks to the same region, then a barrier:
 * accesses are sequentially consistent, as if in some serial order, so the
 * region holds exactly one rank's whole record (never a mix), and every rank
 * reads the same one without MPI_File_sync. Contiguous records at several
 * unaligned offsets; a strided record: io_atomic_strided. */
#include "io_common.h"

#define REC 4096 /* ints per record: 16 KiB, several pages */
#define ROUNDS 3

static int tag(int r, int i) { return ((r + 1) << 20) | i; }

/* The rank whose record buf is, or -1 for a mix or garbage. */
static int whose(const int *buf, int n, int size) {
  int r = (buf[0] >> 20) - 1;
  if (r < 0 || r >= size) return -1;
  for (int i = 0; i < n; ++i)
    if (buf[i] != tag(r, i)) return -1;
  return r;
}

/* All ranks found the same whole record. */
static void same_everywhere(int r) {
  int lo = 0, hi = 0;
  CHECK(r >= 0);
  CHECK_MPI(MPI_Allreduce(&r, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(&r, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  CHECK(lo == hi);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("atomic", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));

  /* Nonatomic is the default ("the default MPI semantics for conflicting
   * accesses do not guarantee sequential consistency", 13.6.1 Case 2). */
  int flag = -1;
  CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_File_set_atomicity(fh, 1)); /* collective, same flag */
  CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag != 0);

  int *mine = malloc(REC * sizeof(int)), *in = malloc(REC * sizeof(int));
  CHECK(mine != NULL && in != NULL);
  for (int i = 0; i < REC; ++i) mine[i] = tag(rank, i);

  /* Whole records, at offsets that are not multiples of the page size. */
  for (int k = 0; k < ROUNDS; ++k) {
    const MPI_Offset off = (MPI_Offset)k * (REC + 7) * sizeof(int) + 12 * k;
    CHECK_MPI(MPI_File_write_at(fh, off, mine, REC, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == REC);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_File_read_at(fh, off, in, REC, MPI_INT, &st));
    CHECK(io_count(&st, MPI_INT) == REC);
    same_everywhere(whose(in, REC, size));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* reads done before the next writes */
  }

  /* Back to nonatomic mode. */
  CHECK_MPI(MPI_File_set_atomicity(fh, 0));
  CHECK_MPI(MPI_File_get_atomicity(fh, &flag));
  CHECK(flag == 0);

  free(mine);
  free(in);
  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
