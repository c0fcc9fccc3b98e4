/* Nonblocking data access (MPI-3.1 13.4.2-13.4.4): iwrite_at/iread_at,
 * iwrite/iread (the individual pointer moves when the call is started),
 * iwrite_shared/iread_shared, and the MPI-3.1 nonblocking collectives
 * iwrite_at_all, iread_at_all, iwrite_all, iread_all (two outstanding at
 * once, some ranks with count 0), completed with MPI_Wait, MPI_Waitall and
 * MPI_Test; the status of the completion counts what was accessed. No
 * nonblocking read here reaches past the end of file (NOTES.md). */
#include "io_common.h"

#define N 8 /* ints per block */
#define R 4 /* ints per shared-pointer record */

static int cnt(int r) { return r % 3 == 1 ? 0 : N; }
static int v(int region, int r, int i) { return region * 100000 + r * 100 + i; }

static void wait_by_test(MPI_Request *req, MPI_Status *st) {
  int done = 0;
  while (!done) CHECK_MPI(MPI_Test(req, &done, st));
  CHECK(*req == MPI_REQUEST_NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX], path[IO_PATH_MAX];
  io_base_name("nb", base);
  io_name(path, base, ".data");
  MPI_File fh;
  MPI_Status st, sts[2];
  MPI_Request req, reqs[2];
  MPI_Offset pos = -1;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
  const int peer = (rank + 1) % size;
  int buf[2 * N], in[2 * N];

  /* Region 0 (bytes 0 .. size*N ints): explicit offsets, in ints through a
   * view of ints. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  for (int i = 0; i < N; ++i) buf[i] = v(0, rank, i);
  CHECK_MPI(MPI_File_iwrite_at(fh, rank * N, buf, N, MPI_INT, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(req == MPI_REQUEST_NULL);
  CHECK(io_count(&st, MPI_INT) == N);
  io_sync_barrier(fh, MPI_COMM_WORLD); /* 13.6.1 */
  CHECK_MPI(MPI_File_iread_at(fh, peer * N, in, N, MPI_INT, &req));
  wait_by_test(&req, &st);
  CHECK(io_count(&st, MPI_INT) == N);
  for (int i = 0; i < N; ++i) CHECK(in[i] == v(0, peer, i));

  /* Region 1 (2N ints per rank): the individual pointer. 13.4.3: it is
   * updated when the operation is started, so two iwrites in a row fill
   * consecutive places, and get_position sees both before completion. */
  const int r1 = size * N;
  for (int i = 0; i < 2 * N; ++i) buf[i] = v(1, rank, i);
  CHECK_MPI(MPI_File_seek(fh, r1 + rank * 2 * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iwrite(fh, buf, N, MPI_INT, &reqs[0]));
  CHECK_MPI(MPI_File_iwrite(fh, buf + N, N, MPI_INT, &reqs[1]));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == r1 + rank * 2 * N + 2 * N);
  CHECK_MPI(MPI_Waitall(2, reqs, sts));
  CHECK(io_count(&sts[0], MPI_INT) == N && io_count(&sts[1], MPI_INT) == N);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_seek(fh, r1 + peer * 2 * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iread(fh, in, 2 * N, MPI_INT, &req));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == r1 + peer * 2 * N + 2 * N);
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(io_count(&st, MPI_INT) == 2 * N);
  for (int i = 0; i < 2 * N; ++i) CHECK(in[i] == v(1, peer, i));

  /* Region 2: the shared pointer; set_view resets it to 0 (13.3). Every
   * record lands exactly once; iread_shared hands each rank another one. */
  const int r2 = r1 + size * 2 * N;
  CHECK_MPI(MPI_File_set_view(fh, r2 * sizeof(int), MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  int rec[R] = {0x5EC0, rank, 3 * rank + 1, ~rank};
  CHECK_MPI(MPI_File_iwrite_shared(fh, rec, R, MPI_INT, &req));
  CHECK_MPI(MPI_Wait(&req, &st));
  CHECK(io_count(&st, MPI_INT) == R);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
  CHECK(pos == size * R);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* all looked before it moves */
  CHECK_MPI(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iread_shared(fh, in, R, MPI_INT, &req));
  wait_by_test(&req, &st);
  CHECK(io_count(&st, MPI_INT) == R);
  int o = in[1];
  CHECK(in[0] == 0x5EC0 && o >= 0 && o < size && in[2] == 3 * o + 1 && in[3] == ~o);
  int *got = malloc(size * sizeof(int)), *seen = calloc(size, sizeof(int));
  CHECK(got != NULL && seen != NULL);
  CHECK_MPI(MPI_Allgather(&o, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD));
  for (int k = 0; k < size; ++k) {
    CHECK(seen[got[k]] == 0);
    seen[got[k]] = 1;
  }
  free(got);
  free(seen);

  /* Regions 3 and 4: nonblocking collectives, two outstanding at once on
   * the same handle (like other nonblocking collectives they match in the
   * order they were started). Region 3 by explicit offset, region 4 by the
   * individual pointer; ranks 1, 4, 7 pass count 0. */
  const int r3 = r2 + size * R, r4 = r3 + size * N;
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  for (int i = 0; i < N; ++i) {
    buf[i] = v(3, rank, i);
    buf[N + i] = v(4, rank, i);
  }
  CHECK_MPI(MPI_File_seek(fh, r4 + rank * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iwrite_at_all(fh, r3 + rank * N, buf, cnt(rank), MPI_INT, &reqs[0]));
  CHECK_MPI(MPI_File_iwrite_all(fh, buf + N, cnt(rank), MPI_INT, &reqs[1]));
  CHECK_MPI(MPI_File_get_position(fh, &pos));
  CHECK(pos == r4 + rank * N + cnt(rank));
  CHECK_MPI(MPI_Waitall(2, reqs, sts));
  CHECK(io_count(&sts[0], MPI_INT) == cnt(rank) && io_count(&sts[1], MPI_INT) == cnt(rank));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  memset(in, 0, sizeof in);
  CHECK_MPI(MPI_File_seek(fh, r4 + peer * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_iread_at_all(fh, r3 + peer * N, in, cnt(peer), MPI_INT, &reqs[0]));
  CHECK_MPI(MPI_File_iread_all(fh, in + N, cnt(peer), MPI_INT, &reqs[1]));
  CHECK_MPI(MPI_Waitall(2, reqs, sts));
  CHECK(io_count(&sts[0], MPI_INT) == cnt(peer) && io_count(&sts[1], MPI_INT) == cnt(peer));
  for (int i = 0; i < cnt(peer); ++i) CHECK(in[i] == v(3, peer, i) && in[N + i] == v(4, peer, i));
  /* One at a time, completed by MPI_Test. */
  CHECK_MPI(MPI_File_iread_at_all(fh, r3 + rank * N, in, cnt(rank), MPI_INT, &req));
  wait_by_test(&req, &st);
  CHECK(io_count(&st, MPI_INT) == cnt(rank));
  for (int i = 0; i < cnt(rank); ++i) CHECK(in[i] == v(3, rank, i));

  CHECK_MPI(MPI_File_close(&fh));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) CHECK_MPI(MPI_File_delete(path, MPI_INFO_NULL));
  MPI_Finalize();
  return 0;
}
