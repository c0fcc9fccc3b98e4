// Groups of up to 2e9 members over a virtual world: range-built groups must
// stay a few pieces and every operation must run without enumerating. The
// answers are checked at sampled ranks against models computed from the
// operands (which are themselves checked first).
#include <doctest/doctest.h>

#include <climits>
#include <random>

#include "group/algebra.hpp"
#include "group/validate.hpp"

using namespace ringmpi::group;

namespace {

using Rng = std::mt19937_64;
i64 pick(Rng& rng, i64 lo, i64 hi) { return std::uniform_int_distribution<i64>(lo, hi)(rng); }

// range_incl(g, progs), computed from its definition.
struct InclModel {
  const Group& g;
  std::vector<Prog> progs;
  std::vector<i64> prefix;
  i64 size = 0;
  InclModel(const Group& g_, std::vector<Prog> p) : g(g_), progs(std::move(p)) {
    for (const Prog& x : progs) {
      prefix.push_back(size);
      size += x.count;
    }
  }
  i64 at(i64 r) const {
    const std::size_t i = static_cast<std::size_t>(std::upper_bound(prefix.begin(), prefix.end(), r) - prefix.begin()) - 1;
    return g.world_rank(static_cast<int>(progs[i].at(r - prefix[i])));
  }
  i64 find(i64 w) const {
    const i64 k = g.find(w);
    if (k < 0) return -1;
    for (std::size_t i = 0; i < progs.size(); ++i)
      if (const i64 j = prog_find(progs[i], k); j >= 0) return prefix[i] + j;
    return -1;
  }
};

// range_excl(g, progs), computed from its definition.
struct ExclModel {
  const Group& g;
  std::vector<Prog> progs;  // increasing
  i64 size;
  ExclModel(const Group& g_, const std::vector<Prog>& p) : g(g_) {
    size = g.size();
    for (const Prog& x : p) {
      progs.push_back(increasing(x));
      size -= x.count;
    }
  }
  bool excluded(i64 k) const {
    for (const Prog& p : progs)
      if (prog_find(p, k) >= 0) return true;
    return false;
  }
  i64 kept_below(i64 k) const {  // kept ranks among 0..k-1
    i64 n = k;
    for (const Prog& p : progs)
      if (k > p.first) n -= std::min(p.count, (k - 1 - p.first) / p.stride + 1);
    return n;
  }
  i64 at(i64 r) const {  // smallest k with kept_below(k + 1) > r
    i64 lo = 0, hi = g.size() - 1;
    while (lo < hi) {
      const i64 mid = lo + (hi - lo) / 2;
      if (kept_below(mid + 1) > r) hi = mid; else lo = mid + 1;
    }
    return g.world_rank(static_cast<int>(lo));
  }
  i64 find(i64 w) const {
    const i64 k = g.find(w);
    return (k < 0 || excluded(k)) ? -1 : kept_below(k);
  }
};

template <class Model>
void expect_model(const Group& got, const Model& m, const Group& universe, Rng& rng) {
  REQUIRE(got.size() == m.size);
  if (m.size == 0) return;
  int bad = 0;
  for (int i = 0; i < 300; ++i) {
    const i64 r = i < 2 ? (i == 0 ? 0 : m.size - 1) : pick(rng, 0, m.size - 1);
    const i64 w = m.at(r);
    bad += got.world_rank(static_cast<int>(r)) != w;
    bad += got.rank_of_world(static_cast<int>(w)) != r;
    const i64 u = universe.world_rank(static_cast<int>(pick(rng, 0, universe.size() - 1)));  // member or not
    const i64 want = m.find(u);
    bad += got.rank_of_world(static_cast<int>(u)) != (want < 0 ? MPI_UNDEFINED : want);
  }
  CHECK(bad == 0);
}

// Valid triples with long counts over a group of n ranks: distinct residues
// of a common stride, disjoint blocks, or a reversed run.
std::vector<Prog> huge_ranges(Rng& rng, i64 n, i64 max_stride) {
  std::vector<Prog> out;
  for (int tries = 0; out.empty() && tries < 50; ++tries) {
    const int k = static_cast<int>(pick(rng, 1, 3));
    const i64 s = pick(rng, 0, 1) ? pick(rng, 2, 9) : pick(rng, 10, max_stride);
    int t[3][3];
    for (int i = 0; i < k; ++i) {
      switch (pick(rng, 0, 2)) {
        case 0: {  // residue i of stride s over everything
          const i64 f = std::min<i64>(n - 1, (i * 7 + pick(rng, 0, 3)) % s);
          t[i][0] = static_cast<int>(f);
          t[i][1] = static_cast<int>(n - 1);
          t[i][2] = static_cast<int>(s);
          break;
        }
        case 1: {  // block i of k, any stride
          const i64 lo = n / k * i, hi = n / k * (i + 1) - 1;
          t[i][0] = static_cast<int>(pick(rng, lo, std::max(lo, lo + (hi - lo) / 4)));
          t[i][1] = static_cast<int>(hi);
          t[i][2] = static_cast<int>(pick(rng, 1, 3));
          break;
        }
        default: {  // block i of k, backwards
          const i64 lo = n / k * i, hi = n / k * (i + 1) - 1;
          t[i][0] = static_cast<int>(hi);
          t[i][1] = static_cast<int>(lo);
          t[i][2] = static_cast<int>(-pick(rng, 1, 5));
          break;
        }
      }
    }
    if (check_ranges(n, k, t, &out)) out.clear();
  }
  return out;
}

}  // namespace

TEST_CASE("range-built groups take a constant number of pieces whatever their size") {
  for (i64 n : {i64{1000}, i64{1000000}, i64{1000000000}, i64{INT_MAX} - 1}) {
    CAPTURE(n);
    const GroupPtr world = Group::from_runs({{0, 1, static_cast<int>(n)}});
    const GroupPtr even = range_incl(*world, {make_prog(0, 2, (n - 1) / 2 + 1)});
    CHECK(even->pieces().size() == 1);
    CHECK(even->size() == (n + 1) / 2);
    CHECK(even->world_rank(even->size() - 1) == 2 * (even->size() - 1));
    CHECK(even->rank_of_world(static_cast<int>(n / 2 * 2 - 1)) == MPI_UNDEFINED);
    const GroupPtr odd = range_excl(world, {make_prog(0, 2, (n - 1) / 2 + 1)});
    CHECK(odd->pieces().size() == 1);
    CHECK(compare(*odd, *difference(world, even)) == MPI_IDENT);
    CHECK(compare(*set_union(even, odd), *world) == MPI_SIMILAR);
    CHECK(compare(*set_union(range_incl(*world, {make_prog(0, 1, n / 2)}), world), *world) == MPI_IDENT);
    CHECK(intersection(even, odd)->size() == 0);

    // All but every third rank: one periodic piece (the pattern {1, 2}).
    const GroupPtr thirds = range_excl(world, {make_prog(0, 3, (n - 1) / 3 + 1)});
    CHECK(thirds->pieces().size() <= 2);
    CHECK(thirds->size() == n - ((n - 1) / 3 + 1));
    CHECK(thirds->world_rank(thirds->size() - 1) == (n % 3 == 1 ? n - 2 : n - 1));
    CHECK(thirds->rank_of_world(static_cast<int>(n / 3 * 3)) == MPI_UNDEFINED);
    CHECK(thirds->rank_of_world(static_cast<int>(n / 3 * 3 - 1)) == n / 3 * 2 - 1);
    // Reversal and a transposition (the cyclic distribution 0, 4, 8, ..., 1, 5, ...).
    const GroupPtr rev = range_incl(*world, {make_prog(n - 1, -1, n)});
    CHECK(rev->pieces().size() == 1);
    CHECK(compare(*rev, *world) == MPI_SIMILAR);
    std::vector<Prog> cyclic;
    for (int i = 0; i < 4; ++i) cyclic.push_back(make_prog(i, 4, (n - 1 - i) / 4 + 1));
    const GroupPtr tr = range_incl(*world, cyclic);
    CHECK(tr->pieces().size() == 4);
    CHECK(tr->rank_of_world(5) == (n - 1) / 4 + 1 + 1);
    CHECK(compare(*tr, *world) == MPI_SIMILAR);
  }
}

// Checks intersection, difference and union of x and y by their defining
// properties at sampled members; returns the largest piece count.
std::size_t expect_set_ops(const GroupPtr& x, const GroupPtr& y, Rng& rng) {
  const GroupPtr in = intersection(x, y), out = difference(x, y), un = set_union(x, y);
  CHECK(in->size() + out->size() == x->size());
  const GroupPtr extra = difference(y, x);
  CHECK(un->size() == x->size() + extra->size());
  int bad = 0;
  for (int i = 0; i < 200 && x->size() > 0; ++i) {
    const i64 w = x->world_rank(static_cast<int>(pick(rng, 0, x->size() - 1)));
    const bool both = y->find(w) >= 0;
    bad += (in->find(w) >= 0) != both;
    bad += (out->find(w) >= 0) == both;
    bad += un->find(w) != x->find(w);  // x comes first, in its order
    for (const GroupPtr& r : {in, out})  // the order of x is kept
      if (r->size() > 1) {
        const i64 k = pick(rng, 0, r->size() - 2);
        bad += x->find(r->world_rank(static_cast<int>(k))) >= x->find(r->world_rank(static_cast<int>(k + 1)));
      }
    if (extra->size() > 0) {
      const i64 k = pick(rng, 0, extra->size() - 1);
      const i64 e = extra->world_rank(static_cast<int>(k));
      bad += un->world_rank(static_cast<int>(x->size() + k)) != e;
      bad += x->find(e) >= 0 || y->find(e) < 0;
      if (k + 1 < extra->size()) bad += y->find(e) >= y->find(extra->world_rank(static_cast<int>(k + 1)));
    }
  }
  CHECK(bad == 0);
  CHECK(compare(*in, *x) == (out->size() == 0 ? MPI_IDENT : MPI_UNEQUAL));
  return std::max({in->pieces().size(), out->pieces().size(), un->pieces().size()});
}

TEST_CASE("random range and set operations on huge virtual worlds, periods up to 64") {
  Rng rng(77);
  for (int round = 0; round < 60; ++round) {
    CAPTURE(round);
    const i64 n = pick(rng, 100000000, INT_MAX - 1);
    const GroupPtr world = Group::from_runs({{0, 1, static_cast<int>(n)}});
    const std::vector<Prog> t1 = huge_ranges(rng, n, 64), t2 = huge_ranges(rng, n, 64);
    REQUIRE(!t1.empty());
    REQUIRE(!t2.empty());
    const GroupPtr a = range_incl(*world, t1);
    const GroupPtr b = range_excl(world, t2);
    expect_model(*a, InclModel(*world, t1), *world, rng);
    expect_model(*b, ExclModel(*world, t2), *world, rng);
    CHECK(a->pieces().size() <= 3);
    CHECK(b->pieces().size() <= 12);
    if (a->size() < 1000 || b->size() < 1000) continue;
    // One level deeper: ranges of the range-built groups.
    const std::vector<Prog> t3 = huge_ranges(rng, b->size(), 64), t4 = huge_ranges(rng, a->size(), 64);
    REQUIRE(!t3.empty());
    REQUIRE(!t4.empty());
    const GroupPtr c = range_incl(*b, t3);
    const GroupPtr d = range_excl(a, t4);
    expect_model(*c, InclModel(*b, t3), *world, rng);
    expect_model(*d, ExclModel(*a, t4), *world, rng);
    CHECK(c->pieces().size() <= 64);
    CHECK(d->pieces().size() <= 64);
    // Set operations: their size follows the common period of the operands
    // (here at most a few thousand pieces), not the number of members.
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}, std::pair{c, d}, std::pair{a, c}, std::pair{d, b}})
      CHECK(expect_set_ops(x, y, rng) <= 4096);
  }
}

TEST_CASE("long periods: correct, and set operations cost O(size / period)") {
  Rng rng(78);
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    const i64 n = pick(rng, 100000000, INT_MAX - 1);
    const GroupPtr world = Group::from_runs({{0, 1, static_cast<int>(n)}});
    const std::vector<Prog> t1 = huge_ranges(rng, n, 100000), t2 = huge_ranges(rng, n, 100000);
    REQUIRE(!t1.empty());
    REQUIRE(!t2.empty());
    const GroupPtr a = range_incl(*world, t1);
    const GroupPtr b = range_excl(world, t2);
    expect_model(*a, InclModel(*world, t1), *world, rng);
    expect_model(*b, ExclModel(*world, t2), *world, rng);
    // Excluding interleaved triples of very different strides leaves the
    // denser one's complement cut at each member of the sparser one: at
    // most size/4096 cuts per triple (rankset.hpp).
    const std::size_t bound = static_cast<std::size_t>(4 * n / 4096 + 256);
    CHECK(a->pieces().size() <= 3);
    CHECK(b->pieces().size() <= bound);
    if (b->size() < 1000) continue;
    const std::vector<Prog> t3 = huge_ranges(rng, b->size(), 100000);
    REQUIRE(!t3.empty());
    const GroupPtr c = range_incl(*b, t3);
    expect_model(*c, InclModel(*b, t3), *world, rng);
    CHECK(c->pieces().size() <= bound);
    for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}, std::pair{c, a}})
      CHECK(expect_set_ops(x, y, rng) <= bound);
  }
}
