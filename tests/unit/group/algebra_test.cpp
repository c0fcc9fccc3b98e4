// Property tests: the run-based group algebra against the enumerated model
// (reference.hpp) on thousands of random groups and operations.
#include <doctest/doctest.h>

#include <array>
#include <numeric>
#include <random>

#include "group/algebra.hpp"
#include "group/validate.hpp"
#include "reference.hpp"

using namespace ringmpi::group;
using Triples = std::vector<std::array<int, 3>>;

namespace {

using Rng = std::mt19937_64;

int pick(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// g must be v in every way the library reads a group: enumeration, both
// lookups (members and non-members of the virtual world), and MPI_IDENT
// against the same members built point by point.
void expect_same(const Group& g, const ref::V& v, int world) {
  REQUIRE(g.size() == static_cast<int>(v.size()));
  REQUIRE(g.to_world_ranks() == v);
  std::vector<int> inverse(static_cast<std::size_t>(world), MPI_UNDEFINED);
  for (std::size_t i = 0; i < v.size(); ++i) inverse[static_cast<std::size_t>(v[i])] = static_cast<int>(i);
  int bad_at = 0, bad_find = 0;
  for (int r = 0; r < g.size(); ++r) {
    bad_at += g.world_rank(r) != v[static_cast<std::size_t>(r)];
    bad_at += g.at_pieces(r) != v[static_cast<std::size_t>(r)];
  }
  for (int w = -3; w < world + 3; ++w) {
    const int want = (w >= 0 && w < world) ? inverse[static_cast<std::size_t>(w)] : MPI_UNDEFINED;
    bad_find += g.rank_of_world(w) != want;
    bad_find += g.find_pieces(w) != (want == MPI_UNDEFINED ? -1 : want);
  }
  CHECK(bad_at == 0);
  CHECK(bad_find == 0);
  CHECK(compare(g, *Group::from_world_ranks(v)) == MPI_IDENT);
}

std::vector<Prog> progs_of(const Triples& t) {
  std::vector<Prog> p;
  for (const auto& [f, l, s] : t) p.push_back(make_prog(f, s, (l - f) / s + 1));
  return p;
}

// Triples over a group of n ranks; mostly valid, sometimes overlapping or
// malformed (validation is cross-checked against the model).
Triples random_triples(Rng& rng, int n, bool malformed) {
  Triples t;
  const int k = pick(rng, 1, 4);
  const int common_stride = pick(rng, 2, 7);
  for (int i = 0; i < k; ++i) {
    int s;
    switch (pick(rng, 0, 6)) {
      case 0: s = 1; break;
      case 1: s = -1; break;
      case 2: s = 2; break;
      case 3: s = -pick(rng, 2, 5); break;
      case 4: s = common_stride; break;  // interleaved residues of one stride
      case 5: s = pick(rng, 1, std::max(1, n)); break;
      default: s = pick(rng, 3, 9); break;
    }
    const int first = pick(rng, 0, n - 1);
    const int max_count = s > 0 ? (n - 1 - first) / s + 1 : first / -s + 1;
    const int count = pick(rng, 1, std::min(max_count, pick(rng, 0, 1) ? max_count : 8));
    int last = first + (count - 1) * s;
    if (pick(rng, 0, 3) == 0) last += (s > 0 ? 1 : -1) * pick(rng, 0, std::abs(s) - 1);  // last need not be hit
    t.push_back({first, last, s});
  }
  if (malformed) {
    auto& x = t[static_cast<std::size_t>(pick(rng, 0, k - 1))];
    switch (pick(rng, 0, 3)) {
      case 0: x[2] = 0; break;
      case 1: x[0] = pick(rng, 0, 1) ? n + pick(rng, 0, 3) : -1 - pick(rng, 0, 3); break;
      case 2: x[1] = x[0] + (x[2] > 0 ? -1 : 1) * pick(rng, 1, 3); break;
      default: x[1] = x[0] + x[2] * (n + 1); break;  // reaches past the group
    }
  }
  return t;
}

ref::V random_rank_list(Rng& rng, int n, bool sorted) {
  ref::V all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  switch (pick(rng, 0, 2)) {
    case 0: {  // a strided slice, as programs write incl lists
      const int s = pick(rng, 1, 4), f = pick(rng, 0, n - 1);
      ref::V r;
      for (int k = f; k < n && r.size() < 40; k += s) r.push_back(k);
      return r;
    }
    case 1:
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(static_cast<std::size_t>(pick(rng, 0, n)));
      if (sorted) std::sort(all.begin(), all.end());
      return all;
    default:
      all.resize(static_cast<std::size_t>(pick(rng, 0, n)));
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(static_cast<std::size_t>(pick(rng, 0, static_cast<int>(all.size()))));
      return all;
  }
}

struct Entry {
  GroupPtr g;
  ref::V v;
};

}  // namespace

TEST_CASE("group algebra matches the enumerated model on random groups and operations") {
  Rng rng(20240611);
  int ops = 0, checked_invalid = 0;
  for (int round = 0; round < 300; ++round) {
    const int world = pick(rng, 0, 3) == 0 ? pick(rng, 1, 12) : pick(rng, 13, 1500);
    ref::V all(static_cast<std::size_t>(world));
    std::iota(all.begin(), all.end(), 0);
    std::vector<Entry> pool{{Group::from_runs({{0, 1, world}}), all}};
    for (int step = 0; step < 40; ++step, ++ops) {
      const Entry& a = pool[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(pool.size()) - 1))];
      const Entry& b = pool[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(pool.size()) - 1))];
      const int n = a.g->size();
      Entry out;
      const int op = pick(rng, 0, 8);
      CAPTURE(round);
      CAPTURE(step);
      CAPTURE(op);
      if ((op <= 1 || op == 7) && n == 0) continue;
      switch (op) {
        case 0:
        case 1: {
          const Triples t = random_triples(rng, n, pick(rng, 0, 5) == 0);
          std::vector<Prog> progs;
          const Problem p = check_ranges(n, static_cast<int>(t.size()), reinterpret_cast<const int(*)[3]>(t.data()), &progs);
          ref::V ranks;
          const bool ok = ref::expand(t, &ranks) && ref::valid_ranks(ranks, static_cast<std::size_t>(n));
          REQUIRE(!p == ok);
          if (!ok) {
            ++checked_invalid;
            continue;
          }
          CHECK(progs == progs_of(t));
          out = op == 0 ? Entry{range_incl(*a.g, progs), ref::incl(a.v, ranks)}
                        : Entry{range_excl(a.g, progs), ref::excl(a.v, ranks)};
          break;
        }
        case 2:
        case 3: {
          ref::V ranks = random_rank_list(rng, n, op == 3 && pick(rng, 0, 1));
          if (pick(rng, 0, 9) == 0 && !ranks.empty()) ranks.push_back(ranks[0]);  // a repeat
          const Problem p = check_rank_list("ranks", n, static_cast<int>(ranks.size()), ranks.data());
          REQUIRE(!p == ref::valid_ranks(ranks, static_cast<std::size_t>(n)));
          if (p) {
            ++checked_invalid;
            continue;
          }
          const int k = static_cast<int>(ranks.size());
          out = op == 2 ? Entry{incl(*a.g, ranks.data(), k), ref::incl(a.v, ranks)}
                        : Entry{excl(a.g, ranks.data(), k), ref::excl(a.v, ranks)};
          break;
        }
        case 4: out = {set_union(a.g, b.g), ref::set_union(a.v, b.v)}; break;
        case 5: out = {intersection(a.g, b.g), ref::intersection(a.v, b.v)}; break;
        case 6: out = {difference(a.g, b.g), ref::difference(a.v, b.v)}; break;
        case 7: {  // a reordering of a: SIMILAR unless it happens to keep the order
          ref::V perm = a.v;
          std::shuffle(perm.begin(), perm.end(), rng);
          CHECK(compare(*a.g, *Group::from_world_ranks(perm)) == ref::compare(a.v, perm));
          out = {Group::from_world_ranks(perm), perm};
          break;
        }
        default: {
          CHECK(compare(*a.g, *b.g) == ref::compare(a.v, b.v));
          int bad = 0;  // MPI_Group_translate_ranks is world_rank then rank_of_world
          for (int r = 0; r < n; ++r) bad += b.g->rank_of_world(a.g->world_rank(r)) != ref::rank_of(b.v, a.v[static_cast<std::size_t>(r)]);
          CHECK(bad == 0);
          continue;
        }
      }
      expect_same(*out.g, out.v, world);
      if (pool.size() < 10)
        pool.push_back(std::move(out));
      else
        pool[static_cast<std::size_t>(pick(rng, 1, 9))] = std::move(out);
    }
  }
  MESSAGE(ops << " operations, " << checked_invalid << " rejected argument lists");
}

TEST_CASE("periodic results: range_excl and difference with strided groups stay a few pieces") {
  for (int n : {30, 31, 32, 999, 1000, 1001, 100000}) {
    ref::V all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    const GroupPtr world = Group::from_runs({{0, 1, n}});
    for (int s = 2; s <= 7; ++s) {
      CAPTURE(n);
      CAPTURE(s);
      const std::vector<Prog> every_s{make_prog(1, s, (n - 2) / s + 1)};
      const GroupPtr g = range_excl(world, every_s);
      ref::V ranks;
      ref::expand({{1, n - 1, s}}, &ranks);
      CHECK(g->pieces().size() <= 3);
      const GroupPtr strided = range_incl(*world, every_s);
      CHECK(strided->pieces().size() == 1);
      const GroupPtr d = difference(world, strided);
      CHECK(d->pieces().size() <= 3);
      if (n <= 1001) {
        expect_same(*g, ref::excl(all, ranks), n);
        expect_same(*d, ref::excl(all, ranks), n);
        // Composition through a periodic group: every other member of it.
        const int m = g->size();
        const std::vector<Prog> half{make_prog(0, 2, (m - 1) / 2 + 1)};
        ref::V hr;
        ref::expand({{0, m - 1, 2}}, &hr);
        expect_same(*range_incl(*g, half), ref::incl(g->to_world_ranks(), hr), n);
        expect_same(*range_excl(g, half), ref::excl(g->to_world_ranks(), hr), n);
      }
    }
  }
}

TEST_CASE("long patterns (more than 4096 members) against the model") {
  // Periodic pieces this long are matched row by row, a cycle of rows at a
  // time (positions.hpp), not column by column.
  const int n = 30011;
  ref::V all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  const GroupPtr world = Group::from_runs({{0, 1, n}});
  auto excl_every = [&](int first, int s) {
    ref::V r;
    ref::expand({{first, n - 1, s}}, &r);
    return Entry{range_excl(world, {make_prog(first, s, (n - 1 - first) / s + 1)}), ref::excl(all, r)};
  };
  auto incl_ranges = [&](const Triples& t) {
    ref::V r;
    ref::expand(t, &r);
    return Entry{range_incl(*world, progs_of(t)), ref::incl(all, r)};
  };
  const std::vector<Entry> groups{
      excl_every(0, 5003), excl_every(7, 4999), excl_every(3, 3),
      incl_ranges({{1, n - 1, 3}}), incl_ranges({{n - 1, 0, -7}}),
      incl_ranges({{n / 2, n - 1, 1}, {0, n / 2 - 1, 1}}), incl_ranges({{0, n - 1, 2}, {n - 2, 1, -2}}),
      {world, all}};
  for (const Entry& e : groups) {
    expect_same(*e.g, e.v, n);
    CHECK(e.g->pieces().size() <= 3);
  }
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (std::size_t j = 0; j < groups.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      const Entry& a = groups[i];
      const Entry& b = groups[j];
      expect_same(*intersection(a.g, b.g), ref::intersection(a.v, b.v), n);
      expect_same(*difference(a.g, b.g), ref::difference(a.v, b.v), n);
      expect_same(*set_union(a.g, b.g), ref::set_union(a.v, b.v), n);
      CHECK(compare(*a.g, *b.g) == ref::compare(a.v, b.v));
    }
  // Ranges of a long-pattern group, forwards and backwards.
  const Entry& l = groups[0];
  const int m = l.g->size();
  for (const Triples& t : {Triples{{0, m - 1, 2}}, Triples{{m - 1, 0, -3}}, Triples{{5, m - 1, 4999}, {6, m - 1, 5002}},
                           Triples{{100, 20000, 1}}}) {
    ref::V r;
    ref::expand(t, &r);
    REQUIRE(ref::valid_ranks(r, static_cast<std::size_t>(m)));
    expect_same(*range_incl(*l.g, progs_of(t)), ref::incl(l.v, r), n);
    expect_same(*range_excl(l.g, progs_of(t)), ref::excl(l.v, r), n);
  }
}

TEST_CASE("rank lists and triples are validated as the standard says") {
  SUBCASE("incl/excl rank lists") {
    const int bad_range[] = {0, 1, 7};
    Problem p = check_rank_list("ranks", 4, 3, bad_range);
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("ranks[2]=7") != std::string::npos);
    CHECK(p.message.find("0..3") != std::string::npos);
    const int neg[] = {-1};
    CHECK(check_rank_list("ranks", 4, 1, neg).error_class == MPI_ERR_RANK);
    const int dup[] = {3, 1, 2, 1, 3};
    p = check_rank_list("ranks", 4, 5, dup);
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("ranks[3]=1 repeats ranks[1]") != std::string::npos);
    CHECK(!check_rank_list("ranks", 4, 0, nullptr));
    const int one[] = {0};
    CHECK(check_rank_list("ranks", 0, 1, one).message.find("empty") != std::string::npos);
  }
  SUBCASE("range triples") {
    std::vector<Prog> out;
    auto check = [&](int size, Triples t) {
      return check_ranges(size, static_cast<int>(t.size()), reinterpret_cast<const int(*)[3]>(t.data()), &out);
    };
    Problem p = check(6, {{0, 5, 0}});
    CHECK(p.error_class == MPI_ERR_ARG);
    CHECK(p.message.find("ranges[0]={0, 5, 0} has stride 0") != std::string::npos);
    p = check(6, {{0, 1, 1}, {6, 6, 1}});
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("ranges[1]={6, 6, 1}: first rank 6") != std::string::npos);
    CHECK(check(6, {{5, 2, 1}}).error_class == MPI_ERR_ARG);
    CHECK(check(6, {{2, 5, -1}}).error_class == MPI_ERR_ARG);
    p = check(6, {{0, 9, 3}});
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("reaches rank 9") != std::string::npos);
    p = check(10, {{0, 8, 2}, {9, 1, -1}});
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("rank 2 is named by both ranges[0] and ranges[1]") != std::string::npos);
    // Only computed ranks must be valid: last may lie past the group.
    CHECK(!check(9, {{0, 10, 4}}));
    CHECK(out == std::vector<Prog>{{0, 4, 3}});
    CHECK(!check(5, {{4, -1, -2}}));
    CHECK(out == std::vector<Prog>{{4, -2, 3}});
    CHECK(check(5, {{3, -2, -2}}).error_class == MPI_ERR_RANK);  // computes -1
    // Interleaved residues are distinct; the check does not enumerate.
    const int big = 2000000000;
    CHECK(!check(big, {{0, big - 1, 3}, {1, big - 1, 3}, {big - 3, 2, -3}}));
    p = check(big, {{0, big - 1, 2}, {big - 2, 7, -10}});
    CHECK(p.error_class == MPI_ERR_RANK);
    CHECK(p.message.find("rank 8 is named by both ranges[0] and ranges[1]") != std::string::npos);
  }
}
