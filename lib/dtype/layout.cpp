#include "dtype/layout.hpp"

#include <cstdint>
#include <limits>

namespace ringmpi::dtype {
namespace {

constexpr std::size_t kSat = std::numeric_limits<std::size_t>::max();

std::size_t sat_mul(std::size_t a, std::size_t b) {
  std::size_t r;
  return __builtin_mul_overflow(a, b, &r) ? kSat : r;
}
std::size_t sat_add(std::size_t a, std::size_t b) {
  std::size_t r;
  return __builtin_add_overflow(a, b, &r) ? kSat : r;
}

// Leaves longer than this keep prefix sums so that a walk starting in the
// middle (a transport resuming at some offset) finds its block by bisection.
constexpr std::size_t kIndexedLeaf = 8;

void push_block(std::vector<Block>& out, std::ptrdiff_t off, std::size_t len) {
  if (len == 0) return;
  if (!out.empty()) {
    Block& last = out.back();
    if (last.offset + std::ptrdiff_t(last.length) == off) {
      last.length += len;
      return;
    }
  }
  out.push_back({off, len});
}

NodePtr make_leaf_node(std::vector<Block> merged) {
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::leaf;
  std::size_t size = 0;
  if (merged.size() > kIndexedLeaf) n->starts.reserve(merged.size());
  for (const Block& b : merged) {
    if (merged.size() > kIndexedLeaf) n->starts.push_back(size);
    size += b.length;
  }
  n->size = size;
  n->nblocks = merged.size();
  n->blocks = std::move(merged);
  return n;
}

}  // namespace

NodePtr empty_node() {
  static const NodePtr e = make_leaf_node({});
  return e;
}

NodePtr leaf(std::vector<Block> blocks) {
  std::vector<Block> merged;
  merged.reserve(blocks.size());
  for (const Block& b : blocks) push_block(merged, b.offset, b.length);
  return make_leaf_node(std::move(merged));
}

bool flatten(const Node& n, std::ptrdiff_t base, std::vector<Block>& out, std::size_t limit) {
  switch (n.kind) {
    case Node::Kind::leaf:
      for (const Block& b : n.blocks) {
        push_block(out, base + b.offset, b.length);
        if (out.size() > limit) return false;
      }
      return true;
    case Node::Kind::repeat:
      for (std::size_t i = 0; i < n.count; ++i)
        if (!flatten(*n.child, base + n.disp + std::ptrdiff_t(i) * n.stride, out, limit)) return false;
      return true;
    case Node::Kind::seq:
      for (const Node::Part& p : n.parts)
        if (!flatten(*p.node, base + p.disp, out, limit)) return false;
      return true;
  }
  return false;
}

NodePtr repeat(std::size_t count, std::ptrdiff_t stride, NodePtr child) {
  if (count == 0 || child->size == 0) return empty_node();
  if (count == 1) return child;
  if (child->kind == Node::Kind::leaf) {
    const auto& cb = child->blocks;
    // Copies that tile each other: one longer block.
    if (cb.size() == 1 && stride == std::ptrdiff_t(cb[0].length))
      return make_leaf_node({{cb[0].offset, cb[0].length * count}});
    if (sat_mul(count, cb.size()) <= kSmallLeaf) {
      std::vector<Block> out;
      flatten(*child, 0, out, kSmallLeaf);  // cannot exceed: count*blocks <= limit
      std::vector<Block> all;
      for (std::size_t i = 0; i < count; ++i)
        for (const Block& b : out) push_block(all, b.offset + std::ptrdiff_t(i) * stride, b.length);
      return make_leaf_node(std::move(all));
    }
  }
  if (child->kind == Node::Kind::repeat) {
    // Move the child's displacement out so that the tiling test below sees it.
    if (child->disp != 0) {
      auto c = std::make_shared<Node>(*child);
      c->disp = 0;
      return shift(repeat(count, stride, c), child->disp);
    }
    // An inner repeat that exactly fills the outer stride continues it.
    if (std::ptrdiff_t(child->count) * child->stride == stride)
      return repeat(count * child->count, child->stride, child->child);
  }
  auto n = std::make_shared<Node>();
  n->kind = Node::Kind::repeat;
  n->size = count * child->size;
  n->nblocks = sat_mul(count, child->nblocks);
  n->count = count;
  n->stride = stride;
  n->child = std::move(child);
  return n;
}

NodePtr shift(NodePtr n, std::ptrdiff_t by) {
  if (by == 0 || n->size == 0) return n;
  switch (n->kind) {
    case Node::Kind::leaf:
      if (n->blocks.size() <= 64) {
        std::vector<Block> b = n->blocks;
        for (Block& x : b) x.offset += by;
        return make_leaf_node(std::move(b));
      }
      break;
    case Node::Kind::repeat: {
      auto c = std::make_shared<Node>(*n);
      c->disp += by;
      return c;
    }
    case Node::Kind::seq:
      if (n->parts.size() <= 64) {
        auto c = std::make_shared<Node>(*n);
        for (Node::Part& p : c->parts) p.disp += by;
        return c;
      }
      break;
  }
  auto s = std::make_shared<Node>();
  s->kind = Node::Kind::seq;
  s->size = n->size;
  s->nblocks = n->nblocks;
  s->parts.push_back({by, std::move(n), 0});
  return s;
}

NodePtr seq(const std::vector<std::pair<std::ptrdiff_t, NodePtr>>& in) {
  std::vector<std::pair<std::ptrdiff_t, NodePtr>> parts;
  parts.reserve(in.size());
  for (const auto& p : in)
    if (p.second->size > 0) parts.push_back(p);
  if (parts.empty()) return empty_node();
  if (parts.size() == 1) return shift(parts[0].second, parts[0].first);

  // The same child at evenly spaced displacements (indexed_block with a
  // regular pattern, a struct of equal members) is a repeat.
  {
    const std::ptrdiff_t step = parts[1].first - parts[0].first;
    bool regular = true;
    for (std::size_t i = 1; i < parts.size() && regular; ++i)
      regular = parts[i].second == parts[0].second && parts[i].first - parts[i - 1].first == step;
    if (regular) return shift(repeat(parts.size(), step, parts[0].second), parts[0].first);
  }

  // Runs of leaves and small parts become leaves; the rest stay parts.
  std::vector<Node::Part> out;
  std::vector<Block> run;
  std::size_t nblocks = 0, size = 0;
  auto flush = [&] {
    if (run.empty()) return;
    NodePtr l = make_leaf_node(std::move(run));
    run = {};
    out.push_back({0, std::move(l), 0});
  };
  for (const auto& [disp, node] : parts) {
    nblocks = sat_add(nblocks, node->nblocks);
    size += node->size;
    if (node->kind == Node::Kind::leaf || node->nblocks <= kSmallLeaf) {
      flatten(*node, disp, run, kSat);
    } else {
      flush();
      out.push_back({disp, node, 0});
    }
  }
  flush();
  if (out.size() == 1 && out[0].disp == 0) return out[0].node;
  std::size_t start = 0;
  for (Node::Part& p : out) {
    p.start = start;
    start += p.node->size;
  }
  auto s = std::make_shared<Node>();
  s->kind = Node::Kind::seq;
  s->size = size;
  s->nblocks = nblocks;
  s->parts = std::move(out);
  return s;
}

}  // namespace ringmpi::dtype
