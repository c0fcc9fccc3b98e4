// The compact layout of a datatype: a tree of three node kinds whose size
// follows the description of the type, not the number of blocks it covers.
//
//   leaf    merged (offset, length) blocks
//   repeat  `count` copies of a child at disp + i*stride (vector, contiguous, subarray rows)
//   seq     parts (disp, child) in type-map order (struct, irregular indexed)
//
// Builders simplify as they go (a repeat of a block whose stride equals its
// length is one bigger block, a repeat of a repeat that tiles it is one
// repeat, short repeats and sequences of leaves become leaves), so the walker
// (walk.hpp) meets few levels and long runs of equal blocks. Nodes are
// immutable and shared between the types built from each other.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

struct Node {
  enum class Kind : unsigned char { leaf, repeat, seq };
  struct Part {
    std::ptrdiff_t disp;
    NodePtr node;
    std::size_t start;  // data bytes of the parts before this one
  };

  Kind kind = Kind::leaf;
  std::size_t size = 0;     // data bytes
  std::size_t nblocks = 0;  // blocks once fully flattened, before merging (saturates at SIZE_MAX)

  // leaf; starts[i] = data bytes before block i, kept only for long leaves (binary search)
  std::vector<Block> blocks;
  std::vector<std::size_t> starts;

  // repeat
  std::size_t count = 0;
  std::ptrdiff_t disp = 0, stride = 0;
  NodePtr child;

  // seq
  std::vector<Part> parts;
};

// Leaves with at most this many blocks replace short repeats and sequences.
inline constexpr std::size_t kSmallLeaf = 16;

NodePtr empty_node();
NodePtr leaf(std::vector<Block> blocks);  // merges adjacent blocks, drops empty ones
NodePtr repeat(std::size_t count, std::ptrdiff_t stride, NodePtr child);
NodePtr shift(NodePtr n, std::ptrdiff_t by);
NodePtr seq(const std::vector<std::pair<std::ptrdiff_t, NodePtr>>& parts);

// Appends n's blocks placed at `base` to out (merging with its last block);
// false (out unspecified) if that would exceed `limit` blocks.
bool flatten(const Node& n, std::ptrdiff_t base, std::vector<Block>& out, std::size_t limit);

}  // namespace ringmpi::dtype
