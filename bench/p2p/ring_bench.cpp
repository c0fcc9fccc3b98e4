// Micro-benchmarks of the SPSC ring (lib/shm/ring.hpp):
//   RingPushPop     one thread: the instruction cost of a record in and out
//   RingStream      producer and consumer threads: records/s and bytes/s
//   RingPingPong    two threads bounce one record over two rings: round-trip latency
// Run: build/bench/p2p/bench_ring [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <sched.h>
#include <sys/mman.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "shm/ring.hpp"

using namespace ringmpi::shm;

namespace {

struct Mem {
  explicit Mem(std::size_t bytes) : n(bytes) {
    p = static_cast<std::byte*>(mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  }
  ~Mem() { munmap(p, n); }
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
  std::size_t n;
  std::byte* p;
};

constexpr std::uint64_t kCap = 64 * 1024;

void RingPushPop(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  Mem m(kRingHeaderBytes + kCap);
  RingProducer p(m.p, kCap);
  RingConsumer c(m.p, kCap);
  std::vector<std::byte> src(bytes, std::byte{1}), dst(bytes);
  for (auto _ : state) {
    p.push(1, src.data(), bytes);
    Record r;
    c.peek(&r);
    std::memcpy(dst.data(), r.payload, r.bytes);
    c.pop(r);
    c.release_space();
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(RingPushPop)->Arg(0)->Arg(8)->Arg(64)->Arg(1024)->Arg(8192);

void RingStream(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  Mem m(kRingHeaderBytes + kCap);
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> consumed{0};
  std::thread consumer([&] {
    RingConsumer c(m.p, kCap);
    std::vector<std::byte> dst(bytes);
    std::uint64_t n = 0;
    Record r;
    while (!stop.load(std::memory_order_relaxed)) {
      while (c.peek(&r)) {
        std::memcpy(dst.data(), r.payload, r.bytes);
        c.pop(r);
        ++n;
      }
      c.release_space();
    }
    consumed.store(n);
  });
  RingProducer p(m.p, kCap);
  std::vector<std::byte> src(bytes, std::byte{2});
  for (auto _ : state)
    while (!p.push(1, src.data(), bytes)) {
    }
  stop.store(true);
  consumer.join();
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(RingStream)->Arg(8)->Arg(64)->Arg(1024)->Arg(8192)->UseRealTime();

void RingPingPong(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  Mem a(kRingHeaderBytes + kCap), b(kRingHeaderBytes + kCap);
  std::atomic<bool> stop{false};
  std::thread echo([&] {
    RingConsumer in(a.p, kCap);
    RingProducer out(b.p, kCap);
    Record r;
    while (!stop.load(std::memory_order_relaxed)) {
      if (!in.peek(&r)) continue;
      out.push(r.kind, r.payload, r.bytes);
      in.pop(r);
      in.release_space();
    }
  });
  RingProducer out(a.p, kCap);
  RingConsumer in(b.p, kCap);
  std::vector<std::byte> src(bytes, std::byte{3});
  for (auto _ : state) {
    out.push(1, src.data(), bytes);
    Record r;
    while (!in.peek(&r)) {
    }
    in.pop(r);
    in.release_space();
  }
  stop.store(true);
  echo.join();
}
BENCHMARK(RingPingPong)->Arg(8)->Arg(64)->Arg(1024)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
