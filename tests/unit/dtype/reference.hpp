// A naive reference for datatype tests: expands a type's constructor tree
// (Datatype::env) into its full type map, straight from the definitions in
// MPI-3.1 §4.1, without the layout engine.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype::test {

struct Entry {
  std::ptrdiff_t disp;
  std::size_t size;  // one basic element
};

inline void expand(const Datatype& t, std::ptrdiff_t base, std::vector<Entry>& out) {
  if (t.predefined) {
    if (t.elements == 2) {  // pair type: value, then int
      out.push_back({base, t.size - sizeof(int)});
      out.push_back({base + t.true_extent - std::ptrdiff_t(sizeof(int)), sizeof(int)});
    } else {
      out.push_back({base, t.size});
    }
    return;
  }
  const Envelope& e = t.env;
  const auto& ints = e.ints;
  const auto& addrs = e.addrs;
  switch (e.combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      expand(*e.types[0], base, out);
      return;
    case MPI_COMBINER_CONTIGUOUS: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i) expand(c, base + i * c.extent, out);
      return;
    }
    case MPI_COMBINER_VECTOR: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i)
        for (int j = 0; j < ints[1]; ++j) expand(c, base + (std::ptrdiff_t(i) * ints[2] + j) * c.extent, out);
      return;
    }
    case MPI_COMBINER_HVECTOR: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i)
        for (int j = 0; j < ints[1]; ++j) expand(c, base + i * addrs[0] + j * c.extent, out);
      return;
    }
    case MPI_COMBINER_INDEXED: {
      const Datatype& c = *e.types[0];
      const int n = ints[0];
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < ints[1 + i]; ++j) expand(c, base + (std::ptrdiff_t(ints[1 + n + i]) + j) * c.extent, out);
      return;
    }
    case MPI_COMBINER_HINDEXED: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i)
        for (int j = 0; j < ints[1 + i]; ++j) expand(c, base + addrs[i] + j * c.extent, out);
      return;
    }
    case MPI_COMBINER_INDEXED_BLOCK: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i)
        for (int j = 0; j < ints[1]; ++j) expand(c, base + (std::ptrdiff_t(ints[2 + i]) + j) * c.extent, out);
      return;
    }
    case MPI_COMBINER_HINDEXED_BLOCK: {
      const Datatype& c = *e.types[0];
      for (int i = 0; i < ints[0]; ++i)
        for (int j = 0; j < ints[1]; ++j) expand(c, base + addrs[i] + j * c.extent, out);
      return;
    }
    case MPI_COMBINER_STRUCT:
      for (int i = 0; i < ints[0]; ++i) {
        const Datatype& c = *e.types[std::size_t(i)];
        for (int j = 0; j < ints[1 + i]; ++j) expand(c, base + addrs[i] + j * c.extent, out);
      }
      return;
    case MPI_COMBINER_SUBARRAY: {
      const Datatype& c = *e.types[0];
      const int nd = ints[0];
      const int* sizes = &ints[1];
      const int* subs = &ints[1 + nd];
      const int* starts = &ints[1 + 2 * nd];
      const bool corder = ints[1 + 3 * nd] == MPI_ORDER_C;
      std::vector<int> idx(std::size_t(nd), 0);
      for (;;) {
        // Offset in elements of the full array, row-major for C, column-major for Fortran.
        std::ptrdiff_t off = 0;
        for (int k = 0; k < nd; ++k) {
          const int d = corder ? k : nd - 1 - k;
          off = off * sizes[d] + starts[d] + idx[std::size_t(d)];
        }
        expand(c, base + off * c.extent, out);
        // Next index, fastest dimension first.
        int k = 0;
        for (; k < nd; ++k) {
          const int d = corder ? nd - 1 - k : k;
          if (++idx[std::size_t(d)] < subs[d]) break;
          idx[std::size_t(d)] = 0;
        }
        if (k == nd) return;
      }
    }
    default:
      return;
  }
}

inline std::vector<Entry> type_map(const Datatype& t, int count) {
  std::vector<Entry> out;
  for (int i = 0; i < count; ++i) expand(t, i * t.extent, out);
  return out;
}

// The packed stream of (base, count, t) as the reference sees it.
inline std::vector<unsigned char> ref_pack(const unsigned char* base, const std::vector<Entry>& map) {
  std::vector<unsigned char> out;
  for (const Entry& e : map) out.insert(out.end(), base + e.disp, base + e.disp + std::ptrdiff_t(e.size));
  return out;
}

inline void ref_unpack(unsigned char* base, const std::vector<Entry>& map, const unsigned char* src) {
  for (const Entry& e : map) {
    std::memcpy(base + e.disp, src, e.size);
    src += e.size;
  }
}

}  // namespace ringmpi::dtype::test
