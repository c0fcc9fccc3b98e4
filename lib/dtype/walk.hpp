// Walks the stream bytes of a layout (layout.hpp) as contiguous pieces.
//
// An Op provides
//   bool operator()(std::uintptr_t addr, std::size_t len)     one piece
//   bool run(std::uintptr_t addr, std::ptrdiff_t stride, std::size_t len, std::size_t n)
//                                                            n pieces of len bytes, stride apart
// and returns false to stop the walk. run() is where the time goes for
// strided types (vector, subarray rows), so ops specialise it for small
// fixed lengths. Addresses are integers: with MPI_BOTTOM the base is 0 and the
// displacements are absolute addresses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "dtype/layout.hpp"

namespace ringmpi::dtype {

inline std::uintptr_t advance(std::uintptr_t p, std::ptrdiff_t by) { return p + std::uintptr_t(by); }

template <class Op>
bool visit(const Node& n, std::uintptr_t base, std::size_t skip, std::size_t len, Op& op);

// Stream bytes [skip, skip+len) of `count` copies of `child` at base + i*stride.
template <class Op>
bool visit_repeat(const Node& c, std::ptrdiff_t stride, std::uintptr_t base, std::size_t skip, std::size_t len,
                  Op& op) {
  const std::size_t cs = c.size;
  const std::size_t first = skip / cs;
  std::size_t r = skip % cs;
  std::uintptr_t p = advance(base, std::ptrdiff_t(first) * stride);
  if (c.kind == Node::Kind::leaf && c.blocks.size() == 1) {
    p = advance(p, c.blocks[0].offset);
    if (r != 0) {
      const std::size_t take = std::min(cs - r, len);
      if (!op(p + r, take)) return false;
      len -= take;
      p = advance(p, stride);
    }
    const std::size_t full = len / cs;
    if (full > 0) {
      if (!op.run(p, stride, cs, full)) return false;
      p = advance(p, std::ptrdiff_t(full) * stride);
      len -= full * cs;
    }
    return len == 0 || op(p, len);
  }
  for (;;) {
    const std::size_t take = std::min(cs - r, len);
    if (!visit(c, p, r, take, op)) return false;
    len -= take;
    if (len == 0) return true;
    r = 0;
    p = advance(p, stride);
  }
}

template <class Op>
bool visit(const Node& n, std::uintptr_t base, std::size_t skip, std::size_t len, Op& op) {
  switch (n.kind) {
    case Node::Kind::leaf: {
      std::size_t i = 0, in = skip;
      if (!n.starts.empty()) {
        i = std::size_t(std::upper_bound(n.starts.begin(), n.starts.end(), skip) - n.starts.begin()) - 1;
        in = skip - n.starts[i];
      } else {
        while (in >= n.blocks[i].length) in -= n.blocks[i++].length;
      }
      for (;; ++i) {
        const Block& b = n.blocks[i];
        const std::size_t take = std::min(b.length - in, len);
        if (!op(advance(base, b.offset) + in, take)) return false;
        len -= take;
        if (len == 0) return true;
        in = 0;
      }
    }
    case Node::Kind::repeat:
      return visit_repeat(*n.child, n.stride, advance(base, n.disp), skip, len, op);
    case Node::Kind::seq: {
      auto it = std::upper_bound(n.parts.begin(), n.parts.end(), skip,
                                 [](std::size_t s, const Node::Part& p) { return s < p.start; });
      std::size_t i = std::size_t(it - n.parts.begin()) - 1;
      std::size_t r = skip - n.parts[i].start;
      for (;; ++i) {
        const Node::Part& part = n.parts[i];
        const std::size_t take = std::min(part.node->size - r, len);
        if (!visit(*part.node, advance(base, part.disp), r, take, op)) return false;
        len -= take;
        if (len == 0) return true;
        r = 0;
      }
    }
  }
  return true;
}

// Stream bytes [offset, offset+bytes) of (buf, any count, t).
template <class Op>
bool visit_stream(const void* buf, const Datatype& t, std::size_t offset, std::size_t bytes, Op& op) {
  if (bytes == 0 || t.size == 0) return true;
  return visit_repeat(*t.layout, t.extent, reinterpret_cast<std::uintptr_t>(buf), offset, bytes, op);
}

}  // namespace ringmpi::dtype
