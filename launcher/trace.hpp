// mpiexec --trace FILE: the ranks' trace files and their merge into Chrome
// trace-event JSON (Perfetto, chrome://tracing). The ranks write
// lib/core/trace.hpp's binary records into a private directory that
// TraceDir makes and always removes (its destructor runs on every exit of
// mpiexec's main, including a failed or killed job).
#pragma once

#include <string>

namespace ringmpi::launcher {

class TraceDir {
 public:
  // Makes $TMPDIR/ringmpi-trace-XXXXXX (or /tmp/...); path() is empty if that failed.
  TraceDir();
  ~TraceDir();  // removes the rank files and the directory
  TraceDir(const TraceDir&) = delete;
  TraceDir& operator=(const TraceDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Reads dir/rank-0.bin .. rank-(nranks-1).bin and writes the JSON to out_path.
// Returns "" or one sentence saying what went wrong.
std::string merge_trace(const std::string& dir, int nranks, const std::string& out_path);

}  // namespace ringmpi::launcher
