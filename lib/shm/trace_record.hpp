// The trace file format of mpiexec --trace, shared by the ranks (which write
// it, lib/core/trace.hpp) and mpiexec (which merges it, launcher/trace.cpp):
// a sequence of fixed-size records in the writer's byte order (both sides
// run on the same machine from the same build).
#pragma once

#include <cstdint>

namespace ringmpi::shm {

// The directory mpiexec gives the ranks for their rank-N.bin files.
inline constexpr const char* kEnvTraceDir = "RINGMPI_TRACE_DIR";

enum class TraceKind : std::uint32_t { call = 1, send = 2, recv = 3 };

// "No such argument" in a call record's peer/tag/count.
inline constexpr std::int32_t kTraceNone = INT32_MIN;

struct TraceRecord {
  std::uint64_t t0;     // call: begin; message: when sent / matched
  std::uint64_t t1;     // call: end; message: = t0
  std::uint64_t bytes;  // message: its size in bytes
  std::uint32_t kind;   // TraceKind
  std::int32_t peer;    // call: peer or root (kTraceNone); send: destination, recv: source (world ranks)
  std::int32_t tag;     // call and message: tag (kTraceNone)
  std::int32_t count;   // call: count (kTraceNone)
  std::uint32_t comm;   // call: communicator handle (MPI_COMM_NULL if none); message: context id
  std::uint32_t reserved;
  char name[40];        // call: "MPI_Send" (NUL-terminated, truncated)
  char datatype[32];    // call: datatype name, "" if none
  std::uint64_t reserved2;
};
static_assert(sizeof(TraceRecord) == 128);

}  // namespace ringmpi::shm
