#include "dtype/datatype.hpp"

#include <algorithm>
#include <complex>
#include <cstring>

#include "core/runtime.hpp"

namespace ringmpi::dtype {
namespace {

template <class T>
Datatype basic(const char* name) {
  Datatype d;
  d.size = sizeof(T);
  d.extent = d.true_extent = sizeof(T);
  d.committed = d.predefined = true;
  d.blocks = {{0, sizeof(T)}};
  d.name = name;
  return d;
}

// The C pair types of MINLOC/MAXLOC: value then int, laid out as the struct.
template <class V>
Datatype pair(const char* name) {
  struct P {
    V v;
    int i;
  };
  Datatype d;
  d.size = sizeof(V) + sizeof(int);
  d.extent = d.true_extent = sizeof(P);
  d.committed = d.predefined = true;
  if (offsetof(P, i) == sizeof(V))
    d.blocks = {{0, sizeof(V) + sizeof(int)}};
  else
    d.blocks = {{0, sizeof(V)}, {static_cast<std::ptrdiff_t>(offsetof(P, i)), sizeof(int)}};
  d.true_extent = static_cast<std::ptrdiff_t>(offsetof(P, i) + sizeof(int));
  d.name = name;
  return d;
}

// Position of stream byte `offset` within (count, type): element and block.
struct Cursor {
  std::size_t elem, block, in_block;
};
Cursor seek(const Datatype& t, std::size_t offset) {
  Cursor c{offset / t.size, 0, offset % t.size};
  while (c.in_block >= t.blocks[c.block].length) c.in_block -= t.blocks[c.block++].length;
  return c;
}

// Calls f(address, length) for each contiguous piece of stream bytes
// [offset, offset+bytes); f returns false to stop early.
template <class F>
void walk(const void* buf, const Datatype& t, std::size_t offset, std::size_t bytes, F&& f) {
  if (bytes == 0 || t.size == 0) return;
  Cursor c = seek(t, offset);
  auto* base = static_cast<const std::byte*>(buf);
  while (bytes > 0) {
    const Block& b = t.blocks[c.block];
    const std::size_t n = std::min(bytes, b.length - c.in_block);
    const std::byte* p = base + std::ptrdiff_t(c.elem) * t.extent + b.offset + std::ptrdiff_t(c.in_block);
    if (!f(p, n)) return;
    bytes -= n;
    c.in_block += n;
    if (c.in_block == b.length) {
      c.in_block = 0;
      if (++c.block == t.blocks.size()) {
        c.block = 0;
        ++c.elem;
      }
    }
  }
}

}  // namespace

State::State() {
  auto put = [this](MPI_Datatype h, Datatype d) {
    table.put_predefined(core::handle_index(h), std::make_unique<Datatype>(std::move(d)));
  };
  put(MPI_CHAR, basic<char>("MPI_CHAR"));
  put(MPI_SHORT, basic<short>("MPI_SHORT"));
  put(MPI_INT, basic<int>("MPI_INT"));
  put(MPI_LONG, basic<long>("MPI_LONG"));
  put(MPI_LONG_LONG_INT, basic<long long>("MPI_LONG_LONG_INT"));
  put(MPI_SIGNED_CHAR, basic<signed char>("MPI_SIGNED_CHAR"));
  put(MPI_UNSIGNED_CHAR, basic<unsigned char>("MPI_UNSIGNED_CHAR"));
  put(MPI_UNSIGNED_SHORT, basic<unsigned short>("MPI_UNSIGNED_SHORT"));
  put(MPI_UNSIGNED, basic<unsigned>("MPI_UNSIGNED"));
  put(MPI_UNSIGNED_LONG, basic<unsigned long>("MPI_UNSIGNED_LONG"));
  put(MPI_UNSIGNED_LONG_LONG, basic<unsigned long long>("MPI_UNSIGNED_LONG_LONG"));
  put(MPI_FLOAT, basic<float>("MPI_FLOAT"));
  put(MPI_DOUBLE, basic<double>("MPI_DOUBLE"));
  put(MPI_LONG_DOUBLE, basic<long double>("MPI_LONG_DOUBLE"));
  put(MPI_WCHAR, basic<wchar_t>("MPI_WCHAR"));
  put(MPI_C_BOOL, basic<bool>("MPI_C_BOOL"));
  put(MPI_INT8_T, basic<std::int8_t>("MPI_INT8_T"));
  put(MPI_INT16_T, basic<std::int16_t>("MPI_INT16_T"));
  put(MPI_INT32_T, basic<std::int32_t>("MPI_INT32_T"));
  put(MPI_INT64_T, basic<std::int64_t>("MPI_INT64_T"));
  put(MPI_UINT8_T, basic<std::uint8_t>("MPI_UINT8_T"));
  put(MPI_UINT16_T, basic<std::uint16_t>("MPI_UINT16_T"));
  put(MPI_UINT32_T, basic<std::uint32_t>("MPI_UINT32_T"));
  put(MPI_UINT64_T, basic<std::uint64_t>("MPI_UINT64_T"));
  put(MPI_C_FLOAT_COMPLEX, basic<std::complex<float>>("MPI_C_FLOAT_COMPLEX"));
  put(MPI_C_DOUBLE_COMPLEX, basic<std::complex<double>>("MPI_C_DOUBLE_COMPLEX"));
  put(MPI_C_LONG_DOUBLE_COMPLEX, basic<std::complex<long double>>("MPI_C_LONG_DOUBLE_COMPLEX"));
  put(MPI_BYTE, basic<unsigned char>("MPI_BYTE"));
  put(MPI_PACKED, basic<unsigned char>("MPI_PACKED"));
  put(MPI_AINT, basic<MPI_Aint>("MPI_AINT"));
  put(MPI_OFFSET, basic<MPI_Offset>("MPI_OFFSET"));
  put(MPI_COUNT, basic<MPI_Count>("MPI_COUNT"));
  put(MPI_CXX_BOOL, basic<bool>("MPI_CXX_BOOL"));
  put(MPI_CXX_FLOAT_COMPLEX, basic<std::complex<float>>("MPI_CXX_FLOAT_COMPLEX"));
  put(MPI_CXX_DOUBLE_COMPLEX, basic<std::complex<double>>("MPI_CXX_DOUBLE_COMPLEX"));
  put(MPI_CXX_LONG_DOUBLE_COMPLEX, basic<std::complex<long double>>("MPI_CXX_LONG_DOUBLE_COMPLEX"));
  put(MPI_FLOAT_INT, pair<float>("MPI_FLOAT_INT"));
  put(MPI_DOUBLE_INT, pair<double>("MPI_DOUBLE_INT"));
  put(MPI_LONG_INT, pair<long>("MPI_LONG_INT"));
  put(MPI_2INT, pair<int>("MPI_2INT"));
  put(MPI_SHORT_INT, pair<short>("MPI_SHORT_INT"));
  put(MPI_LONG_DOUBLE_INT, pair<long double>("MPI_LONG_DOUBLE_INT"));
}

State& state() {
  auto& p = core::rt().dtypes;
  if (!p) p = std::make_unique<State>();
  return *p;
}

const Datatype* lookup(MPI_Datatype h) { return state().table.get(h); }

void pack(const void* buf, int /*count*/, const Datatype& t, std::size_t offset, void* dst, std::size_t bytes) {
  auto* out = static_cast<std::byte*>(dst);
  walk(buf, t, offset, bytes, [&](const std::byte* p, std::size_t n) {
    std::memcpy(out, p, n);
    out += n;
    return true;
  });
}

void unpack(void* buf, int /*count*/, const Datatype& t, std::size_t offset, const void* src, std::size_t bytes) {
  auto* in = static_cast<const std::byte*>(src);
  walk(buf, t, offset, bytes, [&](const std::byte* p, std::size_t n) {
    std::memcpy(const_cast<std::byte*>(p), in, n);
    in += n;
    return true;
  });
}

std::size_t to_iov(const void* buf, int /*count*/, const Datatype& t, std::size_t offset, std::size_t bytes,
                   iovec* iov, std::size_t maxiov, std::size_t* covered) {
  std::size_t k = 0;
  *covered = 0;
  walk(buf, t, offset, bytes, [&](const std::byte* p, std::size_t n) {
    if (k > 0 && static_cast<std::byte*>(iov[k - 1].iov_base) + iov[k - 1].iov_len == p) {
      iov[k - 1].iov_len += n;
    } else {
      if (k == maxiov) return false;
      iov[k++] = {const_cast<std::byte*>(p), n};
    }
    *covered += n;
    return true;
  });
  return k;
}

}  // namespace ringmpi::dtype
