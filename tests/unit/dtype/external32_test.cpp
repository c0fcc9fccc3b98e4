// external32 conversions of basic types (byte order, narrowing and widening
// of MPI_LONG and MPI_WCHAR, bool, binary128 long double), sizes of derived
// types, and pack/unpack through a struct type across the conversion chunks.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "dtype/construct.hpp"
#include "dtype/external32.hpp"

using namespace ringmpi::dtype;

namespace {

template <class T>
std::vector<unsigned char> ext(MPI_Datatype h, T v) {
  std::vector<unsigned char> out(external32_basic_size(h));
  to_external32(h, &v, out.data(), 1);
  return out;
}

template <class T>
T back(MPI_Datatype h, std::vector<unsigned char> bytes) {
  T v{};
  from_external32(h, bytes.data(), &v, 1);
  return v;
}

using Bytes = std::vector<unsigned char>;

}  // namespace

TEST_CASE("external32 sizes are the standard's table") {
  CHECK(external32_basic_size(MPI_CHAR) == 1);
  CHECK(external32_basic_size(MPI_WCHAR) == 2);
  CHECK(external32_basic_size(MPI_SHORT) == 2);
  CHECK(external32_basic_size(MPI_INT) == 4);
  CHECK(external32_basic_size(MPI_LONG) == 4);
  CHECK(external32_basic_size(MPI_UNSIGNED_LONG) == 4);
  CHECK(external32_basic_size(MPI_LONG_LONG) == 8);
  CHECK(external32_basic_size(MPI_FLOAT) == 4);
  CHECK(external32_basic_size(MPI_DOUBLE) == 8);
  CHECK(external32_basic_size(MPI_LONG_DOUBLE) == 16);
  CHECK(external32_basic_size(MPI_C_BOOL) == 1);
  CHECK(external32_basic_size(MPI_AINT) == 8);
  CHECK(external32_basic_size(MPI_COUNT) == 8);
  CHECK(external32_basic_size(MPI_OFFSET) == 8);
  CHECK(external32_basic_size(MPI_C_DOUBLE_COMPLEX) == 16);
  CHECK(external32_basic_size(MPI_C_LONG_DOUBLE_COMPLEX) == 32);
  CHECK(external32_basic_size(MPI_LOGICAL) == 4);
  CHECK(external32_basic_size(MPI_CHARACTER) == 1);
  CHECK(external32_basic_size(MPI_DOUBLE_COMPLEX) == 16);
  CHECK(external32_basic_size(MPI_DOUBLE_INT) == 12);
  CHECK(external32_basic_size(MPI_LONG_INT) == 8);
  CHECK(external32_basic_size(MPI_LONG_DOUBLE_INT) == 20);
  CHECK(external32_basic_size(MPI_2DOUBLE_PRECISION) == 16);
}

TEST_CASE("integers: big-endian, narrowed to their low bytes and sign- or zero-extended back") {
  CHECK(ext(MPI_INT, 1) == Bytes{0, 0, 0, 1});
  CHECK(ext(MPI_INT, -2) == Bytes{0xff, 0xff, 0xff, 0xfe});
  CHECK(ext(MPI_LONG, -2L) == Bytes{0xff, 0xff, 0xff, 0xfe});
  CHECK(back<long>(MPI_LONG, {0xff, 0xff, 0xff, 0xfe}) == -2L);
  CHECK(back<long>(MPI_LONG, {0x7f, 0xff, 0xff, 0xff}) == 0x7fffffffL);
  CHECK(back<unsigned long>(MPI_UNSIGNED_LONG, {0xff, 0xff, 0xff, 0xfe}) == 0xfffffffeUL);
  CHECK(ext(MPI_LONG, 0x100000001L) == Bytes{0, 0, 0, 1});  // only the low bytes move
  CHECK(ext(MPI_SHORT, short(0x0102)) == Bytes{1, 2});
  CHECK(ext(MPI_UINT64_T, std::uint64_t(0x0102030405060708)) == Bytes{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(back<std::int16_t>(MPI_INT16_T, {0x80, 0x00}) == -32768);
  CHECK(ext(MPI_WCHAR, wchar_t(0x20AC)) == Bytes{0x20, 0xAC});
  CHECK(back<wchar_t>(MPI_WCHAR, {0xff, 0xfe}) == wchar_t(0xfffe));
  CHECK(ext(MPI_C_BOOL, true) == Bytes{1});
  CHECK(back<bool>(MPI_C_BOOL, {0x80}) == true);
  CHECK(back<bool>(MPI_C_BOOL, {0}) == false);
}

TEST_CASE("floating point: IEEE big-endian, long double as binary128") {
  CHECK(ext(MPI_FLOAT, 1.0f) == Bytes{0x3f, 0x80, 0, 0});
  CHECK(ext(MPI_DOUBLE, -2.5) == Bytes{0xc0, 0x04, 0, 0, 0, 0, 0, 0});
  CHECK(back<double>(MPI_DOUBLE, {0xc0, 0x04, 0, 0, 0, 0, 0, 0}) == -2.5);
  Bytes one(16, 0);
  one[0] = 0x3f;
  one[1] = 0xff;
  CHECK(ext(MPI_LONG_DOUBLE, 1.0L) == one);
  CHECK(back<long double>(MPI_LONG_DOUBLE, one) == 1.0L);
  for (long double v : {0.0L, -1.0L, 3.1415926535897932384626L, 1e300L, -1e-300L, 1e4000L}) {
    CAPTURE(double(v));
    CHECK(back<long double>(MPI_LONG_DOUBLE, ext(MPI_LONG_DOUBLE, v)) == v);
  }
  // complex: real part, then imaginary part
  const float c[2] = {1.0f, 2.0f};
  Bytes out(8);
  to_external32(MPI_C_FLOAT_COMPLEX, c, out.data(), 1);
  CHECK(out == Bytes{0x3f, 0x80, 0, 0, 0x40, 0, 0, 0});
}

TEST_CASE("pack_external32 / unpack_external32 through a struct type, across conversion chunks") {
  struct Rec {
    char c;
    long l;
    short s;
    double d;
  };
  const int bl[4] = {1, 1, 1, 1};
  const MPI_Aint disp[4] = {offsetof(Rec, c), offsetof(Rec, l), offsetof(Rec, s), offsetof(Rec, d)};
  const TypePtr types[4] = {lookup_shared(MPI_CHAR), lookup_shared(MPI_LONG), lookup_shared(MPI_SHORT),
                            lookup_shared(MPI_DOUBLE)};
  std::string why;
  TypePtr t = make_struct(4, bl, disp, types, &why);
  REQUIRE(t);
  commit(*t);
  CHECK(external32_size(*t) == 1 + 4 + 2 + 8);
  // A vector of two of them, strided: external size doubles, gaps skipped.
  TypePtr v = make_vector(3, 2, 3, t, &why);
  REQUIRE(v);
  commit(*v);
  CHECK(external32_size(*v) == 6 * 15);
  CHECK(v->extent == 8 * std::ptrdiff_t(sizeof(Rec)));

  const int n = 12000;  // 12000 x 6 x 32 native bytes: many 64 KiB chunks
  std::vector<Rec> in(std::size_t(n) * 9), out(std::size_t(n) * 9);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = {char(k % 97), long(k) - 5000, short(k % 3000), k * 0.5};
  std::vector<unsigned char> packed(std::size_t(external32_size(*v)) * n);
  pack_external32(in.data(), n, *v, packed.data());
  // element 0 of the vector is in[0]: c, then l = -5000 big-endian in 4 bytes
  CHECK(packed[0] == 0);
  CHECK(Bytes(packed.begin() + 1, packed.begin() + 5) == Bytes{0xff, 0xff, 0xec, 0x78});
  unpack_external32(packed.data(), out.data(), n, *v);
  for (int e = 0; e < n; ++e)
    for (int blk = 0; blk < 3; ++blk)
      for (int j = 0; j < 2; ++j) {
        const std::size_t k = std::size_t(e) * 8 + std::size_t(blk) * 3 + std::size_t(j);  // extent: 8 Recs
        CHECK(out[k].c == in[k].c);
        CHECK(out[k].l == in[k].l);
        CHECK(out[k].s == in[k].s);
        CHECK(out[k].d == in[k].d);
      }
  // the gaps (third of each block of three) stay untouched
  CHECK(out[2].l == 0);
}
