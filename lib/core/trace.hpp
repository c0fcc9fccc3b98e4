// mpiexec --trace: this rank's record of its MPI calls and messages.
//
// mpiexec makes a private directory and passes it as RINGMPI_TRACE_DIR (empty
// or unset: tracing off, Runtime::tracer stays null and every hook costs one
// predictable branch on that pointer). With tracing on, each rank appends
// fixed-size binary records (TraceRecord, 128 bytes, no text formatting) to a
// buffer in its own memory and writes the buffer to DIR/rank-N.bin with one
// write() when it is full, at MPI_Finalize and at exit(). A rank that crashes
// loses at most its unflushed buffer. mpiexec merges the files into Chrome
// trace-event JSON after the job (launcher/trace_merge.cpp) and removes them.
//
// Timestamps are CLOCK_MONOTONIC nanoseconds: one clock shared by every rank
// of the machine, so a message's send time is before its receive time.
//
// Messages are recorded where the engine hands them over and where a receive
// is matched (lib/p2p send.cpp, recv.cpp), so the library's own traffic (the
// messages of a collective) is in the trace too. A send is stamped before its
// data is visible to the receiver. Threads: ringmpi gives at most
// MPI_THREAD_SERIALIZED, so one thread at a time appends.
#pragma once

#include <cstdint>
#include <ctime>
#include <memory>
#include <vector>

#include "shm/trace_record.hpp"

namespace ringmpi::core {

using shm::kEnvTraceDir;
using shm::kTraceNone;
using shm::TraceKind;
using shm::TraceRecord;

inline std::uint64_t trace_clock() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

class Tracer {
 public:
  // Opens DIR/rank-<rank>.bin; nullptr (tracing off) if it cannot.
  static std::unique_ptr<Tracer> open(const char* dir, int rank);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // A record to fill; the buffer is written out first when full.
  TraceRecord& append() {
    if (used_ == buf_.size()) flush();
    TraceRecord& r = buf_[used_++];
    r = TraceRecord{};
    return r;
  }
  void message(TraceKind kind, std::uint64_t t, int peer_world, std::uint32_t context, int tag, std::uint64_t bytes) {
    TraceRecord& r = append();
    r.kind = static_cast<std::uint32_t>(kind);
    r.t0 = r.t1 = t;
    r.peer = peer_world;
    r.comm = context;
    r.tag = tag;
    r.bytes = bytes;
    r.count = kTraceNone;
  }
  // Writes the buffered records to the file (and empties the buffer).
  void flush();
  // When the tracer came to be (the begin of the MPI_Init record).
  std::uint64_t start() const { return start_; }

 private:
  Tracer(int fd, std::uint64_t start);
  int fd_;
  std::uint64_t start_;
  std::vector<TraceRecord> buf_;
  std::size_t used_ = 0;
};

}  // namespace ringmpi::core
