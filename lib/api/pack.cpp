// MPI_Pack, MPI_Unpack, MPI_Pack_size. The packed form is the type's data
// bytes in type-map order (one node, one representation: nothing to convert).
// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size: the
// "external32" representation (lib/dtype/external32.hpp).
#include <climits>
#include <cstring>

#include "api/call.hpp"
#include "dtype/external32.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// Bytes of count elements, or -1 when that does not fit an int (positions are ints).
long long stream_bytes(int count, const dtype::Datatype& t) {
  const unsigned long long n = static_cast<unsigned long long>(count) * t.size;
  return n > static_cast<unsigned long long>(INT_MAX) ? -1 : static_cast<long long>(n);
}

int check_position(Call& call, const int* position, int bufsize, const char* sizename) {
  if (int e = call.not_null(position, "position")) return e;
  if (bufsize < 0) return call.fail(MPI_ERR_ARG, "argument %s=%d is negative", sizename, bufsize);
  if (*position < 0 || *position > bufsize)
    return call.fail(MPI_ERR_ARG, "argument *position=%d is outside 0..%s=%d", *position, sizename, bufsize);
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

int check_external_position(Call& call, const MPI_Aint* position, MPI_Aint bufsize, const char* sizename) {
  if (int e = call.not_null(position, "position")) return e;
  if (bufsize < 0) return call.fail(MPI_ERR_ARG, "argument %s=%td is negative", sizename, bufsize);
  if (*position < 0 || *position > bufsize)
    return call.fail(MPI_ERR_ARG, "argument *position=%td is outside 0..%s=%td", *position, sizename, bufsize);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
             MPI_Comm comm) {
  Call call("MPI_Pack");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, outsize, "outsize")) return e;
  const long long bytes = stream_bytes(incount, *t);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "incount=%d elements of %zu bytes do not fit an int-sized pack buffer", incount,
                     t->size);
  if (bytes > outsize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "packing %lld bytes at *position=%d needs %lld bytes but argument outsize=%d", bytes, *position,
                     bytes + *position, outsize);
  if (bytes > 0) {
    if (inbuf == nullptr && t->predefined) return call.fail(MPI_ERR_BUFFER, "argument inbuf is NULL but incount=%d", incount);
    if (int e = call.not_null(outbuf, "outbuf")) return e;
  }
  dtype::pack(inbuf, incount, *t, 0, static_cast<char*>(outbuf) + *position, static_cast<std::size_t>(bytes));
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
               MPI_Comm comm) {
  Call call("MPI_Unpack");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(outcount, "outcount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_position(call, position, insize, "insize")) return e;
  const long long bytes = stream_bytes(outcount, *t);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "outcount=%d elements of %zu bytes do not fit an int-sized pack buffer",
                     outcount, t->size);
  if (bytes > insize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "unpacking %d elements needs %lld bytes from *position=%d but argument insize=%d leaves %d",
                     outcount, bytes, *position, insize, insize - *position);
  if (bytes > 0) {
    if (outbuf == nullptr && t->predefined) return call.fail(MPI_ERR_BUFFER, "argument outbuf is NULL but outcount=%d", outcount);
    if (int e = call.not_null(inbuf, "inbuf")) return e;
  }
  dtype::unpack(outbuf, outcount, *t, 0, static_cast<const char*>(inbuf) + *position, static_cast<std::size_t>(bytes));
  *position += static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  Call call("MPI_Pack_size");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = call.not_null(size, "size")) return e;
  const long long bytes = stream_bytes(incount, *t);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "incount=%d elements of %zu bytes exceed what an int size can report", incount,
                     t->size);
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                      MPI_Aint outsize, MPI_Aint* position) {
  Call call("MPI_Pack_external");
  if (int e = call.initialized()) return e;
  if (int e = check_datarep(call, datarep)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_external_position(call, position, outsize, "outsize")) return e;
  const MPI_Count bytes = external_bytes(incount, *t);
  if (bytes < 0) return call.fail(MPI_ERR_ARG, "incount=%d elements of this datatype exceed the address space", incount);
  if (bytes > outsize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "packing %lld external32 bytes at *position=%td needs %lld bytes but argument outsize=%td",
                     bytes, *position, bytes + *position, outsize);
  if (bytes > 0) {
    if (inbuf == nullptr && t->predefined)
      return call.fail(MPI_ERR_BUFFER, "argument inbuf is NULL but incount=%d", incount);
    if (int e = call.not_null(outbuf, "outbuf")) return e;
    dtype::pack_external32(inbuf, incount, *t, static_cast<char*>(outbuf) + *position);
  }
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

int MPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position, void* outbuf,
                        int outcount, MPI_Datatype datatype) {
  Call call("MPI_Unpack_external");
  if (int e = call.initialized()) return e;
  if (int e = check_datarep(call, datarep)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(outcount, "outcount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = check_external_position(call, position, insize, "insize")) return e;
  const MPI_Count bytes = external_bytes(outcount, *t);
  if (bytes < 0)
    return call.fail(MPI_ERR_ARG, "outcount=%d elements of this datatype exceed the address space", outcount);
  if (bytes > insize - *position)
    return call.fail(MPI_ERR_TRUNCATE,
                     "unpacking %d elements needs %lld external32 bytes from *position=%td but argument insize=%td "
                     "leaves %td",
                     outcount, bytes, *position, insize, insize - *position);
  if (bytes > 0) {
    if (outbuf == nullptr && t->predefined)
      return call.fail(MPI_ERR_BUFFER, "argument outbuf is NULL but outcount=%d", outcount);
    if (int e = call.not_null(inbuf, "inbuf")) return e;
    dtype::unpack_external32(static_cast<const char*>(inbuf) + *position, outbuf, outcount, *t);
  }
  *position += static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size) {
  Call call("MPI_Pack_external_size");
  if (int e = call.initialized()) return e;
  if (int e = check_datarep(call, datarep)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(incount, "incount")) return e;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (int e = call.not_null(size, "size")) return e;
  const MPI_Count bytes = external_bytes(incount, *t);
  if (bytes < 0) return call.fail(MPI_ERR_ARG, "incount=%d elements of this datatype exceed the address space", incount);
  *size = static_cast<MPI_Aint>(bytes);
  return MPI_SUCCESS;
}

}  // extern "C"
