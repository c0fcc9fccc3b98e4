#include "dtype/external32.hpp"

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dtype/real16.hpp"
#include "dtype/represent.hpp"

#if !(defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113) && !defined(RINGMPI_HAVE_REAL16)
#error "external32 converts long double to IEEE binary128 and needs a binary128 type (__float128)"
#endif

namespace ringmpi::dtype {
namespace {

enum class Kind : unsigned char {
  raw,      // one byte, copied
  boolean,  // C/C++ bool: 0 is false, anything else true
  sint,     // two's complement, sign-extended when it widens
  uint,     // zero-extended when it widens
  ieee,     // IEEE binary32/64/128 here too: only the byte order changes
  ldouble,  // long double: converted to binary128
};

// One basic type: `parts` values (2 for complex) of `native` bytes here and `ext` bytes in external32.
struct Basic {
  Kind kind;
  unsigned char native, ext, parts;
};

constexpr Basic kNone{Kind::raw, 0, 0, 0};

template <class T>
constexpr Basic sint(unsigned char ext) {
  return {Kind::sint, sizeof(T), ext, 1};
}
template <class T>
constexpr Basic uint(unsigned char ext) {
  return {Kind::uint, sizeof(T), ext, 1};
}
constexpr Basic ieee(unsigned char n, unsigned char parts = 1) { return {Kind::ieee, n, n, parts}; }
constexpr Basic ldouble(unsigned char parts = 1) {
  return {Kind::ldouble, sizeof(long double), 16, parts};
}

// MPI-3.1 §13.5.2, Table 13.2 (and the optional Fortran types).
Basic basic_of(MPI_Datatype h) {
  switch (h) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_UNSIGNED_CHAR:
    case MPI_BYTE:
    case MPI_PACKED:
    case MPI_INT8_T:
    case MPI_UINT8_T:
    case MPI_CHARACTER:
    case MPI_INTEGER1: return {Kind::raw, 1, 1, 1};
    case MPI_C_BOOL:
    case MPI_CXX_BOOL: return {Kind::boolean, sizeof(bool), 1, 1};
    case MPI_WCHAR: return uint<wchar_t>(2);
    case MPI_SHORT: return sint<short>(2);
    case MPI_UNSIGNED_SHORT: return uint<unsigned short>(2);
    case MPI_INT: return sint<int>(4);
    case MPI_UNSIGNED: return uint<unsigned>(4);
    case MPI_LONG: return sint<long>(4);
    case MPI_UNSIGNED_LONG: return uint<unsigned long>(4);
    case MPI_LONG_LONG_INT: return sint<long long>(8);
    case MPI_UNSIGNED_LONG_LONG: return uint<unsigned long long>(8);
    case MPI_INT16_T: return sint<std::int16_t>(2);
    case MPI_INT32_T: return sint<std::int32_t>(4);
    case MPI_INT64_T: return sint<std::int64_t>(8);
    case MPI_UINT16_T: return uint<std::uint16_t>(2);
    case MPI_UINT32_T: return uint<std::uint32_t>(4);
    case MPI_UINT64_T: return uint<std::uint64_t>(8);
    case MPI_AINT: return sint<MPI_Aint>(8);
    case MPI_OFFSET: return sint<MPI_Offset>(8);
    case MPI_COUNT: return sint<MPI_Count>(8);
    case MPI_INTEGER:
    case MPI_INTEGER4:
    case MPI_LOGICAL: return sint<std::int32_t>(4);  // LOGICAL: nonzero stays nonzero
    case MPI_INTEGER2: return sint<std::int16_t>(2);
    case MPI_INTEGER8: return sint<std::int64_t>(8);
    case MPI_FLOAT:
    case MPI_REAL:
    case MPI_REAL4: return ieee(4);
    case MPI_DOUBLE:
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8: return ieee(8);
    case MPI_LONG_DOUBLE: return ldouble();
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_COMPLEX:
    case MPI_COMPLEX8: return ieee(4, 2);
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16: return ieee(8, 2);
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX: return ldouble(2);
#if defined(RINGMPI_HAVE_REAL16)
    case MPI_REAL16: return ieee(16);
    case MPI_COMPLEX32: return ieee(16, 2);
#endif
    default: return kNone;
  }
}

constexpr bool kLittle = std::endian::native == std::endian::little;

// Copies n bytes reversed on little-endian machines (native <-> big-endian).
void to_big(unsigned char* d, const unsigned char* s, std::size_t n) {
  if constexpr (kLittle) {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[n - 1 - i];
  } else {
    std::memcpy(d, s, n);
  }
}

std::uint64_t load_native(const unsigned char* p, unsigned size, bool sign) {
  switch (size) {
    case 1: {
      std::uint8_t v;
      std::memcpy(&v, p, 1);
      return sign ? std::uint64_t(std::int64_t(std::int8_t(v))) : v;
    }
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return sign ? std::uint64_t(std::int64_t(std::int16_t(v))) : v;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return sign ? std::uint64_t(std::int64_t(std::int32_t(v))) : v;
    }
    default: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}

void store_native(unsigned char* p, std::uint64_t v, unsigned size) {
  switch (size) {
    case 1: {
      const auto x = std::uint8_t(v);
      std::memcpy(p, &x, 1);
      return;
    }
    case 2: {
      const auto x = std::uint16_t(v);
      std::memcpy(p, &x, 2);
      return;
    }
    case 4: {
      const auto x = std::uint32_t(v);
      std::memcpy(p, &x, 4);
      return;
    }
    default: std::memcpy(p, &v, 8); return;
  }
}

// Least significant `size` bytes of v, most significant first.
void store_be(unsigned char* p, std::uint64_t v, unsigned size) {
  for (unsigned i = size; i-- > 0; v >>= 8) p[i] = static_cast<unsigned char>(v & 0xff);
}

std::uint64_t load_be(const unsigned char* p, unsigned size, bool sign) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) v = (v << 8) | p[i];
  if (sign && size < 8) {
    const unsigned shift = 64 - 8 * size;
    v = std::uint64_t(std::int64_t(v << shift) >> shift);
  }
  return v;
}

void ldouble_to_ext(unsigned char* d, const unsigned char* s) {
#if defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
  to_big(d, s, 16);
#else
  long double x;
  std::memcpy(&x, s, sizeof x);
  const Real16 q = static_cast<Real16>(x);
  unsigned char b[16];
  std::memcpy(b, &q, 16);
  to_big(d, b, 16);
#endif
}

void ldouble_from_ext(unsigned char* d, const unsigned char* s) {
#if defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
  to_big(d, s, 16);
#else
  unsigned char b[16];
  to_big(b, s, 16);
  Real16 q;
  std::memcpy(&q, b, 16);
  const long double x = static_cast<long double>(q);
  std::memcpy(d, &x, sizeof x);  // the padding bytes of an x87 long double are not data
#endif
}

// One value (one part of a complex) each way.
void value_to_ext(const Basic& b, unsigned char* d, const unsigned char* s) {
  switch (b.kind) {
    case Kind::raw: *d = *s; return;
    case Kind::boolean: *d = *s != 0 ? 1 : 0; return;
    case Kind::sint:
    case Kind::uint: store_be(d, load_native(s, b.native, b.kind == Kind::sint), b.ext); return;
    case Kind::ieee: to_big(d, s, b.native); return;
    case Kind::ldouble: ldouble_to_ext(d, s); return;
  }
}

void value_from_ext(const Basic& b, unsigned char* d, const unsigned char* s) {
  switch (b.kind) {
    case Kind::raw: *d = *s; return;
    case Kind::boolean: {
      const bool v = *s != 0;
      std::memcpy(d, &v, sizeof v);
      return;
    }
    case Kind::sint:
    case Kind::uint: store_native(d, load_be(s, b.ext, b.kind == Kind::sint), b.native); return;
    case Kind::ieee: to_big(d, s, b.native); return;
    case Kind::ldouble: ldouble_from_ext(d, s); return;
  }
}

// Calls f(h, n) for the basic types of `copies` elements of t in type-map
// order (runs of n elements of one non-pair predefined type h).
template <class F>
void each_run(const Datatype& t, MPI_Count copies, F& f) {
  if (copies == 0 || t.size == 0) return;
  if (t.basic != MPI_DATATYPE_NULL) {  // all data is one predefined type (F90 types included)
    const Datatype& b = *lookup(t.basic);
    const MPI_Count n = copies * MPI_Count(t.size / b.size);
    MPI_Datatype first, second;
    if (!pair_members(t.basic, &first, &second)) {
      f(t.basic, n);
    } else if (first == second) {
      f(first, 2 * n);
    } else {
      for (MPI_Count i = 0; i < n; ++i) {
        f(first, 1);
        f(second, 1);
      }
    }
    return;
  }
  if (t.env.combiner == MPI_COMBINER_STRUCT) {
    for (MPI_Count c = 0; c < copies; ++c)
      for (std::size_t i = 0; i < t.env.types.size(); ++i) each_run(*t.env.types[i], t.env.struct_blocklength(i), f);
    return;
  }
  // Every other combiner repeats its one old type.
  const Datatype& o = *t.env.types[0];
  each_run(o, copies * MPI_Count(t.size / o.size), f);
}

// Native elements converted per pass: bounds the scratch buffer.
constexpr std::size_t kChunk = 64 * 1024;

struct Run {
  MPI_Datatype h;
  std::size_t n;
};

// Cuts the runs into chunks of at most kChunk native bytes (whole elements)
// and hands each chunk to flush(runs, native stream offset, native bytes).
template <class Flush>
struct Chunker {
  Flush flush;
  std::vector<Run> runs{};
  std::size_t offset = 0, filled = 0;

  void operator()(MPI_Datatype h, MPI_Count n) {
    const std::size_t size = lookup(h)->size;
    while (n > 0) {
      std::size_t take = (kChunk - filled) / size;
      if (take == 0) {
        finish();
        continue;
      }
      if (MPI_Count(take) > n) take = std::size_t(n);
      if (!runs.empty() && runs.back().h == h)
        runs.back().n += take;
      else
        runs.push_back({h, take});
      filled += take * size;
      n -= MPI_Count(take);
    }
  }
  void finish() {
    if (filled == 0) return;
    flush(runs, offset, filled);
    offset += filled;
    filled = 0;
    runs.clear();
  }
};

}  // namespace

std::size_t external32_basic_size(MPI_Datatype h) {
  MPI_Datatype first, second;
  if (pair_members(h, &first, &second)) return external32_basic_size(first) + external32_basic_size(second);
  const Basic b = basic_of(h);
  return std::size_t(b.ext) * b.parts;
}

MPI_Count external32_size(const Datatype& t) {
  MPI_Count n = 0;
  std::string why;
  represented_size(*external32(), t, &n, &why);  // external32's sizes never fail
  return n;
}

void to_external32(MPI_Datatype h, const void* native, void* ext, std::size_t n) {
  const Basic b = basic_of(h);
  auto* d = static_cast<unsigned char*>(ext);
  const auto* s = static_cast<const unsigned char*>(native);
  const std::size_t values = n * b.parts;
  for (std::size_t i = 0; i < values; ++i, d += b.ext, s += b.native) value_to_ext(b, d, s);
}

void from_external32(MPI_Datatype h, const void* ext, void* native, std::size_t n) {
  const Basic b = basic_of(h);
  auto* d = static_cast<unsigned char*>(native);
  const auto* s = static_cast<const unsigned char*>(ext);
  const std::size_t values = n * b.parts;
  for (std::size_t i = 0; i < values; ++i, d += b.native, s += b.ext) value_from_ext(b, d, s);
}

void pack_external32(const void* buf, int count, const Datatype& t, void* out) {
  std::vector<unsigned char> native(kChunk);
  auto* cursor = static_cast<unsigned char*>(out);
  auto flush = [&](const std::vector<Run>& runs, std::size_t offset, std::size_t bytes) {
    pack(buf, count, t, offset, native.data(), bytes);
    const unsigned char* s = native.data();
    for (const Run& r : runs) {
      to_external32(r.h, s, cursor, r.n);
      s += r.n * lookup(r.h)->size;
      cursor += r.n * external32_basic_size(r.h);
    }
  };
  Chunker<decltype(flush)> chunks{flush};
  each_run(t, count, chunks);
  chunks.finish();
}

void unpack_external32(const void* in, void* buf, int count, const Datatype& t) {
  std::vector<unsigned char> native(kChunk);
  const auto* cursor = static_cast<const unsigned char*>(in);
  auto flush = [&](const std::vector<Run>& runs, std::size_t offset, std::size_t bytes) {
    unsigned char* d = native.data();
    for (const Run& r : runs) {
      from_external32(r.h, cursor, d, r.n);
      d += r.n * lookup(r.h)->size;
      cursor += r.n * external32_basic_size(r.h);
    }
    unpack(buf, count, t, offset, native.data(), bytes);
  };
  Chunker<decltype(flush)> chunks{flush};
  each_run(t, count, chunks);
  chunks.finish();
}

namespace {

// "external32" as a file's representation (represent.hpp): the standard's
// sizes, and the same conversion as MPI_Pack_external.
class External32 final : public Representation {
 public:
  int basic_size(MPI_Datatype h, std::size_t* size, std::string* why) override {
    *size = external32_basic_size(h);
    if (*size != 0) return MPI_SUCCESS;
    *why = describe(h) + " has no external32 representation";
    return MPI_ERR_UNSUPPORTED_DATAREP;
  }
  int to_file(const void* buf, int count, const Datatype& t, MPI_Datatype, void* out, std::string*) override {
    pack_external32(buf, count, t, out);
    return MPI_SUCCESS;
  }
  int from_file(const void* in, void* buf, int count, const Datatype& t, MPI_Datatype, std::string*) override {
    unpack_external32(in, buf, count, t);
    return MPI_SUCCESS;
  }
};

}  // namespace

const std::shared_ptr<Representation>& external32() {
  static const std::shared_ptr<Representation> r = std::make_shared<External32>();
  return r;
}

}  // namespace ringmpi::dtype
