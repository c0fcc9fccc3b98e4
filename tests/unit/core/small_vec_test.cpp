// core::SmallVec: inline up to N, on the heap beyond, and copies and moves
// that never point into the source's inline storage (a nonblocking
// neighbourhood collective copies its block lists into its own state).
#include <doctest/doctest.h>

#include <initializer_list>
#include <utility>

#include "core/small_vec.hpp"

using ringmpi::core::SmallVec;

namespace {

struct Pair {
  long a;
  int b;
};

template <class V>
void fill(V& v, int n) {
  for (int i = 0; i < n; ++i) v.push_back(Pair{i, -i});
}

template <class V>
void check(const V& v, int n) {
  REQUIRE(v.size() == static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    CHECK(v[static_cast<std::size_t>(i)].a == i);
    CHECK(v[static_cast<std::size_t>(i)].b == -i);
  }
}

}  // namespace

TEST_CASE("SmallVec keeps its elements inline and beyond") {
  for (int n : {0, 1, 3, 4, 5, 17}) {
    SmallVec<Pair, 4> v;
    fill(v, n);
    check(v, n);
    // A copy and a move hold the same elements, and outlive the source.
    SmallVec<Pair, 4> copy;
    {
      SmallVec<Pair, 4> src;
      fill(src, n);
      copy = src;
      SmallVec<Pair, 4> moved(std::move(src));
      check(moved, n);
      CHECK(src.empty());
    }
    check(copy, n);
    SmallVec<Pair, 4> assigned;
    fill(assigned, 9);
    assigned = std::move(copy);
    check(assigned, n);
  }
}

TEST_CASE("SmallVec resize value-initializes and assign fills") {
  SmallVec<int, 2> v;
  v.push_back(7);
  v.resize(5);
  REQUIRE(v.size() == 5);
  CHECK(v[0] == 7);
  for (std::size_t i = 1; i < 5; ++i) CHECK(v[i] == 0);
  v.assign(3, v[0]);  // from one of its own elements
  REQUIRE(v.size() == 3);
  for (int x : v) CHECK(x == 7);
  SmallVec<char, 3> w(10, 1);
  int sum = 0;
  for (char c : w) sum += c;
  CHECK(sum == 10);
  w.clear();
  CHECK(w.empty());
}
