// Reduction kernel throughput (issue 36): the library's fold (dtype::reduce,
// what MPI_Reduce_local and every reduction's fold call) against memcpy of
// the same bytes, a plain scalar loop (vectoriser off) and the same loop
// vectorised for SSE2 only (what a generic x86-64 build gave before the
// kernels chose AVX2 at run time), 64 B .. 1 MiB per buffer.
//
//   build/bench/dtype/dtype_reduce_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "dtype/op.hpp"

using namespace ringmpi::dtype;

// GCC spells "this function without the vectoriser" / "at -O3" as attributes;
// clang has neither (its plain loop is the pragma's).
#if defined(__clang__)
#define NO_VECTORISE
#define AT_O3
#else
#define NO_VECTORISE gnu::optimize("no-tree-vectorize"),
#define AT_O3 gnu::optimize("O3"),
#endif

namespace {

template <class T>
[[NO_VECTORISE gnu::noinline]] void plain_sum(const T* a, T* b, std::size_t n) {
#if defined(__clang__)
#pragma clang loop vectorize(disable) interleave(disable)
#endif
  for (std::size_t i = 0; i < n; ++i) b[i] = T(a[i] + b[i]);
}

template <class T>
[[AT_O3 gnu::noinline]] void sse2_sum(const T* __restrict a, T* __restrict b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) b[i] = T(a[i] + b[i]);
}

template <class T>
struct Bufs {
  std::vector<T> a, b;
  std::size_t n;
  explicit Bufs(std::size_t bytes) : a(bytes / sizeof(T), T(1)), b(bytes / sizeof(T), T(2)), n(bytes / sizeof(T)) {}
};

void bytes_done(benchmark::State& state) {
  state.SetBytesProcessed(std::int64_t(state.iterations()) * state.range(0));
}

void BM_memcpy(benchmark::State& state) {
  Bufs<char> s(std::size_t(state.range(0)));
  for (auto _ : state) {
    std::memcpy(s.b.data(), s.a.data(), s.n);
    benchmark::ClobberMemory();
  }
  bytes_done(state);
}

template <class T>
void BM_plain_sum(benchmark::State& state) {
  Bufs<T> s(std::size_t(state.range(0)));
  for (auto _ : state) {
    plain_sum(s.a.data(), s.b.data(), s.n);
    benchmark::ClobberMemory();
  }
  bytes_done(state);
}

template <class T>
void BM_sse2_sum(benchmark::State& state) {
  Bufs<T> s(std::size_t(state.range(0)));
  for (auto _ : state) {
    sse2_sum(s.a.data(), s.b.data(), s.n);
    benchmark::ClobberMemory();
  }
  bytes_done(state);
}

// The library's fold, op and type looked up per call as MPI_Reduce_local does.
template <class T>
void BM_reduce(benchmark::State& state, MPI_Op op, MPI_Datatype type) {
  Bufs<T> s(std::size_t(state.range(0)));
  for (auto _ : state) {
    reduce(op, s.a.data(), s.b.data(), int(s.n), type);
    benchmark::ClobberMemory();
  }
  bytes_done(state);
}

void BM_reduce_double(benchmark::State& state, MPI_Op op) { BM_reduce<double>(state, op, MPI_DOUBLE); }
void BM_reduce_float(benchmark::State& state, MPI_Op op) { BM_reduce<float>(state, op, MPI_FLOAT); }
void BM_reduce_int(benchmark::State& state, MPI_Op op) { BM_reduce<int>(state, op, MPI_INT); }
void BM_reduce_long_long(benchmark::State& state, MPI_Op op) { BM_reduce<long long>(state, op, MPI_LONG_LONG); }

void sizes(benchmark::internal::Benchmark* b) {
  for (long bytes = 64; bytes <= (1L << 20); bytes *= 4) b->Arg(bytes);
}

}  // namespace

BENCHMARK(BM_memcpy)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_plain_sum, double)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_sse2_sum, double)->Apply(sizes);
BENCHMARK_CAPTURE(BM_reduce_double, sum, MPI_SUM)->Apply(sizes);
BENCHMARK_CAPTURE(BM_reduce_double, max, MPI_MAX)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_plain_sum, int)->Apply(sizes);
BENCHMARK_TEMPLATE(BM_sse2_sum, int)->Apply(sizes);
BENCHMARK_CAPTURE(BM_reduce_int, sum, MPI_SUM)->Apply(sizes);
BENCHMARK_CAPTURE(BM_reduce_float, max, MPI_MAX)->Apply(sizes);
BENCHMARK_CAPTURE(BM_reduce_long_long, max, MPI_MAX)->Apply(sizes);
BENCHMARK_MAIN();
