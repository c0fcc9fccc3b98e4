/* User-defined data representations (MPI-4.1 14.5.3, MPI_Register_datarep):
 * - "be64": every int is 8 bytes big-endian in the file (the extent function
 *   says 8 for MPI_INT); explicit-offset, individual, collective and
 *   noncontiguous-memory writes through it read back through it, and
 *   "native" sees the converted bytes; a large access converts in several
 *   calls (`position` counts data items); a portable filetype (subarray)
 *   scales to the file's sizes; MPI_File_get_type_extent and get_view
 *   answer in the representation;
 * - "be64_c": the same with MPI_Register_datarep_c (MPI_Count counts), file
 *   bytes identical;
 * - a conversion function's error, and an extent function's, are
 *   MPI_ERR_CONVERSION, and nothing is written;
 * - the extent function runs only in accesses and get_type_extent, never in
 *   set_view; MPI_DISPLACEMENT_CURRENT counts in the old view's file sizes
 *   on a rank that never accessed it;
 * - MPI_CONVERSION_FN_NULL: native bytes at the extent function's sizes
 *   (extents equal to the native ones work; others are MPI_ERR_CONVERSION);
 * - a name registered twice, a predefined name: MPI_ERR_DUP_DATAREP (what
 *   mpi4py's test_io.TestDatarep.testRegister checks, with _c and null
 *   conversion functions); a null, empty or too long name: MPI_ERR_ARG. */
#include <stdint.h>

#include "io_common.h"

typedef struct {
  int calls;          /* conversion calls */
  int extent_calls;   /* extent function calls */
  int fail;           /* conversion functions return this when not 0 */
  int fail_extent;    /* the extent function returns this when not 0 */
  MPI_Offset max_position;
} State;

static State be64_state, be64c_state, fail_state, badext_state, lazy_state, null_state, null8_state;

static void put_be64(unsigned char* p, int v) {
  uint64_t x = (uint64_t)(int64_t)v;
  for (int i = 7; i >= 0; --i, x >>= 8) p[i] = (unsigned char)(x & 0xff);
}

static int get_be64(const unsigned char* p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x = (x << 8) | p[i];
  return (int)(int64_t)x;
}

static int extent_fn(MPI_Datatype type, MPI_Aint* file_extent, void* extra) {
  State* s = extra;
  s->extent_calls++;
  if (s->fail_extent) return s->fail_extent;
  if (type == MPI_INT) {
    *file_extent = 8;
    return MPI_SUCCESS;
  }
  MPI_Aint lb;
  return MPI_Type_get_extent(type, &lb, file_extent);
}

/* Native extents for every type: what "native" would give. */
static int native_extent_fn(MPI_Datatype type, MPI_Aint* file_extent, void* extra) {
  State* s = extra;
  s->extent_calls++;
  MPI_Aint lb;
  return MPI_Type_get_extent(type, &lb, file_extent);
}

/* The data items of the memory types here are all ints: `per` of them in
 * one element of `type`. The library converts whole elements (the
 * standard would let it cut anywhere), so position and count are
 * multiples of per; the data items of the call are packed to ints with
 * MPI_Pack from the element `position / per` of the tiled type on. */
static int convert(int write, void* userbuf, MPI_Datatype type, MPI_Count count, void* filebuf,
                   MPI_Offset position, State* s) {
  s->calls++;
  if (position > s->max_position) s->max_position = position;
  if (s->fail) return s->fail;
  int size;
  MPI_Aint lb, extent;
  CHECK_MPI(MPI_Type_size(type, &size));
  CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  const int per = size / (int)sizeof(int);
  if (per == 0 || position % per != 0 || count % per != 0) return MPI_ERR_ARG;
  int* ints = malloc((size_t)count * sizeof(int) + 1);
  CHECK(ints != NULL);
  char* user = (char*)userbuf + (position / per) * extent;
  const int elements = (int)(count / per);
  int at = 0;
  unsigned char* file = filebuf;
  if (write) {
    CHECK_MPI(MPI_Pack(user, elements, type, ints, (int)count * (int)sizeof(int), &at, MPI_COMM_SELF));
    for (MPI_Count i = 0; i < count; ++i) put_be64(file + 8 * i, ints[i]);
  } else {
    for (MPI_Count i = 0; i < count; ++i) ints[i] = get_be64(file + 8 * i);
    CHECK_MPI(MPI_Unpack(ints, (int)count * (int)sizeof(int), &at, user, elements, type, MPI_COMM_SELF));
  }
  free(ints);
  return MPI_SUCCESS;
}

static int read_fn(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position, void* extra) {
  return convert(0, userbuf, type, count, filebuf, position, extra);
}
static int write_fn(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position, void* extra) {
  return convert(1, userbuf, type, count, filebuf, position, extra);
}
static int read_fn_c(void* userbuf, MPI_Datatype type, MPI_Count count, void* filebuf, MPI_Offset position,
                     void* extra) {
  return convert(0, userbuf, type, count, filebuf, position, extra);
}
static int write_fn_c(void* userbuf, MPI_Datatype type, MPI_Count count, void* filebuf, MPI_Offset position,
                      void* extra) {
  return convert(1, userbuf, type, count, filebuf, position, extra);
}

static int value(int rank, int i) { return (i % 2 ? -1 : 1) * (rank * 100000 + i); }

static MPI_File open_file(const char* path) {
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  return fh;
}

/* Rank r's n ints at int position `pos` of a "be64" file, read raw through "native". */
static void check_raw(MPI_File fh, MPI_Offset pos, int n, int rank, int first) {
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  unsigned char* raw = malloc((size_t)n * 8);
  CHECK(raw != NULL);
  MPI_Status st;
  CHECK_MPI(MPI_File_read_at(fh, pos * 8, raw, n * 8, MPI_BYTE, &st));
  for (int i = 0; i < n; ++i) {
    CHECK(get_be64(raw + 8 * i) == value(rank, first + i));
    /* the high bytes are the sign extension */
    CHECK(raw[8 * i] == (value(rank, first + i) < 0 ? 0xff : 0x00));
  }
  free(raw);
}

enum { N = 6, BIG = 20000 };

static void round_trip(const char* base, int rank, int size, const char* rep, State* s) {
  char path[IO_PATH_MAX];
  io_name(path, base, rep);
  MPI_File fh = open_file(path);
  s->calls = 0;
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, rep, MPI_INFO_NULL));
  MPI_Offset disp;
  MPI_Datatype et, ft;
  char name[MPI_MAX_DATAREP_STRING];
  CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, name));
  CHECK(strcmp(name, rep) == 0 && disp == 0 && et == MPI_INT && ft == MPI_INT);
  MPI_Aint ext;
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_INT, &ext));
  CHECK(ext == 8);
  CHECK_MPI(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
  CHECK(ext == 8);
  MPI_Datatype vec; /* 2 ints, stride 3: 8 bytes of data, extent 4 ints here, 32 bytes in the file */
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
  CHECK_MPI(MPI_Type_commit(&vec));
  CHECK_MPI(MPI_File_get_type_extent(fh, vec, &ext));
  CHECK(ext == 32);

  int v[BIG];
  for (int i = 0; i < BIG; ++i) v[i] = value(rank, i);
  MPI_Status st;
  int count;
  /* A: explicit offset, positions [rank*N, rank*N + N) */
  CHECK_MPI(MPI_File_write_at(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st));
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == N);
  /* B: collective explicit offset, after every rank's A */
  const MPI_Offset b = (MPI_Offset)size * N;
  CHECK_MPI(MPI_File_write_at_all(fh, b + (MPI_Offset)rank * N, v + N, N, MPI_INT, &st));
  /* C: the individual pointer, collective, from a noncontiguous memory type (every third int) */
  const MPI_Offset c = 2 * (MPI_Offset)size * N;
  int strided[3 * N];
  for (int i = 0; i < 3 * N; ++i) strided[i] = -7;
  for (int i = 0; i < N; ++i) strided[(i / 2) * 4 + (i % 2) * 3] = value(rank, 2 * N + i);
  CHECK_MPI(MPI_File_seek(fh, c + (MPI_Offset)rank * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_write_all(fh, strided, N / 2, vec, &st));
  CHECK_MPI(MPI_Get_count(&st, vec, &count));
  CHECK(count == N / 2);
  MPI_Offset now;
  CHECK_MPI(MPI_File_get_position(fh, &now));
  CHECK(now == c + (MPI_Offset)rank * N + N);
  /* D: a large write, converted in several calls */
  const MPI_Offset d = 3 * (MPI_Offset)size * N + (MPI_Offset)rank * BIG;
  const int before = s->calls;
  CHECK_MPI(MPI_File_write_at(fh, d, v, BIG, MPI_INT, &st));
  CHECK(s->calls - before >= 2 && s->max_position > 0);
  io_sync_barrier(fh, MPI_COMM_WORLD);

  int r[BIG];
  memset(r, 0, sizeof r);
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == value(rank, i));
  CHECK_MPI(MPI_File_read_at_all(fh, b + (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == value(rank, N + i));
  CHECK_MPI(MPI_File_seek(fh, c + (MPI_Offset)rank * N, MPI_SEEK_SET));
  CHECK_MPI(MPI_File_read_all(fh, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == value(rank, 2 * N + i));
  /* read back into the strided type: the ints land every third place */
  int back[3 * N];
  for (int i = 0; i < 3 * N; ++i) back[i] = 5;
  CHECK_MPI(MPI_File_read_at(fh, c + (MPI_Offset)rank * N, back, N / 2, vec, &st));
  for (int i = 0; i < 3 * N; ++i) {
    const int element = i / 4, in = i % 4; /* a vec element is 4 ints here: data at 0 and 3 */
    const int want = element < N / 2 && (in == 0 || in == 3) ? value(rank, 2 * N + 2 * element + (in == 3)) : 5;
    CHECK(back[i] == want);
  }
  memset(r, 0, sizeof r);
  CHECK_MPI(MPI_File_read_at(fh, d, r, BIG, MPI_INT, &st));
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == BIG);
  for (int i = 0; i < BIG; ++i) CHECK(r[i] == value(rank, i));
  /* The other ranks' data, read through the representation too. */
  const int peer = (rank + 1) % size;
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == value(peer, i));
  /* A read past the end stops there: only whole elements count. */
  const MPI_Offset end = 3 * (MPI_Offset)size * N + (MPI_Offset)size * BIG;
  CHECK_MPI(MPI_File_read_at(fh, end - 2, r, 5, MPI_INT, &st));
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 2 && r[0] == value(size - 1, BIG - 2) && r[1] == value(size - 1, BIG - 1));

  /* "native" sees the converted bytes. */
  check_raw(fh, (MPI_Offset)rank * N, N, rank, 0);
  check_raw(fh, b + (MPI_Offset)rank * N, N, rank, N);
  check_raw(fh, c + (MPI_Offset)rank * N, N, rank, 2 * N);
  check_raw(fh, d, BIG, rank, 0);
  MPI_Offset fsize;
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == end * 8);

  /* A portable filetype scales: a 1-d subarray picks int `rank` of every
   * `size` ints, so in the file rank r's ints are 8 bytes at (j*size + r)*8. */
  MPI_Datatype sub;
  int gsize = size, one = 1, start = rank;
  CHECK_MPI(MPI_Type_create_subarray(1, &gsize, &one, &start, MPI_ORDER_C, MPI_INT, &sub));
  CHECK_MPI(MPI_Type_commit(&sub));
  const MPI_Offset e = end * 8;
  CHECK_MPI(MPI_File_set_view(fh, e, MPI_INT, sub, rep, MPI_INFO_NULL));
  CHECK_MPI(MPI_File_get_type_extent(fh, sub, &ext));
  CHECK(ext == 8 * size);
  CHECK_MPI(MPI_File_write_all(fh, v, N, MPI_INT, &st));
  MPI_Offset byte;
  CHECK_MPI(MPI_File_get_byte_offset(fh, 2, &byte));
  CHECK(byte == e + (2 * size + rank) * 8);
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_read_at(fh, 0, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == value(rank, i));
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
  for (int j = 0; j < N; ++j) {
    unsigned char raw[8];
    CHECK_MPI(MPI_File_read_at(fh, e + ((MPI_Offset)j * size + rank) * 8, raw, 8, MPI_BYTE, &st));
    CHECK(get_be64(raw) == value(rank, j));
  }
  CHECK_MPI(MPI_Type_free(&sub));
  CHECK_MPI(MPI_Type_free(&vec));
  CHECK_MPI(MPI_File_close(&fh));
}

/* The int form's file, read through the _c form's representation: the same bytes. */
static void cross_read(const char* base, int rank) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".cross");
  MPI_File fh = open_file(path);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "be64", MPI_INFO_NULL));
  int v[N], r[N];
  for (int i = 0; i < N; ++i) v[i] = value(rank, i);
  MPI_Status st;
  CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "be64_c", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_read_at_all(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == v[i]);
  CHECK_MPI(MPI_File_close(&fh));
}

static void errors(const char* base, int rank) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".err");
  MPI_File fh = open_file(path); /* MPI_ERRORS_RETURN: a file's default handler */
  int v[N], r[N];
  for (int i = 0; i < N; ++i) v[i] = value(rank, i);
  MPI_Status st;
  MPI_Offset fsize;
  /* The write conversion function fails: MPI_ERR_CONVERSION, every rank, nothing written. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "failing", MPI_INFO_NULL));
  CHECK_ERR_CLASS(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st), MPI_ERR_CONVERSION);
  CHECK_ERR_CLASS(MPI_File_write_at(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st), MPI_ERR_CONVERSION);
  CHECK(fail_state.calls >= 2);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_File_get_size(fh, &fsize));
  CHECK(fsize == 0);
  /* Data written another way, then the read conversion fails. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "be64", MPI_INFO_NULL));
  CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "failing", MPI_INFO_NULL));
  CHECK_ERR_CLASS(MPI_File_read_at(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st), MPI_ERR_CONVERSION);
  /* The extent function fails: set_view does not call it, the access and get_type_extent do. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "badextent", MPI_INFO_NULL));
  CHECK(badext_state.extent_calls == 0);
  CHECK_ERR_CLASS(MPI_File_read_at(fh, 0, r, N, MPI_INT, &st), MPI_ERR_CONVERSION);
  MPI_Aint ext;
  CHECK_ERR_CLASS(MPI_File_get_type_extent(fh, MPI_INT, &ext), MPI_ERR_CONVERSION);
  CHECK(badext_state.extent_calls >= 2 && badext_state.calls == 0);
  /* The extent function runs at the first access of a view, not in set_view. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "lazy", MPI_INFO_NULL));
  CHECK(lazy_state.extent_calls == 0);
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  CHECK(lazy_state.extent_calls == 1); /* MPI_INT, asked once */
  for (int i = 0; i < N; ++i) CHECK(r[i] == v[i]);
  /* MPI_CONVERSION_FN_NULL with an 8-byte MPI_INT: native bytes cannot be 8 bytes. */
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "null8", MPI_INFO_NULL));
  CHECK_ERR_CLASS(MPI_File_read_at(fh, 0, r, N, MPI_INT, &st), MPI_ERR_CONVERSION);
  CHECK_MPI(MPI_File_close(&fh));
}

/* MPI_CONVERSION_FN_NULL with native extents: the file holds native bytes. */
static void null_conversion(const char* base, int rank) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".null");
  MPI_File fh = open_file(path);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "null", MPI_INFO_NULL));
  int v[N], r[N];
  for (int i = 0; i < N; ++i) v[i] = value(rank, i);
  MPI_Status st;
  CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * N, v, N, MPI_INT, &st));
  io_sync_barrier(fh, MPI_COMM_WORLD);
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == v[i]);
  CHECK(null_state.extent_calls >= 1);
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  memset(r, 0, sizeof r);
  CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)rank * N, r, N, MPI_INT, &st));
  for (int i = 0; i < N; ++i) CHECK(r[i] == v[i]);
  CHECK_MPI(MPI_File_close(&fh));
}

/* MPI_DISPLACEMENT_CURRENT after a "be64" view in which only rank 0
 * accessed: the shared pointer's 3 ints are 24 bytes on every rank. */
static void displacement_current(const char* base, int rank) {
  char path[IO_PATH_MAX];
  io_name(path, base, ".seq");
  MPI_File fh;
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL |
                          MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
  CHECK_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "be64", MPI_INFO_NULL));
  int v[3] = {1, 2, 3};
  if (rank == 0) CHECK_MPI(MPI_File_write_shared(fh, v, 3, MPI_INT, MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
  MPI_Offset disp;
  MPI_Datatype et, ft;
  char name[MPI_MAX_DATAREP_STRING];
  CHECK_MPI(MPI_File_get_view(fh, &disp, &et, &ft, name));
  CHECK(disp == 24 && strcmp(name, "native") == 0);
  CHECK_MPI(MPI_File_close(&fh));
}

static void registration(void) {
  /* Errors of MPI_Register_datarep go to MPI_FILE_NULL's handler (MPI_ERRORS_RETURN). */
  CHECK_ERR_CLASS(MPI_Register_datarep("be64", read_fn, write_fn, extent_fn, &be64_state), MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep_c("be64", read_fn_c, write_fn_c, extent_fn, &be64_state),
                  MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep("native", read_fn, write_fn, extent_fn, NULL), MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep("internal", read_fn, write_fn, extent_fn, NULL), MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep_c("external32", read_fn_c, write_fn_c, extent_fn, NULL),
                  MPI_ERR_DUP_DATAREP);
  CHECK_ERR_CLASS(MPI_Register_datarep(NULL, read_fn, write_fn, extent_fn, NULL), MPI_ERR_ARG);
  CHECK_ERR_CLASS(MPI_Register_datarep("", read_fn, write_fn, extent_fn, NULL), MPI_ERR_ARG);
  char longname[MPI_MAX_DATAREP_STRING + 1];
  memset(longname, 'x', MPI_MAX_DATAREP_STRING);
  longname[MPI_MAX_DATAREP_STRING] = '\0';
  CHECK_ERR_CLASS(MPI_Register_datarep(longname, read_fn, write_fn, extent_fn, NULL), MPI_ERR_ARG);
  longname[MPI_MAX_DATAREP_STRING - 1] = '\0'; /* the longest name that fits */
  CHECK_MPI(MPI_Register_datarep(longname, MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent_fn,
                                 &null_state));
  CHECK_ERR_CLASS(MPI_Register_datarep("noextent", read_fn, write_fn, NULL, NULL), MPI_ERR_ARG);
  /* mpi4py's test_io.TestDatarep.testRegister: _c, null conversion functions, twice. */
  CHECK_MPI(MPI_Register_datarep_c("mpi4py-datarep-dummy", MPI_CONVERSION_FN_NULL_C, MPI_CONVERSION_FN_NULL_C,
                                   native_extent_fn, &null_state));
  CHECK_ERR_CLASS(MPI_Register_datarep_c("mpi4py-datarep-dummy", MPI_CONVERSION_FN_NULL_C,
                                         MPI_CONVERSION_FN_NULL_C, native_extent_fn, &null_state),
                  MPI_ERR_DUP_DATAREP);
  /* A name nobody registered is still no view's representation. */
  MPI_File fh;
  char path[IO_PATH_MAX];
  io_base_name("datarep_unknown", path);
  CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh));
  CHECK_ERR_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "be65", MPI_INFO_NULL), MPI_ERR_UNSUPPORTED_DATAREP);
  CHECK_MPI(MPI_File_close(&fh));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char base[IO_PATH_MAX];
  io_base_name("datarep", base);

  CHECK_MPI(MPI_Register_datarep("be64", read_fn, write_fn, extent_fn, &be64_state));
  CHECK_MPI(MPI_Register_datarep_c("be64_c", read_fn_c, write_fn_c, extent_fn, &be64c_state));
  fail_state.fail = MPI_ERR_OTHER + 1000;
  CHECK_MPI(MPI_Register_datarep("failing", read_fn, write_fn, extent_fn, &fail_state));
  badext_state.fail_extent = MPI_ERR_OTHER;
  CHECK_MPI(MPI_Register_datarep("badextent", read_fn, write_fn, extent_fn, &badext_state));
  CHECK_MPI(MPI_Register_datarep("lazy", read_fn, write_fn, extent_fn, &lazy_state));
  CHECK_MPI(MPI_Register_datarep("null", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, native_extent_fn,
                                 &null_state));
  CHECK_MPI(MPI_Register_datarep("null8", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, &null8_state));
  /* Registering calls no function. */
  CHECK(be64_state.extent_calls == 0 && be64_state.calls == 0);

  round_trip(base, rank, size, "be64", &be64_state);
  round_trip(base, rank, size, "be64_c", &be64c_state);
  cross_read(base, rank);
  errors(base, rank);
  null_conversion(base, rank);
  displacement_current(base, rank);
  registration();
  MPI_Finalize();
  return 0;
}
