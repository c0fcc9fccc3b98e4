// Pack/unpack throughput of strided datatypes against memcpy of the same
// data bytes. The target: a vector of 256-byte blocks packs and unpacks at
// 0.5x memcpy or better.
//
//   build/bench/dtype/dtype_pack_bench --benchmark_filter=256
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "dtype/construct.hpp"

using namespace ringmpi::dtype;

namespace {

// `bytes` of data as blocks of `block` bytes, one block of gap after each.
struct Strided {
  TypePtr type;
  std::vector<char> typed, packed;
  Strided(std::size_t bytes, std::size_t block) {
    std::string why;
    const int blocks = int(bytes / block);
    type = make_hvector(blocks, int(block), MPI_Aint(2 * block), lookup_shared(MPI_BYTE), &why);
    commit(*type);
    typed.assign(2 * bytes, 1);
    packed.assign(bytes, 2);
  }
};

void BM_memcpy(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0));
  std::vector<char> a(bytes, 1), b(bytes, 2);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

void BM_pack_vector(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0)), block = std::size_t(state.range(1));
  Strided s(bytes, block);
  for (auto _ : state) {
    pack(s.typed.data(), 1, *s.type, 0, s.packed.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

void BM_unpack_vector(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0)), block = std::size_t(state.range(1));
  Strided s(bytes, block);
  for (auto _ : state) {
    unpack(s.typed.data(), 1, *s.type, 0, s.packed.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

// A transport's view: the same pack in 64 KiB pieces resumed at an offset.
void BM_pack_vector_chunked(benchmark::State& state) {
  const std::size_t bytes = std::size_t(state.range(0)), block = std::size_t(state.range(1));
  Strided s(bytes, block);
  const std::size_t chunk = 64 * 1024;
  for (auto _ : state) {
    for (std::size_t at = 0; at < bytes; at += chunk)
      pack(s.typed.data(), 1, *s.type, at, s.packed.data() + at, std::min(chunk, bytes - at));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

// An array of struct {int; double; char[3]} (15 data bytes in 24).
void BM_pack_struct(benchmark::State& state) {
  const int n = int(state.range(0));
  const int bl[] = {1, 1, 3};
  const MPI_Aint disp[] = {0, 8, 16};
  TypePtr types[] = {lookup_shared(MPI_INT), lookup_shared(MPI_DOUBLE), lookup_shared(MPI_CHAR)};
  std::string why;
  TypePtr t = make_struct(3, bl, disp, types, &why);
  commit(*t);
  std::vector<char> typed(std::size_t(n) * 24, 1), packed(std::size_t(n) * 15);
  for (auto _ : state) {
    pack(typed.data(), n, *t, 0, packed.data(), packed.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(packed.size()));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (long bytes : {64L << 10, 1L << 20, 16L << 20}) b->Arg(bytes);
}
void vector_sizes(benchmark::internal::Benchmark* b) {
  for (long block : {8L, 64L, 256L, 4096L})
    for (long bytes : {64L << 10, 1L << 20, 16L << 20}) b->Args({bytes, block});
}

}  // namespace

BENCHMARK(BM_memcpy)->Apply(sizes);
BENCHMARK(BM_pack_vector)->Apply(vector_sizes);
BENCHMARK(BM_unpack_vector)->Apply(vector_sizes);
BENCHMARK(BM_pack_vector_chunked)->Args({16L << 20, 256});
BENCHMARK(BM_pack_struct)->Arg(1 << 16);
BENCHMARK_MAIN();
