// Group algebra micro-benchmarks over virtual worlds of 1e3..1e9 ranks.
//
// The claim under test (MPI-3.1 §5.3.2, advice to implementors): range
// operations do not enumerate members, so the cost of building and querying
// range-built groups does not grow with their size. BM_Dense* does the same
// work on an enumerated std::vector, for contrast (up to 1e7 members).
//
//   build-x/bench/group/bench_group --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "group/algebra.hpp"

using namespace ringmpi::group;

namespace {

GroupPtr world(i64 n) { return Group::from_runs({{0, 1, static_cast<int>(n)}}); }
Prog every(i64 first, i64 stride, i64 n) { return make_prog(first, stride, (n - 1 - first) / stride + 1); }

void pieces(benchmark::State& st, const GroupPtr& g) {
  st.counters["pieces"] = static_cast<double>(g->pieces().size());
}

void BM_RangeIncl_Evens(benchmark::State& st) {
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = range_incl(*w, {every(0, 2, n)}));
  pieces(st, g);
}

void BM_RangeExcl_Thirds(benchmark::State& st) {  // all but every third: a periodic piece
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = range_excl(w, {every(0, 3, n)}));
  pieces(st, g);
}

void BM_RangeIncl_OfPeriodic(benchmark::State& st) {  // every 5th member of the above, backwards
  const i64 n = st.range(0);
  const GroupPtr t = range_excl(world(n), {every(0, 3, n)});
  const i64 m = t->size();
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = range_incl(*t, {make_prog(m - 1, -5, (m - 1) / 5 + 1)}));
  pieces(st, g);
}

void BM_Union_EvensOdds(benchmark::State& st) {
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const GroupPtr e = range_incl(*w, {every(0, 2, n)}), o = range_incl(*w, {every(1, 2, n)});
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = set_union(e, o));
  pieces(st, g);
}

void BM_Intersection_2and3(benchmark::State& st) {  // multiples of 6
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const GroupPtr a = range_incl(*w, {every(0, 2, n)}), b = range_incl(*w, {every(0, 3, n)});
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = intersection(a, b));
  pieces(st, g);
}

void BM_Difference_WorldMinusStride7(benchmark::State& st) {
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const GroupPtr b = range_incl(*w, {every(3, 7, n)});
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = difference(w, b));
  pieces(st, g);
}

void BM_Difference_BlocksMinusPeriodic(benchmark::State& st) {  // two halves minus "all but every third"
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const GroupPtr halves = range_incl(*w, {make_prog(n / 2, 1, n - n / 2), make_prog(0, 1, n / 2)});
  const GroupPtr t = range_excl(w, {every(0, 3, n)});
  GroupPtr g;
  for (auto _ : st) benchmark::DoNotOptimize(g = difference(halves, t));
  pieces(st, g);
}

void BM_Compare_Similar(benchmark::State& st) {  // evens then odds vs the world: MPI_SIMILAR
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const GroupPtr eo = range_incl(*w, {every(0, 2, n), every(1, 2, n)});
  for (auto _ : st) benchmark::DoNotOptimize(compare(*eo, *w));
}

// MPI_Group_translate_ranks of 1024 random ranks: world_rank in the first
// group, rank_of_world in the second. Reported per rank translated.
template <class Make>
void translate(benchmark::State& st, Make make) {
  const i64 n = st.range(0);
  const GroupPtr w = world(n);
  const auto [a, b] = make(w, n);
  std::mt19937_64 rng(1);
  std::vector<int> in(1024), out(1024);
  for (int& r : in) r = static_cast<int>(std::uniform_int_distribution<i64>(0, a->size() - 1)(rng));
  for (auto _ : st) {
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = b->rank_of_world(a->world_rank(in[i]));
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(static_cast<i64>(st.iterations()) * static_cast<i64>(in.size()));
}

void BM_Translate_EvensToWorld(benchmark::State& st) {
  translate(st, [](const GroupPtr& w, i64 n) { return std::pair{range_incl(*w, {every(0, 2, n)}), w}; });
}

void BM_Translate_CyclicToThirds(benchmark::State& st) {  // 8 interleaved runs into a periodic piece
  translate(st, [](const GroupPtr& w, i64 n) {
    std::vector<Prog> cyc;
    for (int i = 0; i < 8; ++i) cyc.push_back(every(i, 8, n));
    return std::pair{range_incl(*w, cyc), range_excl(w, {every(0, 3, n)})};
  });
}

// The same range_incl and translation on an enumerated vector.
void BM_Dense_RangeIncl_Evens(benchmark::State& st) {
  const i64 n = st.range(0);
  std::vector<int> w(static_cast<std::size_t>(n));
  std::iota(w.begin(), w.end(), 0);
  for (auto _ : st) {
    std::vector<int> g;
    g.reserve(static_cast<std::size_t>(n / 2 + 1));
    for (i64 k = 0; k < n; k += 2) g.push_back(w[static_cast<std::size_t>(k)]);
    benchmark::DoNotOptimize(g.data());
  }
}

void BM_Dense_Translate_EvensToWorld(benchmark::State& st) {  // sorted index, binary search
  const i64 n = st.range(0);
  std::vector<int> evens;
  for (i64 k = 0; k < n; k += 2) evens.push_back(static_cast<int>(k));
  std::vector<std::pair<int, int>> index;  // world rank -> world group rank
  for (i64 k = 0; k < n; ++k) index.push_back({static_cast<int>(k), static_cast<int>(k)});
  std::mt19937_64 rng(1);
  std::vector<int> in(1024), out(1024);
  for (int& r : in) r = static_cast<int>(std::uniform_int_distribution<i64>(0, static_cast<i64>(evens.size()) - 1)(rng));
  for (auto _ : st) {
    for (std::size_t i = 0; i < in.size(); ++i) {
      const int w = evens[static_cast<std::size_t>(in[i])];
      out[i] = std::lower_bound(index.begin(), index.end(), std::pair{w, 0})->second;
    }
    benchmark::DoNotOptimize(out.data());
  }
  st.SetItemsProcessed(static_cast<i64>(st.iterations()) * static_cast<i64>(in.size()));
}

constexpr i64 kMin = 1000, kMax = 1000000000;

}  // namespace

BENCHMARK(BM_RangeIncl_Evens)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_RangeExcl_Thirds)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_RangeIncl_OfPeriodic)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Union_EvensOdds)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Intersection_2and3)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Difference_WorldMinusStride7)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Difference_BlocksMinusPeriodic)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Compare_Similar)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Translate_EvensToWorld)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Translate_CyclicToThirds)->RangeMultiplier(10)->Range(kMin, kMax);
BENCHMARK(BM_Dense_RangeIncl_Evens)->RangeMultiplier(10)->Range(kMin, 10000000);
BENCHMARK(BM_Dense_Translate_EvensToWorld)->RangeMultiplier(10)->Range(kMin, 10000000);

BENCHMARK_MAIN();
