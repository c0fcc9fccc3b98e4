#include "core/trace.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/runtime.hpp"

namespace ringmpi::core {
namespace {

// 4096 records: 512 KiB per rank, one write() per 4096 calls or messages.
constexpr std::size_t kBufferRecords = 4096;

void flush_at_exit() {
  if (rt().tracer) rt().tracer->flush();
}

}  // namespace

std::unique_ptr<Tracer> Tracer::open(const char* dir, int rank) {
  const std::uint64_t start = trace_clock();
  const std::string path = std::string(dir) + "/rank-" + std::to_string(rank) + ".bin";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::fprintf(stderr, "ringmpi: rank %d: cannot open the trace file %s; not tracing\n", rank, path.c_str());
    return nullptr;
  }
  std::atexit(flush_at_exit);  // once: MPI_Init runs once per process
  return std::unique_ptr<Tracer>(new Tracer(fd, start));
}

Tracer::Tracer(int fd, std::uint64_t start) : fd_(fd), start_(start), buf_(kBufferRecords) {}

Tracer::~Tracer() {
  flush();
  close(fd_);
}

void Tracer::flush() {
  const char* p = reinterpret_cast<const char*>(buf_.data());
  std::size_t left = used_ * sizeof(TraceRecord);
  used_ = 0;
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // disk full: the trace is short, the job goes on
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace ringmpi::core
