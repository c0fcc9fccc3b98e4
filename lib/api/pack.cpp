// MPI_Pack, MPI_Unpack, MPI_Pack_size. The packed form is the type's data
// bytes in type-map order (one node, one representation: nothing to convert).
// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size: the
// "external32" representation (lib/dtype/external32.hpp).
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>

#include "api/call.hpp"
#include "api/large_count.hpp"
#include "dtype/external32.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// Bytes of count elements, or -1 when that does not exceed `limit` (the
// largest position: INT_MAX for the int forms, the address space for _c).
long long stream_bytes(int count, const dtype::Datatype& t, long long limit) {
  const unsigned long long n = static_cast<unsigned long long>(count) * t.size;
  return n > static_cast<unsigned long long>(limit) ? -1 : static_cast<long long>(n);
}

template <class Pos>
int check_position(Call& call, const Pos* position, Pos bufsize, const char* sizename) {
  if (int e = call.not_null(position, "position")) return e;
  if (bufsize < 0) return call.fail(MPI_ERR_ARG, "argument %s=%lld is negative", sizename, (long long)bufsize);
  if (*position < 0 || *position > bufsize)
    return call.fail(MPI_ERR_ARG, "argument *position=%lld is outside 0..%s=%lld", (long long)*position, sizename,
                     (long long)bufsize);
  return MPI_SUCCESS;
}

// "external32" is the one data representation (MPI-3.1 §13.5.2).
int check_datarep(Call& call, const char* datarep) {
  if (int e = call.not_null(datarep, "datarep")) return e;
  if (std::strcmp(datarep, "external32") != 0)
    return call.fail(MPI_ERR_ARG, "argument datarep=\"%.64s\" is not \"external32\", the one data representation "
                     "of MPI_Pack_external", datarep);
  return MPI_SUCCESS;
}

// External32 bytes of count elements, or -1 when that does not fit an MPI_Aint.
MPI_Count external_bytes(int count, const dtype::Datatype& t) {
  MPI_Count n = 0;
  if (__builtin_mul_overflow(MPI_Count(count), dtype::external32_size(t), &n) || n > MPI_Count(PTRDIFF_MAX)) return -1;
  return n;
}

// The bodies, for int positions (MPI_Pack) and MPI_Count ones (MPI_Pack_c);
// a _c count has already become (1, a type of that many elements) when it
// exceeds an int (api/large_count.hpp), so `count` is an int here.
template <class Pos>
int pack(Call& call, const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, Pos outsize, Pos* position,
         MPI_Comm comm) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  const dtype::Datatype* t = nullptr;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, outsize, "outsize")) return e;
  const long long bytes = stream_bytes(incount, *t, std::numeric_limits<Pos>::max());
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "incount=%d elements of %zu bytes do not fit a pack buffer of this position type",
                     incount, t->size);
  if (bytes > outsize - *position)
    return call.fail(MPI_ERR_TRUNCATE, "packing %lld bytes at *position=%lld needs %lld bytes but argument outsize=%lld",
                     bytes, (long long)*position, bytes + *position, (long long)outsize);
  if (bytes > 0) {
    if (inbuf == nullptr && t->predefined) return call.fail(MPI_ERR_BUFFER, "argument inbuf is NULL but incount=%d", incount);
    if (int e = call.not_null(outbuf, "outbuf")) return e;
  }
  dtype::pack(inbuf, incount, *t, 0, static_cast<char*>(outbuf) + *position, static_cast<std::size_t>(bytes));
  *position += static_cast<Pos>(bytes);
  return MPI_SUCCESS;
}

template <class Pos>
int unpack(Call& call, const void* inbuf, Pos insize, Pos* position, void* outbuf, int outcount, MPI_Datatype datatype,
           MPI_Comm comm) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  const dtype::Datatype* t = nullptr;
  if (int e = call.count(outcount, "outcount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, insize, "insize")) return e;
  const long long bytes = stream_bytes(outcount, *t, std::numeric_limits<Pos>::max());
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "outcount=%d elements of %zu bytes do not fit a pack buffer of this position type",
                     outcount, t->size);
  if (bytes > insize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "unpacking %d elements needs %lld bytes from *position=%lld but argument insize=%lld leaves %lld",
                     outcount, bytes, (long long)*position, (long long)insize, (long long)(insize - *position));
  if (bytes > 0) {
    if (outbuf == nullptr && t->predefined) return call.fail(MPI_ERR_BUFFER, "argument outbuf is NULL but outcount=%d", outcount);
    if (int e = call.not_null(inbuf, "inbuf")) return e;
  }
  dtype::unpack(outbuf, outcount, *t, 0, static_cast<const char*>(inbuf) + *position, static_cast<std::size_t>(bytes));
  *position += static_cast<Pos>(bytes);
  return MPI_SUCCESS;
}

// The packed size of count elements (MPI_Pack_size(_c)): -1 after a dispatched error.
long long pack_size(Call& call, int incount, MPI_Datatype datatype, MPI_Comm comm, const void* size, long long limit,
                    int* err) {
  comm::Comm* c;
  const dtype::Datatype* t = nullptr;
  if ((*err = call.comm(comm, "comm", &c)) || (*err = call.count(incount, "incount")) ||
      (*err = call.datatype(datatype, "datatype", &t)) || (*err = call.not_null(size, "size")))
    return -1;
  const long long bytes = stream_bytes(incount, *t, limit);
  if (bytes < 0)
    *err = call.fail(MPI_ERR_ARG, "incount=%d elements of %zu bytes exceed what an int size can report", incount,
                     t->size);
  return bytes;
}

template <class Pos>
int pack_external(Call& call, const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype,
                  void* outbuf, Pos outsize, Pos* position) {
  if (int e = call.initialized()) return e;
  if (int e = check_datarep(call, datarep)) return e;
  const dtype::Datatype* t = nullptr;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, outsize, "outsize")) return e;
  const MPI_Count bytes = external_bytes(incount, *t);
  if (bytes < 0) return call.fail(MPI_ERR_ARG, "incount=%d elements of this datatype exceed the address space", incount);
  if (bytes > outsize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "packing %lld external32 bytes at *position=%lld needs %lld bytes but argument outsize=%lld",
                     bytes, (long long)*position, bytes + *position, (long long)outsize);
  if (bytes > 0) {
    if (inbuf == nullptr && t->predefined)
      return call.fail(MPI_ERR_BUFFER, "argument inbuf is NULL but incount=%d", incount);
    if (int e = call.not_null(outbuf, "outbuf")) return e;
    dtype::pack_external32(inbuf, incount, *t, static_cast<char*>(outbuf) + *position);
  }
  *position += static_cast<Pos>(bytes);
  return MPI_SUCCESS;
}

template <class Pos>
int unpack_external(Call& call, const char datarep[], const void* inbuf, Pos insize, Pos* position, void* outbuf,
                    int outcount, MPI_Datatype datatype) {
  if (int e = call.initialized()) return e;
  if (int e = check_datarep(call, datarep)) return e;
  const dtype::Datatype* t = nullptr;
  if (int e = call.count(outcount, "outcount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, insize, "insize")) return e;
  const MPI_Count bytes = external_bytes(outcount, *t);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "outcount=%d elements of this datatype exceed the address space", outcount);
  if (bytes > insize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "unpacking %d elements needs %lld external32 bytes from *position=%lld but argument "
                     "insize=%lld leaves %lld",
                     outcount, bytes, (long long)*position, (long long)insize, (long long)(insize - *position));
  if (bytes > 0) {
    if (outbuf == nullptr && t->predefined)
      return call.fail(MPI_ERR_BUFFER, "argument outbuf is NULL but outcount=%d", outcount);
    if (int e = call.not_null(inbuf, "inbuf")) return e;
    dtype::unpack_external32(static_cast<const char*>(inbuf) + *position, outbuf, outcount, *t);
  }
  *position += static_cast<Pos>(bytes);
  return MPI_SUCCESS;
}

MPI_Count pack_external_size(Call& call, const char datarep[], int incount, MPI_Datatype datatype, const void* size,
                             int* err) {
  const dtype::Datatype* t = nullptr;
  if ((*err = call.initialized()) || (*err = check_datarep(call, datarep)) ||
      (*err = call.count(incount, "incount")) || (*err = call.datatype(datatype, "datatype", &t)) ||
      (*err = call.not_null(size, "size")))
    return -1;
  const MPI_Count bytes = external_bytes(incount, *t);
  if (bytes < 0)
    *err = call.fail(MPI_ERR_ARG, "incount=%d elements of this datatype exceed the address space", incount);
  return bytes;
}

}  // namespace

extern "C" {

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  Call call("MPI_Pack");
  return pack(call, inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  Call call("MPI_Unpack");
  return unpack(call, inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  Call call("MPI_Pack_size");
  int err = MPI_SUCCESS;
  const long long bytes = pack_size(call, incount, datatype, comm, size, INT_MAX, &err);
  if (err != MPI_SUCCESS) return err;
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  Call call("MPI_Pack_external");
  return pack_external(call, datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                        int outcount, MPI_Datatype datatype) {
  Call call("MPI_Unpack_external");
  return unpack_external(call, datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  Call call("MPI_Pack_external_size");
  int err = MPI_SUCCESS;
  const MPI_Count bytes = pack_external_size(call, datarep, incount, datatype, size, &err);
  if (err != MPI_SUCCESS) return err;
  *size = static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

// The _c forms: MPI_Count counts and positions.

int MPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf, MPI_Count outsize,
               MPI_Count* position, MPI_Comm comm) {
  Call call("MPI_Pack_c");
  api::Counted n;
  if (int e = n.set(call, incount, datatype, "incount", "datatype")) return e;
  return pack(call, inbuf, n.count, n.datatype, outbuf, outsize, position, comm);
}

int MPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf, MPI_Count outcount,
                 MPI_Datatype datatype, MPI_Comm comm) {
  Call call("MPI_Unpack_c");
  api::Counted n;
  if (int e = n.set(call, outcount, datatype, "outcount", "datatype")) return e;
  return unpack(call, inbuf, insize, position, outbuf, n.count, n.datatype, comm);
}

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  Call call("MPI_Pack_size_c");
  api::Counted n;
  if (int e = n.set(call, incount, datatype, "incount", "datatype")) return e;
  int err = MPI_SUCCESS;
  const long long bytes = pack_size(call, n.count, n.datatype, comm, size, PTRDIFF_MAX, &err);
  if (err != MPI_SUCCESS) return err;
  *size = bytes;
  return MPI_SUCCESS;
}

int MPI_Pack_external_c(const char datarep[], const void* inbuf, MPI_Count incount, MPI_Datatype datatype,
                        void* outbuf, MPI_Count outsize, MPI_Count* position) {
  Call call("MPI_Pack_external_c");
  api::Counted n;
  if (int e = n.set(call, incount, datatype, "incount", "datatype")) return e;
  return pack_external(call, datarep, inbuf, n.count, n.datatype, outbuf, outsize, position);
}

int MPI_Unpack_external_c(const char datarep[], const void* inbuf, MPI_Count insize, MPI_Count* position,
                          void* outbuf, MPI_Count outcount, MPI_Datatype datatype) {
  Call call("MPI_Unpack_external_c");
  api::Counted n;
  if (int e = n.set(call, outcount, datatype, "outcount", "datatype")) return e;
  return unpack_external(call, datarep, inbuf, insize, position, outbuf, n.count, n.datatype);
}

int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count* size) {
  Call call("MPI_Pack_external_size_c");
  api::Counted n;
  if (int e = n.set(call, incount, datatype, "incount", "datatype")) return e;
  int err = MPI_SUCCESS;
  const MPI_Count bytes = pack_external_size(call, datarep, n.count, n.datatype, size, &err);
  if (err != MPI_SUCCESS) return err;
  *size = bytes;
  return MPI_SUCCESS;
}

}  // extern "C"
