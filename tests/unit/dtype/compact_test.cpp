// Large regular types keep a small layout, and pack correctly without a
// flattened block list.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "dtype/construct.hpp"
#include "dtype/layout.hpp"

using namespace ringmpi::dtype;

namespace {

std::size_t nodes(const Node& n) {
  std::size_t k = 1;
  if (n.child) k += nodes(*n.child);
  for (const Node::Part& p : n.parts) k += nodes(*p.node);
  return k;
}

}  // namespace

TEST_CASE("a vector of a million blocks is one repeat node") {
  std::string why;
  TypePtr v = make_vector(1000000, 1, 2, lookup_shared(MPI_DOUBLE), &why);
  REQUIRE(v);
  commit(*v);
  CHECK(nodes(*v->layout) == 2);
  CHECK(v->layout->nblocks == 1000000);
  CHECK(v->blocks.empty());  // too many to flatten; the walker does not need them
  std::vector<double> src(2000000);
  std::iota(src.begin(), src.end(), 0.0);
  std::vector<double> out(1000000);
  pack(src.data(), 1, *v, 0, out.data(), out.size() * sizeof(double));
  for (std::size_t i = 0; i < out.size(); i += 9973) CHECK(out[i] == double(2 * i));
  CHECK(out.back() == double(2 * (out.size() - 1)));
  // Resuming in the middle of the stream.
  double one[3];
  pack(src.data(), 1, *v, 500000 * sizeof(double), one, sizeof one);
  CHECK(one[0] == 1000000.0);
  CHECK(one[2] == 1000004.0);
}

TEST_CASE("vector of vector stays compact") {
  std::string why;
  TypePtr inner = make_vector(1000, 2, 3, lookup_shared(MPI_INT), &why);
  TypePtr outer = make_hvector(1000, 1, 20000, inner, &why);
  REQUIRE(outer);
  CHECK(nodes(*outer->layout) <= 3);
  CHECK(outer->layout->nblocks == 1000000);
  CHECK(outer->size == 1000u * 1000u * 8u);
}

TEST_CASE("tiling copies merge into one block and move without packing") {
  std::string why;
  TypePtr c = make_contiguous(1000000, lookup_shared(MPI_INT), &why);
  commit(*c);
  CHECK(c->contiguous());
  TypePtr v = make_vector(100, 4, 4, lookup_shared(MPI_DOUBLE), &why);
  commit(*v);
  CHECK(v->contiguous());
  CHECK(v->blocks.size() == 1);
  // Regular indexed_block becomes a repeat.
  std::vector<int> disp(5000);
  for (int i = 0; i < 5000; ++i) disp[std::size_t(i)] = 3 * i;
  TypePtr ib = make_indexed_block(5000, 2, disp.data(), lookup_shared(MPI_INT), &why);
  CHECK(ib->layout->kind == Node::Kind::repeat);
  // A 3-d subarray is three repeats at most.
  const int sizes[] = {64, 64, 64}, subs[] = {32, 32, 32}, starts[] = {8, 8, 8};
  TypePtr sa = make_subarray(3, sizes, subs, starts, MPI_ORDER_C, lookup_shared(MPI_DOUBLE), &why);
  CHECK(nodes(*sa->layout) <= 4);
}

TEST_CASE("large packs and unpacks (streamed stores) move the right bytes") {
  // Block lengths around the streaming thresholds, buffers at odd addresses.
  for (const std::size_t block : {std::size_t(64), std::size_t(100), std::size_t(1500)}) {
    CAPTURE(block);
    const std::size_t blocks = ((9u << 20) / block) + 3, gap = 37;
    std::string why;
    TypePtr v = make_hvector(int(blocks), int(block), MPI_Aint(block + gap), lookup_shared(MPI_BYTE), &why);
    REQUIRE(v);
    commit(*v);
    const std::size_t bytes = blocks * block;
    REQUIRE(bytes >= (8u << 20));
    std::vector<unsigned char> typed(blocks * (block + gap) + 8), packed(bytes + 8), back(typed.size());
    for (std::size_t i = 0; i < typed.size(); ++i) typed[i] = static_cast<unsigned char>(i * 131 + (i >> 10));
    unsigned char* src = typed.data() + 3;
    unsigned char* out = packed.data() + 5;
    pack(src, 1, *v, 0, out, bytes);
    bool same = true;
    for (std::size_t b = 0; b < blocks && same; ++b)
      same = std::memcmp(out + b * block, src + b * (block + gap), block) == 0;
    CHECK(same);
    std::fill(back.begin(), back.end(), 0xAB);
    unsigned char* dst = back.data() + 1;
    unpack(dst, 1, *v, 0, out, bytes);
    same = true;
    for (std::size_t b = 0; b < blocks && same; ++b)
      same = std::memcmp(dst + b * (block + gap), src + b * (block + gap), block) == 0 &&
             dst[b * (block + gap) + block] == 0xAB;
    CHECK(same);
  }
}
